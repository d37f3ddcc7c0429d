// Engine throughput in thread-accesses per second (one lane's access = one thread-access) on
// synthetic traces, with one worker and with several workers on their own threads, and on trace
// prefixes of the gpubench workloads recorded on the H100 (traces/, record_traces.sh). One engine
// serves every iteration, as one session's engine serves all launches.
#include <benchmark/benchmark.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>
#include <variant>
#include <vector>

#include "engine/engine.h"
#include "engine/parallel_consume.h"
#include "engine/shadow_cell.h"
#include "synthetic_traces.h"
#include "trace/trace_reader.h"
#include "trace/trace_replay.h"

namespace barracuda::engine::bench {
namespace {

using TraceFactory = SyntheticTrace (*)(uint32_t blocks, uint32_t queues, uint32_t rounds);

void run_trace(benchmark::State& state, TraceFactory factory, uint32_t blocks, uint32_t rounds) {
  const auto workers = static_cast<uint32_t>(state.range(0));
  const SyntheticTrace trace = factory(blocks, workers, rounds);
  uint64_t races = 0;
  Engine engine(EngineConfig{workers});
  for (auto _ : state) {
    engine.begin_launch(trace.launch);
    // As the drain threads: each worker on its own thread, settling the launch together before it ends.
    consume_in_parallel(engine, trace.queues);
    engine.end_launch();
    races = engine.races().size();
  }
  state.counters["thread_accesses/s"] =
      benchmark::Counter(static_cast<double>(trace.thread_accesses) * state.iterations(), benchmark::Counter::kIsRate);
  state.counters["races"] = static_cast<double>(races);
  uint64_t slots = 0;
  for (const auto& queue : trace.queues) slots += queue.size();
  state.counters["slots/s"] =
      benchmark::Counter(static_cast<double>(slots) * state.iterations(), benchmark::Counter::kIsRate);
}

// A run stopped by a signal while a lock-heavy launch holds records back: the worker of queue 1 holds
// all of its records (their turns are queue 0's, never consumed); end_launch then drops them. Timed:
// end_launch alone, which runs under the results lock the report needs.
void BM_StoppedLaunchDropsItsBacklog(benchmark::State& state) {
  const SyntheticTrace trace = lane_locks(static_cast<uint32_t>(state.range(0)), 2, 4);
  Engine engine(EngineConfig{2});
  for (auto _ : state) {
    state.PauseTiming();
    engine.begin_launch(trace.launch);
    engine.worker(1).consume(trace.queues[1]);
    engine.stop_checking();
    state.ResumeTiming();
    engine.end_launch();
  }
}

// One word re-read, round after round, by `readers` threads (CUB's look-back status words under
// instrumentation: every later tile whose look-back reaches a tile reads its status, and spins on it).
// A reader count just under a power of two once made every few reads re-sort the whole list.
void BM_ManyReadersOfOneWord(benchmark::State& state) {
  struct NoConflicts final : ConflictSink {
    bool conflict(const Stamp&, uint32_t) override { return false; }
  } sink;
  const auto readers = static_cast<uint32_t>(state.range(0));
  constexpr uint32_t kRounds = 64;
  for (auto _ : state) {
    ShadowCell cell;
    Stamp read;
    read.kind.read = 1;
    for (uint32_t round = 0; round < kRounds; ++round) {
      read.clock = static_cast<Clock>(round + 1);
      for (uint32_t thread = 0; thread < readers; ++thread) {
        read.thread = static_cast<ThreadId>(thread);
        apply_whole_word_access(cell, read, sink, WorkerIndex{0});
      }
    }
    reset_cell(cell);
  }
  state.counters["reads/s"] =
      benchmark::Counter(static_cast<double>(readers) * kRounds * state.iterations(), benchmark::Counter::kIsRate);
}

void BM_Coalesced(benchmark::State& s) { run_trace(s, coalesced, 512, 8); }
void BM_CoalescedReuse(benchmark::State& s) { run_trace(s, coalesced_reuse, 512, 8); }
void BM_Strided(benchmark::State& s) { run_trace(s, strided, 512, 8); }
void BM_Scattered(benchmark::State& s) { run_trace(s, scattered, 512, 8); }
void BM_OneLocation(benchmark::State& s) { run_trace(s, one_location, 64, 4); }
void BM_CounterReadAndBumped(benchmark::State& s) { run_trace(s, counter_read_and_bumped, 64, 4); }
// Per-launch cost: one warp's load and store, one launch per iteration (gaussian issues 8,192 such
// small launches).
void BM_SmallLaunch(benchmark::State& s) { run_trace(s, coalesced, 1, 1); }
void BM_BroadcastRead(benchmark::State& s) { run_trace(s, broadcast_read, 2048, 1); }
void BM_LookBack(benchmark::State& s) { run_trace(s, look_back, 2048, 2); }
void BM_SpinningLookBack(benchmark::State& s) { run_trace(s, spinning_look_back, 1024, 64); }
void BM_BarrierHeavy(benchmark::State& s) { run_trace(s, barrier_heavy, 256, 16); }
void BM_AtomicReduction(benchmark::State& s) { run_trace(s, atomic_reduction, 2048, 4); }
void BM_BarriersOnly(benchmark::State& s) { run_trace(s, barriers_only, 2048, 16); }
void BM_LockHeavy(benchmark::State& s) { run_trace(s, lock_heavy, 64, 4); }
void BM_TicketedLock(benchmark::State& s) { run_trace(s, ticketed_lock, 64, 16); }
void BM_LaneLocks(benchmark::State& s) { run_trace(s, lane_locks, 64, 4); }
// 32 blocks (cooperative_solver's grid), each block's thread 0 reading the grid's counter 64 times per
// sync as an unfiltered spin may, and once.
void BM_GridSyncSpinning(benchmark::State& s) { run_trace(s, grid_sync, 32, 64); }
void BM_GridSyncOneRead(benchmark::State& s) { run_trace(s, grid_sync, 32, 1); }

BENCHMARK(BM_Coalesced)->Arg(1)->Arg(2)->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CoalescedReuse)->Arg(1)->Arg(2)->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Strided)->Arg(1)->Arg(2)->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Scattered)->Arg(1)->Arg(2)->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
// Aggregate throughput of 15 workers (a 16-core host minus the launching thread), per second of
// wall-clock time: meaningful only on a machine with that many idle cores.
BENCHMARK(BM_Coalesced)->Arg(15)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Strided)->Arg(15)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Scattered)->Arg(15)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BroadcastRead)->Arg(15)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LookBack)->Arg(1)->Arg(2)->Arg(15)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SpinningLookBack)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OneLocation)->Arg(1)->Arg(2)->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CounterReadAndBumped)->Arg(1)->Arg(2)->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SmallLaunch)->Arg(1)->MeasureProcessCPUTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BroadcastRead)->Arg(1)->Arg(2)->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BarrierHeavy)->Arg(1)->Arg(2)->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AtomicReduction)->Arg(1)->Arg(2)->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BarriersOnly)->Arg(1)->Arg(2)->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LockHeavy)->Arg(1)->Arg(2)->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TicketedLock)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LaneLocks)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GridSyncSpinning)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GridSyncOneRead)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ManyReadersOfOneWord)->Arg(200)->Arg(1000)->Arg(1020)->Arg(4000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StoppedLaunchDropsItsBacklog)->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond)->Iterations(3);

// A recorded trace's launches and slot chunks, decompressed once, replayed per iteration with one
// worker (the rate is per drain thread). The prefixes are cut at a size, not at a causal boundary:
// the races and divergences they report are artefacts of the cut, and are part of the work measured.
using ReplayStep = std::variant<trace::LaunchDescriptor, trace::SlotChunk>;

std::vector<ReplayStep> load_trace(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  trace::TraceReader reader(in);
  std::vector<ReplayStep> steps;
  while (auto item = reader.next()) {
    if (auto* launch = std::get_if<trace::LaunchDescriptor>(&*item)) steps.emplace_back(std::move(*launch));
    if (auto* chunk = std::get_if<trace::SlotChunk>(&*item)) steps.emplace_back(std::move(*chunk));
  }
  return steps;
}

void BM_Recorded(benchmark::State& state, const std::vector<ReplayStep>& steps) {
  Engine engine(EngineConfig{1});
  const EngineStats& stats = engine.stats();
  const uint64_t accesses_before = stats.thread_accesses, records_before = stats.records;
  for (auto _ : state) {
    trace::TraceReplay replay(engine, WarpModel::kIndependent);
    for (const ReplayStep& step : steps) {
      if (auto* launch = std::get_if<trace::LaunchDescriptor>(&step)) replay.launch(*launch);
      if (auto* chunk = std::get_if<trace::SlotChunk>(&step)) replay.slots(*chunk);
    }
    replay.finish();
  }
  state.counters["thread_accesses/s"] =
      benchmark::Counter(static_cast<double>(stats.thread_accesses - accesses_before), benchmark::Counter::kIsRate);
  state.counters["records/s"] = benchmark::Counter(static_cast<double>(stats.records - records_before),
                                                   benchmark::Counter::kIsRate);
}

void register_recorded_traces() {
  static std::map<std::string, std::vector<ReplayStep>> traces;  // outlive the registered benchmarks
  for (const auto& entry : std::filesystem::directory_iterator(BARRACUDA_RECORDED_TRACES)) {
    if (entry.path().extension() != ".bctrace") continue;
    auto& steps = traces[entry.path().stem().string()] = load_trace(entry.path());
    benchmark::RegisterBenchmark(("BM_Recorded/" + entry.path().stem().string()).c_str(), BM_Recorded, steps)
        ->MeasureProcessCPUTime()
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace
}  // namespace barracuda::engine::bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  barracuda::engine::bench::register_recorded_traces();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
