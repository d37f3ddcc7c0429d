// Trace write/read throughput and compression ratio on a synthetic stream shaped like a coalesced
// kernel's log: per warp a run of affine loads and stores at a few sites, blocks interleaved.
//   build/bin/trace_benchmark --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <sstream>

#include "trace/trace_reader.h"
#include "trace/trace_writer.h"

namespace barracuda::trace {
namespace {

constexpr size_t kSlots = 1u << 20;  // 32 MiB of raw slots

std::vector<RecordHeader> kernel_like_slots() {
  std::vector<RecordHeader> slots(kSlots);
  uint64_t random = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < kSlots; ++i) {
    random = random * 6364136223846793005ull + 1442695040888963407ull;
    const uint32_t warp = static_cast<uint32_t>(i / 16);
    RecordHeader& slot = slots[i];
    slot.op = static_cast<uint8_t>(i % 3 == 2 ? RecordOp::kStore : RecordOp::kLoad);
    slot.space_sem = pack_space_sem(MemorySpace::kGlobal, MemorySemantics::kWeak, MemoryScope::kSystem);
    slot.size_mode = pack_size_mode(2, AddressMode::kAffine);
    slot.active_mask = (random >> 60) == 0 ? static_cast<uint32_t>(random) : 0xffffffffu;  // some divergence
    slot.site_id = 100 + static_cast<uint32_t>(i % 16);
    slot.block_id = warp / 8 + static_cast<uint32_t>((random >> 40) % 4);  // blocks drain interleaved
    slot.warp_id = static_cast<uint16_t>(warp % 8);
    slot.launch_id = 7;
    slot.stride = 4;
    slot.base = 0x7f0000000000ull + (uint64_t{warp} * 16 + i % 16) * 128;
  }
  return slots;
}

std::string written_trace(const std::vector<RecordHeader>& slots) {
  std::ostringstream out;
  TraceWriter writer{out};
  writer.write_slots(0, slots);
  writer.finish();
  return out.str();
}

void BM_WriteTrace(benchmark::State& state) {
  const auto slots = kernel_like_slots();
  size_t file_bytes = 0;
  for (auto _ : state) file_bytes = written_trace(slots).size();
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kSlots * kSlotBytes));
  state.counters["ratio"] = static_cast<double>(kSlots * kSlotBytes) / static_cast<double>(file_bytes);
}
BENCHMARK(BM_WriteTrace)->Unit(benchmark::kMillisecond);

void BM_ReadTrace(benchmark::State& state) {
  const std::string trace = written_trace(kernel_like_slots());
  for (auto _ : state) {
    std::istringstream in{trace};
    TraceReader reader{in};
    size_t slots = 0;
    while (auto item = reader.next()) slots += std::get<SlotChunk>(*item).slots.size();
    benchmark::DoNotOptimize(slots);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kSlots * kSlotBytes));
}
BENCHMARK(BM_ReadTrace)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace barracuda::trace

BENCHMARK_MAIN();
