// barracuda-litmus: runs the litmus matrix (model.h) on the GPU, with and without memory stress, and
// prints one row per cell: iterations, weak outcomes seen, and whether the PTX model allows them.
// Exit code 1 when the hardware showed an outcome the model forbids (a harness or model bug to chase).
//
//   barracuda-litmus [--iterations N] [--only TEST] [--markdown FILE] [--seed S]
//                    [--stress-lines L] [--stress-iterations K] [--location-spread W] [--stress-blocks B]
//   barracuda-litmus --tune [--tune-iterations N] [--tune-seconds S] [--tune-max-launch-ms M]
//                                                              search the stress setting
//   barracuda-litmus --detector-cell TEST:VARIANT:PLACEMENT   one instance, for `barracuda run`
//   barracuda-litmus --list-cells                              every cell and the detector's expected verdict

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cell.h"
#include "kernel.cuh"
#include "placement.h"
#include "tune.h"

namespace litmus {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "barracuda-litmus: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(2);
  }
}

struct Options {
  long iterations = 100000;
  StressSetting stress;
  std::string only;
  std::string markdown;
  unsigned seed = 1;
  bool tune = false;
  long tune_iterations = 50000;
  double tune_seconds = 100;
  double tune_max_launch_ms = 6;
  std::string detector_cell;
  bool list_cells = false;
};

// The device, the buffers and the launch shape shared by every run of the process.
struct Harness {
  cudaDeviceProp prop{};
  Geometry geometry{};
  int max_stress_blocks = 0;  // beyond the test blocks, keeping the whole grid co-resident
  DeviceBuffers dev{};
  std::mt19937 rng;
};

struct CellResult {
  long iterations = 0;
  long weak = 0;
  long launches = 0;
  double seconds = 0;  // wall time of the launches, host work included
};

// One launch of `cell` with the roles in `a`; returns the results of its instances.
std::vector<uint32_t> launch(Harness& h, const Cell& cell, const Assignment& a, const Geometry& g, LaunchParams p,
                             int stress_blocks) {
  DeviceBuffers& dev = h.dev;
  check(cudaMemcpy(dev.roles, a.role_of_thread.data(), a.role_of_thread.size() * 4, cudaMemcpyHostToDevice), "copy roles");
  check(cudaMemcpy(dev.slots, a.location_slot.data(), a.location_slot.size() * 4, cudaMemcpyHostToDevice), "copy slots");
  check(cudaMemset(dev.memory, 0, a.location_slot.size() * p.spread_words * 4), "clear memory");
  check(cudaMemset(dev.results, 0xff, a.instances * 16), "clear results");
  check(cudaMemset(dev.start, 0, sizeof(unsigned)), "clear start");
  int grid = g.blocks + (p.stress ? stress_blocks : 0);
  kKernels[cell.test][cell.variant]<<<grid, g.threads_per_block>>>(dev, p);
  check(cudaGetLastError(), "launch");
  std::vector<uint32_t> results(4 * a.instances);
  check(cudaMemcpy(results.data(), dev.results, results.size() * 4, cudaMemcpyDeviceToHost), "copy results");
  return results;
}

CellResult run_cell(Harness& h, const Cell& cell, long iterations, const StressSetting& s, bool stressed) {
  LaunchParams p{};
  p.test_blocks = h.geometry.blocks;
  p.spread_words = s.spread_words;
  p.stress = stressed;
  p.stress_lines = s.lines;
  p.stress_iterations = s.iterations;
  CellResult r;
  auto t0 = std::chrono::steady_clock::now();
  while (r.iterations < iterations) {
    Assignment a = assign_roles(cell.litmus_test(), cell.placement, h.geometry, h.rng);
    std::vector<uint32_t> results = launch(h, cell, a, h.geometry, p, s.stress_blocks);
    for (int i = 0; i < a.instances; ++i) r.weak += is_weak_outcome(cell.litmus_test(), &results[4 * i]);
    r.iterations += a.instances;
    ++r.launches;
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

constexpr const char* kFlagNotSeen = "note: the reader never saw the flag";  // detector.py looks for it

// One instance of one cell on fixed threads, no stress: the run `litmus/detector.py` checks under
// `barracuda run`. Prints the outcome; the verdict is the detector's.
int run_detector_cell(Harness& h, const Cell& cell) {
  Geometry g{4, 4 * kLanes};  // room for IRIW's four threads in every placement
  Assignment a = fixed_roles(cell.litmus_test(), cell.placement, g);
  LaunchParams p{};
  p.test_blocks = g.blocks;
  p.spread_words = kLineWords;
  p.await_flag = true;
  std::vector<uint32_t> r = launch(h, cell, a, g, p, 0);
  check(cudaDeviceSynchronize(), "synchronize");
  // The detector reports races by address; detector.py keeps those on x and y (all else is the harness).
  std::printf("locations: x=%p y=%p\n", static_cast<void*>(h.dev.memory + a.location_slot[0] * p.spread_words),
              static_cast<void*>(h.dev.memory + a.location_slot[1] * p.spread_words));
  std::printf("%s: results %d %d %d %d (%s outcome)\n", cell_name(cell).c_str(), static_cast<int>(r[0]),
              static_cast<int>(r[1]), static_cast<int>(r[2]), static_cast<int>(r[3]),
              is_weak_outcome(cell.litmus_test(), r.data()) ? "weak" : "strong");
  // Then the payload read was not the synchronised execution the expected verdict assumes.
  if (cell.litmus_test() == LitmusTest::kMP && r[0] != 1) std::printf("%s\n", kFlagNotSeen);
  return 0;
}

// Searches tuning_grid() for the setting that shows the most weak outcomes on the MP cells known to be
// weak between blocks (no fence, membar.cta), in random order until 3/4 of the time budget is spent;
// then re-runs the best few with three times the iterations and keeps the best total. Settings whose
// launches take longer than --tune-max-launch-ms are not eligible: the full table runs every cell with
// the chosen one, and must fit in one device call.
StressSetting tune(Harness& h, const Options& opt) {
  const Cell probes[] = {*parse_cell("MP:no-fence:inter-block"), *parse_cell("MP:membar.cta:inter-block")};
  struct Score {
    long weak = 0;
    double ms_per_launch = 0;
  };
  auto score = [&](const StressSetting& s, long iterations, bool stressed) {
    CellResult total;
    for (const Cell& c : probes) {
      CellResult r = run_cell(h, c, iterations, s, stressed);
      total.weak += r.weak;
      total.launches += r.launches;
      total.seconds += r.seconds;
    }
    return Score{total.weak, 1e3 * total.seconds / static_cast<double>(total.launches)};
  };
  auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  Score plain = score(opt.stress, opt.tune_iterations, false);
  std::printf("tune: without stress: %ld weak in 2 x %ld iterations, %.2f ms per launch\n", plain.weak,
              opt.tune_iterations, plain.ms_per_launch);
  std::vector<StressSetting> grid = tuning_grid(h.prop.multiProcessorCount, h.max_stress_blocks);
  std::shuffle(grid.begin(), grid.end(), h.rng);
  std::vector<std::pair<long, StressSetting>> eligible;
  size_t tried = 0;
  for (const StressSetting& s : grid) {
    if (elapsed() > 0.75 * opt.tune_seconds) break;
    Score r = score(s, opt.tune_iterations, true);
    ++tried;
    bool fast_enough = r.ms_per_launch <= opt.tune_max_launch_ms;
    if (fast_enough) eligible.emplace_back(r.weak, s);
    std::printf("tune: %s: %ld weak, %.2f ms per launch%s\n", setting_arguments(s).c_str(), r.weak, r.ms_per_launch,
                fast_enough ? "" : " (too slow)");
  }
  std::printf("tune: %zu of %zu settings tried in %.0f s, %zu fast enough\n", tried, grid.size(), elapsed(),
              eligible.size());
  std::stable_sort(eligible.begin(), eligible.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  eligible.resize(std::min<size_t>(eligible.size(), 3));
  for (auto& [weak, s] : eligible) {
    weak += score(s, 3 * opt.tune_iterations, true).weak;
    std::printf("tune: confirm %s: %ld weak in 2 x %ld iterations\n", setting_arguments(s).c_str(), weak,
                4 * opt.tune_iterations);
  }
  auto best = std::max_element(eligible.begin(), eligible.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::printf("tune: %.0f s in all\n", elapsed());
  return best == eligible.end() ? opt.stress : best->second;
}

// Runs every cell (of `--only`) and prints its row; returns the number of cells whose hardware outcome
// the model forbids.
int print_table(Harness& h, const Options& opt) {
  int violations = 0;
  FILE* md = opt.markdown.empty() ? nullptr : std::fopen(opt.markdown.c_str(), "w");
  if (!opt.markdown.empty() && !md) {
    std::fprintf(stderr, "barracuda-litmus: cannot write %s\n", opt.markdown.c_str());
    std::exit(2);
  }
  if (md) {
    std::fprintf(md, "| test | variant | placement | PTX model | iterations | weak (no stress) | weak (stress) |\n");
    std::fprintf(md, "| --- | --- | --- | --- | ---: | ---: | ---: |\n");
  }
  for (const Cell& cell : all_cells()) {
    if (!opt.only.empty() && opt.only != test_name(cell.litmus_test())) continue;
    bool allowed = weak_outcome_allowed(cell.litmus_test(), cell.litmus_variant(), cell.placement);
    CellResult plain = run_cell(h, cell, opt.iterations, opt.stress, false);
    CellResult stressed = run_cell(h, cell, opt.iterations, opt.stress, true);
    bool violation = !allowed && (plain.weak > 0 || stressed.weak > 0);
    violations += violation;
    std::string test(test_name(cell.litmus_test())), variant(cell.litmus_variant().name);
    std::string placement(placement_name(cell.placement));
    const char* model = allowed ? "allowed" : "forbidden";
    std::printf("%-5s %-20s %-12s %-9s iters %8ld weak %6ld stressed %6ld%s\n", test.c_str(), variant.c_str(),
                placement.c_str(), model, plain.iterations, plain.weak, stressed.weak,
                violation ? "  <-- FORBIDDEN OUTCOME SEEN" : "");
    if (md) {
      std::fprintf(md, "| %s | %s | %s | %s | %ld | %ld | %ld |\n", test.c_str(), variant.c_str(), placement.c_str(),
                   model, plain.iterations, plain.weak, stressed.weak);
    }
  }
  if (md) std::fclose(md);
  return violations;
}

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "barracuda-litmus: %s\n", message.c_str());
  std::exit(2);
}

unsigned long number(const std::string& arg, const std::string& text) {
  try {
    size_t used = 0;
    unsigned long v = std::stoul(text, &used);
    if (used == text.size() && text[0] != '-') return v;
  } catch (const std::exception&) {
  }
  usage_error(arg + " needs a non-negative integer, not '" + text + "'");
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage_error(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--iterations") o.iterations = static_cast<long>(number(arg, value()));
    else if (arg == "--stress-lines") o.stress.lines = number(arg, value());
    else if (arg == "--stress-iterations") o.stress.iterations = number(arg, value());
    else if (arg == "--location-spread") o.stress.spread_words = number(arg, value());
    else if (arg == "--stress-blocks") o.stress.stress_blocks = static_cast<int>(number(arg, value()));
    else if (arg == "--only") o.only = value();
    else if (arg == "--markdown") o.markdown = value();
    else if (arg == "--seed") o.seed = number(arg, value());
    else if (arg == "--tune") o.tune = true;
    else if (arg == "--tune-iterations") o.tune_iterations = static_cast<long>(number(arg, value()));
    else if (arg == "--tune-seconds") o.tune_seconds = static_cast<double>(number(arg, value()));
    else if (arg == "--tune-max-launch-ms") o.tune_max_launch_ms = static_cast<double>(number(arg, value()));
    else if (arg == "--detector-cell") o.detector_cell = value();
    else if (arg == "--list-cells") o.list_cells = true;
    else usage_error("unknown argument " + arg);
  }
  if (o.iterations <= 0 || o.tune_iterations <= 0 || o.stress.lines == 0) {
    usage_error("--iterations, --tune-iterations and --stress-lines must be positive");
  }
  if (o.stress.spread_words == 0 || o.stress.spread_words > kMaxSpreadWords) {
    usage_error("--location-spread must be 1.." + std::to_string(kMaxSpreadWords) + " words");
  }
  if (!o.detector_cell.empty() && !parse_cell(o.detector_cell)) {
    usage_error("no cell " + o.detector_cell + " (TEST:VARIANT:PLACEMENT, see --list-cells)");
  }
  return o;
}

void list_cells() {
  for (const Cell& c : all_cells()) {
    Verdict v = expected_detector_verdict(c.litmus_test(), c.litmus_variant(), c.placement);
    std::printf("%s\t%s\n", cell_name(c).c_str(), std::string(verdict_name(v)).c_str());
  }
}

// Blocks of 256 threads that fit on the GPU at once, for the kernel with the fewest.
int co_resident_blocks(const cudaDeviceProp& prop, int threads_per_block) {
  int fewest = 1 << 30;
  for (const auto& of_test : kKernels) {
    for (KernelFn k : of_test) {
      int per_sm = 0;
      check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, threads_per_block, 0), "occupancy");
      fewest = std::min(fewest, per_sm);
    }
  }
  return fewest * prop.multiProcessorCount;
}

}  // namespace
}  // namespace litmus

int main(int argc, char** argv) {
  using namespace litmus;
  Options opt = parse(argc, argv);
  if (opt.list_cells) {
    list_cells();
    return 0;
  }
  int device_count = 0;
  if (cudaGetDeviceCount(&device_count) != cudaSuccess || device_count == 0) {
    std::fprintf(stderr, "barracuda-litmus: no CUDA device; skipped\n");
    return 77;
  }
  Harness h;
  h.rng.seed(opt.seed);
  check(cudaGetDeviceProperties(&h.prop, 0), "device properties");
  h.geometry = Geometry{2 * h.prop.multiProcessorCount, 256};
  size_t max_instances = h.geometry.threads() / 2;
  DeviceBuffers& dev = h.dev;
  check(cudaMalloc(&dev.roles, h.geometry.threads() * 4), "alloc");
  check(cudaMalloc(&dev.slots, 2 * max_instances * 4), "alloc");
  check(cudaMalloc(&dev.memory, 2 * max_instances * kMaxSpreadWords * 4), "alloc");
  check(cudaMalloc(&dev.results, 4 * max_instances * 4), "alloc");
  check(cudaMalloc(&dev.scratch, std::max(opt.stress.lines, 256u) * kLineWords * 4), "alloc");
  check(cudaMalloc(&dev.start, sizeof(unsigned)), "alloc");

  if (!opt.detector_cell.empty()) return run_detector_cell(h, *parse_cell(opt.detector_cell));

  h.max_stress_blocks = co_resident_blocks(h.prop, h.geometry.threads_per_block) - h.geometry.blocks;
  if (opt.stress.stress_blocks < 0) opt.stress.stress_blocks = std::min(h.prop.multiProcessorCount, h.max_stress_blocks);
  if (opt.stress.stress_blocks > h.max_stress_blocks) {
    usage_error("--stress-blocks: at most " + std::to_string(h.max_stress_blocks) + " fit beside the test blocks");
  }
  if (opt.tune) {
    StressSetting best = tune(h, opt);
    std::printf("tuned: %s\n", setting_arguments(best).c_str());  // run.sh reads this line
    return 0;
  }
  std::printf("device: %s, %d SMs; %d test blocks x %d threads; stress: %s\n", h.prop.name,
              h.prop.multiProcessorCount, h.geometry.blocks, h.geometry.threads_per_block,
              setting_arguments(opt.stress).c_str());
  int violations = print_table(h, opt);
  std::printf("summary: %d cell(s) showed an outcome the PTX model forbids\n", violations);
  return violations ? 1 : 0;
}
