// barracuda-litmus: runs the litmus matrix (model.h) on the GPU, with and without memory stress, and
// prints one row per cell: iterations, weak outcomes seen, and whether the PTX model allows them.
// Exit code 1 when the hardware showed an outcome the model forbids (a harness or model bug to chase).
//
//   barracuda-litmus [--iterations N] [--stress-lines L] [--stress-iterations K] [--only TEST]
//                    [--markdown FILE] [--seed S]

#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "placement.h"
#include "roles.cuh"

namespace litmus {
namespace {

constexpr uint32_t kSpreadWords = 32;  // one 128-byte line per location

struct Stress {
  bool enabled = false;
  uint32_t lines = 64;        // size of the scratchpad patch hammered, in 128-byte lines
  uint32_t iterations = 256;  // store+load pairs per stressing thread
};

struct Buffers {
  int32_t* roles;
  uint32_t* slots;
  uint32_t* memory;
  uint32_t* results;
  uint32_t* scratch;
  unsigned* start;
};

__device__ void stress_scratchpad(uint32_t* scratch, Stress s) {
  uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  for (uint32_t k = 0; k < s.iterations; ++k) {
    uint32_t* line = scratch + ((t * 7 + k * 13) % s.lines) * kSpreadWords;
    store<Access::kVolatile>(line, k);
    (void)load<Access::kVolatile>(line + 1);
  }
}

template <LitmusTest T, Access D, Access S, Fence F>
__global__ void litmus_kernel(Buffers b, int test_blocks, Stress stress) {
  // Start together: every block arrives before any runs its role, so roles overlap in time. The grid is
  // sized to be co-resident, so the spin cannot deadlock.
  if (threadIdx.x == 0) {
    atomicAdd(b.start, 1u);
    while (load<Access::kVolatile>(b.start) < gridDim.x) {
    }
  }
  __syncthreads();
  int32_t a = kIdle;
  if (static_cast<int>(blockIdx.x) < test_blocks) a = b.roles[blockIdx.x * blockDim.x + threadIdx.x];
  if (a == kIdle) {
    if (stress.enabled) stress_scratchpad(b.scratch, stress);
    return;
  }
  int instance = a >> 2;
  uint32_t* x = b.memory + b.slots[2 * instance] * kSpreadWords;
  uint32_t* y = b.memory + b.slots[2 * instance + 1] * kSpreadWords;
  run_role<T, D, S, F>(a & 3, x, y, b.results + 4 * instance);
}

using KernelFn = void (*)(Buffers, int, Stress);

template <size_t TI, size_t VI>
constexpr KernelFn kernel_for() {
  constexpr Variant v = kVariants[VI];
  return &litmus_kernel<kAllTests[TI], v.data, v.sync, v.fence>;
}
template <size_t TI, size_t... VI>
constexpr std::array<KernelFn, sizeof...(VI)> kernels_of_test(std::index_sequence<VI...>) {
  return {kernel_for<TI, VI>()...};
}
template <size_t... TI>
constexpr auto kernel_table(std::index_sequence<TI...>) {
  return std::array{kernels_of_test<TI>(std::make_index_sequence<kVariants.size()>())...};
}
const auto kKernels = kernel_table(std::make_index_sequence<kAllTests.size()>());

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "barracuda-litmus: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(2);
  }
}

struct Options {
  long iterations = 100000;
  Stress stress;
  std::string only;
  std::string markdown;
  unsigned seed = 1;
};

struct CellResult {
  long iterations = 0;
  long weak = 0;
  double seconds = 0;
};

CellResult run_cell(size_t ti, size_t vi, Placement p, const Options& opt, bool stressed, const Geometry& g,
                    int stress_blocks, Buffers& dev, std::mt19937& rng) {
  LitmusTest test = kAllTests[ti];
  Stress stress = opt.stress;
  stress.enabled = stressed;
  int grid = g.blocks + (stressed ? stress_blocks : 0);
  CellResult r;
  std::vector<uint32_t> results;
  auto t0 = std::chrono::steady_clock::now();
  while (r.iterations < opt.iterations) {
    Assignment a = assign_roles(test, p, g, rng);
    check(cudaMemcpy(dev.roles, a.role_of_thread.data(), a.role_of_thread.size() * 4, cudaMemcpyHostToDevice), "copy roles");
    check(cudaMemcpy(dev.slots, a.location_slot.data(), a.location_slot.size() * 4, cudaMemcpyHostToDevice), "copy slots");
    check(cudaMemset(dev.memory, 0, a.location_slot.size() * kSpreadWords * 4), "clear memory");
    check(cudaMemset(dev.results, 0xff, a.instances * 16), "clear results");
    check(cudaMemset(dev.start, 0, sizeof(unsigned)), "clear start");
    kKernels[ti][vi]<<<grid, g.threads_per_block>>>(dev, g.blocks, stress);
    check(cudaGetLastError(), "launch");
    results.resize(4 * a.instances);
    check(cudaMemcpy(results.data(), dev.results, results.size() * 4, cudaMemcpyDeviceToHost), "copy results");
    for (int i = 0; i < a.instances; ++i) r.weak += is_weak_outcome(test, &results[4 * i]);
    r.iterations += a.instances;
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "barracuda-litmus: %s needs a value\n", arg.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--iterations") o.iterations = std::stol(value());
    else if (arg == "--stress-lines") o.stress.lines = std::stoul(value());
    else if (arg == "--stress-iterations") o.stress.iterations = std::stoul(value());
    else if (arg == "--only") o.only = value();
    else if (arg == "--markdown") o.markdown = value();
    else if (arg == "--seed") o.seed = std::stoul(value());
    else {
      std::fprintf(stderr, "barracuda-litmus: unknown argument %s\n", arg.c_str());
      std::exit(2);
    }
  }
  if (o.iterations <= 0 || o.stress.lines == 0) {
    std::fprintf(stderr, "barracuda-litmus: --iterations and --stress-lines must be positive\n");
    std::exit(2);
  }
  return o;
}

}  // namespace
}  // namespace litmus

int main(int argc, char** argv) {
  using namespace litmus;
  Options opt = parse(argc, argv);
  int device_count = 0;
  if (cudaGetDeviceCount(&device_count) != cudaSuccess || device_count == 0) {
    std::fprintf(stderr, "barracuda-litmus: no CUDA device; skipped\n");
    return 77;
  }
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "device properties");
  Geometry g{2 * prop.multiProcessorCount, 256};
  int stress_blocks = prop.multiProcessorCount;
  Buffers dev{};
  size_t max_instances = g.threads() / 2;
  check(cudaMalloc(&dev.roles, g.threads() * 4), "alloc");
  check(cudaMalloc(&dev.slots, 2 * max_instances * 4), "alloc");
  check(cudaMalloc(&dev.memory, 2 * max_instances * kSpreadWords * 4), "alloc");
  check(cudaMalloc(&dev.results, 4 * max_instances * 4), "alloc");
  check(cudaMalloc(&dev.scratch, opt.stress.lines * kSpreadWords * 4), "alloc");
  check(cudaMalloc(&dev.start, sizeof(unsigned)), "alloc");
  std::mt19937 rng(opt.seed);

  FILE* md = opt.markdown.empty() ? nullptr : std::fopen(opt.markdown.c_str(), "w");
  if (!opt.markdown.empty() && !md) {
    std::fprintf(stderr, "barracuda-litmus: cannot write %s\n", opt.markdown.c_str());
    return 2;
  }
  if (md) {
    std::fprintf(md, "| test | variant | placement | PTX model | iterations | weak (no stress) | weak (stress) |\n");
    std::fprintf(md, "| --- | --- | --- | --- | ---: | ---: | ---: |\n");
  }
  std::printf("device: %s, %d SMs; %d test blocks x %d threads, %d stress blocks (%u lines, %u iterations)\n",
              prop.name, prop.multiProcessorCount, g.blocks, g.threads_per_block, stress_blocks, opt.stress.lines,
              opt.stress.iterations);
  int violations = 0;
  for (size_t ti = 0; ti < kAllTests.size(); ++ti) {
    if (!opt.only.empty() && opt.only != test_name(kAllTests[ti])) continue;
    for (size_t vi = 0; vi < kVariants.size(); ++vi) {
      for (Placement p : kAllPlacements) {
        bool allowed = weak_outcome_allowed(kAllTests[ti], kVariants[vi], p);
        CellResult plain = run_cell(ti, vi, p, opt, false, g, stress_blocks, dev, rng);
        CellResult stressed = run_cell(ti, vi, p, opt, true, g, stress_blocks, dev, rng);
        bool violation = !allowed && (plain.weak > 0 || stressed.weak > 0);
        violations += violation;
        std::printf("%-5s %-20s %-12s %-9s iters %8ld weak %6ld stressed %6ld%s\n",
                    std::string(test_name(kAllTests[ti])).c_str(), std::string(kVariants[vi].name).c_str(),
                    std::string(placement_name(p)).c_str(), allowed ? "allowed" : "forbidden", plain.iterations,
                    plain.weak, stressed.weak, violation ? "  <-- FORBIDDEN OUTCOME SEEN" : "");
        if (md) {
          std::fprintf(md, "| %s | %s | %s | %s | %ld | %ld | %ld |\n", std::string(test_name(kAllTests[ti])).c_str(),
                       std::string(kVariants[vi].name).c_str(), std::string(placement_name(p)).c_str(),
                       allowed ? "allowed" : "forbidden", plain.iterations, plain.weak, stressed.weak);
        }
      }
    }
  }
  if (md) std::fclose(md);
  std::printf("summary: %d cell(s) showed an outcome the PTX model forbids\n", violations);
  return violations ? 1 : 0;
}
