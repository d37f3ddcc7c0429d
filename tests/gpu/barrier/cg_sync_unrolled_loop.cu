// A long loop unrolled by 16 with two cooperative-groups block syncs per step (double-buffered
// shared-memory exchange): every thread runs every step, so every barrier is reached by the whole
// block and the accesses on either side of each sync are ordered. Race-free, no divergence.
// Arguments (optional): blocks, threads per block (<= 1024), steps.
#include <cooperative_groups.h>

#include "suite.cuh"

namespace cg = cooperative_groups;

__global__ void relax(const float* in, float* out, int steps) {
  cg::thread_block cta = cg::this_thread_block();
  __shared__ float tile[1024];
  const int t = threadIdx.x, n = blockDim.x;
  float v = in[blockIdx.x * blockDim.x + t];
#pragma unroll 16
  for (int s = 0; s < steps; ++s) {
    tile[t] = v;
    cg::sync(cta);
    v = 0.5f * (tile[(t + 1) % n] + tile[(t + n - 1) % n]);
    cg::sync(cta);
  }
  out[blockIdx.x * blockDim.x + t] = v;
}

int main(int argc, char** argv) {
  const int blocks = argc > 1 ? std::atoi(argv[1]) : 4;
  const int threads = argc > 2 ? std::atoi(argv[2]) : 256;
  const int steps = argc > 3 ? std::atoi(argv[3]) : 2048;
  float* in = zeroed<float>(size_t(blocks) * threads);
  float* out = zeroed<float>(size_t(blocks) * threads);
  relax<<<blocks, threads>>>(in, out, steps);
  return finish("cg_sync_unrolled_loop", static_cast<long long>(fetch(out)));
}
// EXPECT: no-race
