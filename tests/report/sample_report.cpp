#include "sample_report.h"

#include <utility>

namespace barracuda::report::testing {

Site source_site(const char* function, const char* file, uint32_t line, uint32_t column) {
  return Site{function, line * 10, SourceLocation{file, line, column}, {}};
}

namespace {

Site ptx_site(const char* function, uint32_t ptx_line) {
  Site site;
  site.function = function;
  site.ptx_line = ptx_line;
  return site;
}

Access access(Site site, ThreadCoordinates thread, AccessOperation kind) {
  Access result;
  result.site = std::move(site);
  result.thread = thread;
  result.kind = kind;
  return result;
}

}  // namespace

Race sample_race(const Site& first, const Site& second) {
  Race race;
  race.kernel = std::string{"k"};
  race.previous.site = first;
  race.previous.kind = AccessOperation::kWrite;
  race.current.site = second;
  race.current.kind = AccessOperation::kWrite;
  return race;
}

Report sample_report() {
  Report report;
  report.run = RunInfo{"0.1.0", {"./histogram", "--bins", "256"}, "NVIDIA H100 80GB HBM3", "2026-11-22T21:00:00Z",
                       WarpModel::kIndependent, 4242};
  report.summary.kernels_instrumented = 3;
  report.summary.kernels_machine_code = {"triton_poi_fused_add_0"};
  report.summary.kernels_skipped = {{"cublasLt_sm90_gemm", "no sm_90 PTX in the fat binary"}};
  report.summary.unlogged_instructions = {{"ldmatrix", {"gemm_tensor_cores", "attention", "softmax", "layernorm"}}};
  report.summary.launches = 12;
  report.summary.launches_filtered = 5;
  report.summary.events = 123456;
  report.summary.dropped_events = 7;
  report.summary.suppressed_races = 1;

  Race inter_block;
  inter_block.race_class = RaceClass::kInterBlock;
  inter_block.hazard = Hazard::kWriteAfterWrite;
  inter_block.space = MemorySpace::kGlobal;
  inter_block.scope = MemoryScope::kSystem;
  inter_block.address = 0x7f3a00001000;
  inter_block.size = 4;
  inter_block.kernel = "histogram";
  inter_block.launch_index = 3;
  inter_block.dynamic_count = 17;
  Site add_bin = source_site("add_bin", "/src/hist.cu", 12, 5);
  add_bin.inlined_at.push_back(InlinedFrame{"histogram", SourceLocation{"/src/hist.cu", 30, 9}});
  inter_block.current = access(add_bin, ThreadCoordinates{{1, 0, 0}, {3, 0, 0}, 0, 3}, AccessOperation::kWrite);
  inter_block.previous = access(source_site("histogram", "/src/hist.cu", 31, 7),
                                ThreadCoordinates{{0, 0, 0}, {35, 0, 0}, 1, 3}, AccessOperation::kWrite);
  inter_block.allocation = Allocation{AllocationKind::kMemAlloc, 0x7f3a00000ff0, 1024, 0x10, "", {},
                                      {"cudaMalloc+0x5f (histogram)", "main+0x1c (histogram)"}};
  inter_block.previous.out_of_bounds =
      OutOfBounds{1, "int const*", Allocation{AllocationKind::kMemAlloc, 0x7f3a00000bf0, 1024, 0x0, "", {},
                                              {"cudaMalloc+0x5f (histogram)", "main+0x18 (histogram)"}}};

  Race intra_warp;
  intra_warp.race_class = RaceClass::kIntraWarp;
  intra_warp.hazard = Hazard::kReadAfterWrite;
  intra_warp.space = MemorySpace::kShared;
  intra_warp.address = 0x80;
  intra_warp.size = 8;
  intra_warp.kernel = "reduce";
  intra_warp.launch_index = 5;
  intra_warp.dynamic_count = 1;
  intra_warp.current = access(ptx_site("reduce", 112), ThreadCoordinates{{2, 1, 0}, {4, 2, 0}, 2, 4}, AccessOperation::kRead);
  intra_warp.previous = access(ptx_site("reduce", 108), ThreadCoordinates{{2, 1, 0}, {5, 2, 0}, 2, 5}, AccessOperation::kWrite);
  intra_warp.allocation = Allocation{.kind = AllocationKind::kShared, .offset = 0x80, .block = {2, 1, 0}};

  Race scoped;
  scoped.race_class = RaceClass::kScoped;
  scoped.hazard = Hazard::kAtomicPlain;
  scoped.space = MemorySpace::kGlobal;
  scoped.scope = MemoryScope::kCta;
  scoped.address = 0x7f3a00002000;
  scoped.size = 4;
  scoped.kernel = "counter";
  scoped.launch_index = 7;
  scoped.dynamic_count = 2;
  scoped.known = true;
  scoped.current = access(source_site("counter", "src/count.cu", 8, 3), ThreadCoordinates{{4, 0, 0}, {0, 0, 0}, 0, 0},
                          AccessOperation::kAtomic);
  scoped.current.semantics = MemorySemantics::kRelaxed;
  scoped.current.scope = MemoryScope::kCta;
  scoped.previous = access(source_site("counter", "src/count.cu", 9, 3), ThreadCoordinates{{1, 0, 0}, {0, 0, 0}, 0, 0},
                           AccessOperation::kRead);

  report.races = {inter_block, intra_warp, scoped};
  report.diagnostics = {
      Diagnostic{DiagnosticKind::kBarrierDivergence, "reduce", 5, source_site("reduce", "/src/reduce.cu", 40, 5),
                 ThreadCoordinates{{0, 0, 0}, {0, 0, 0}, 0, 0}, "14 of 32 lanes of warp 3 arrived"},
      Diagnostic{DiagnosticKind::kRedundantBarrier, "histogram", 3, source_site("histogram", "/src/hist.cu", 33, 3),
                 ThreadCoordinates{{0, 0, 0}, {0, 0, 0}, 0, 0}, ""},
  };

  Statistics statistics;  // times in binary fractions, so the golden JSON spells them exactly
  statistics.slots = 150000;
  statistics.queue_host_bytes = 132u << 20;
  statistics.queue_device_bytes = 17024;
  statistics.drain_threads = 15;
  statistics.drain_wait = Seconds{0.5};
  statistics.engine_time = Seconds{2.75};
  statistics.engine_thread_accesses = 5500000;
  statistics.engine_peak_resident_blocks = 264;
  statistics.engine_repeated_reads = 4000;
  statistics.engine_peak_held_back_records = 1200;
  statistics.engine_records_applied_at_launch_end = 40;
  statistics.launches_global_on_device = 2;
  statistics.global_on_host_reason = "_Z6gatherPKfPf: another launch may run beside it";
  statistics.modules_instrumented = 3;
  statistics.cache_misses = 1;
  statistics.jit_time = Seconds{1.25};
  statistics.cache_hits = 2;
  statistics.cache_load_time = Seconds{0.0625};
  report.statistics = statistics;
  return report;
}

}  // namespace barracuda::report::testing
