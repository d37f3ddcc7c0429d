// Engine throughput in thread-accesses per second (one lane's access = one thread-access) on
// synthetic traces, with one worker and with several workers on their own threads. One engine
// serves every iteration, one launch each, as one session's engine serves all launches.
#include <benchmark/benchmark.h>

#include <thread>
#include <vector>

#include "engine/engine.h"
#include "synthetic_traces.h"

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
    std::vector<std::thread> threads;
    for (uint32_t q = 0; q < workers; ++q) {
      threads.emplace_back([&engine, &trace, q] { engine.worker(q).consume(trace.queues[q]); });
    }
    for (std::thread& t : threads) t.join();
    engine.end_launch();
    races = engine.races().size();
  }
  state.counters["thread_accesses/s"] =
      benchmark::Counter(static_cast<double>(trace.thread_accesses) * state.iterations(), benchmark::Counter::kIsRate);
  state.counters["races"] = static_cast<double>(races);
}

void BM_Coalesced(benchmark::State& s) { run_trace(s, coalesced, 512, 8); }
void BM_CoalescedReuse(benchmark::State& s) { run_trace(s, coalesced_reuse, 512, 8); }
void BM_Strided(benchmark::State& s) { run_trace(s, strided, 512, 8); }
void BM_Scattered(benchmark::State& s) { run_trace(s, scattered, 512, 8); }
void BM_OneLocation(benchmark::State& s) { run_trace(s, one_location, 64, 4); }
void BM_BarrierHeavy(benchmark::State& s) { run_trace(s, barrier_heavy, 256, 16); }
void BM_LockHeavy(benchmark::State& s) { run_trace(s, lock_heavy, 64, 4); }

BENCHMARK(BM_Coalesced)->Arg(1)->Arg(2)->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CoalescedReuse)->Arg(1)->Arg(2)->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Strided)->Arg(1)->Arg(2)->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Scattered)->Arg(1)->Arg(2)->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
// Aggregate throughput of 15 workers (a 16-core host minus the launching thread), per second of
// wall-clock time: meaningful only on a machine with that many idle cores.
BENCHMARK(BM_Coalesced)->Arg(15)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Strided)->Arg(15)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Scattered)->Arg(15)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OneLocation)->Arg(1)->Arg(2)->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BarrierHeavy)->Arg(1)->Arg(2)->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LockHeavy)->Arg(1)->Arg(2)->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace barracuda::engine::bench

BENCHMARK_MAIN();
