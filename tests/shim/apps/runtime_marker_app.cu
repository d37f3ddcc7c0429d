// The marker kernel (apps/marker.cu) launched with <<<>>> from a static-cudart application, so the module
// the shim replaces is the one cudart registers and loads itself. Prints the marker it reads back.
#include <cstdio>

#include "runtime_check.h"

extern "C" __global__ void marker(unsigned* out);

namespace {

constexpr unsigned kBlocks = 2;
constexpr unsigned kThreads = 16;

}  // namespace

int main() {
  unsigned* out;
  unsigned values[kBlocks * kThreads];
  CHECK(cudaMalloc(&out, sizeof values));
  marker<<<kBlocks, kThreads>>>(out);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(values, out, sizeof values, cudaMemcpyDeviceToHost));
  for (unsigned i = 0; i < kBlocks * kThreads; ++i) {
    if (values[i] != values[0] + i) {
      std::printf("runtime: value %u is 0x%x, expected 0x%x\n", i, values[i], values[0] + i);
      return 1;
    }
  }
  std::printf("runtime: marker 0x%x in %u values\n", values[0], kBlocks * kThreads);
  CHECK(cudaFree(out));
  return 0;
}
