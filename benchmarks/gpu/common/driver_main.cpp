// The driver every workload links: `<workload> [--scale S]`. See workload.h for the output contract.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <optional>

#include "workload.h"

namespace bench {
namespace {

constexpr int kExitWrongResult = 1;
constexpr int kExitError = 2;
constexpr int kExitNoGpu = 77;  // ctest SKIP_RETURN_CODE

std::optional<Options> parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--scale") == 0 && i + 1 < argc) {
      char* end = nullptr;
      options.scale = std::strtod(argv[++i], &end);
      if (*end != '\0' || !(options.scale > 0) || !std::isfinite(options.scale)) return std::nullopt;
    } else {
      return std::nullopt;
    }
  }
  return options;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) {
  const auto options = bench::parse_options(argc, argv);
  if (!options) {
    std::fprintf(stderr, "usage: %s [--scale S]   (S > 0 multiplies the repetitions; 1 = full size)\n",
                 argv[0]);
    return bench::kExitError;
  }
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess || devices == 0) {
    std::printf("SKIP %s: no CUDA device (%s)\n", bench::workload_name, cudaGetErrorName(status));
    return bench::kExitNoGpu;
  }
  try {
    const bench::Outcome outcome = bench::run_workload(*options);
    const bool ok = outcome.failure.empty();
    if (!ok) std::printf("%s: wrong result: %s\n", bench::workload_name, outcome.failure.c_str());
    std::printf("RESULT %s %s %.3f\n", bench::workload_name, ok ? "ok" : "FAIL", outcome.gpu_ms);
    return ok ? EXIT_SUCCESS : bench::kExitWrongResult;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s: error: %s\n", bench::workload_name, error.what());
    return bench::kExitError;
  }
}
