// Cooperative solver shape: 200 rounds, each a grid sync, a neighbour exchange through ping-pong
// buffers, a block reduction in shared memory between __syncthreads, and a second grid sync before the
// blocks read every block's partial sum. A seed written once before the first round is read by other
// blocks in every round. Race-free.
#include <cooperative_groups.h>
#include "suite.cuh"
namespace cg = cooperative_groups;

constexpr int kThreads = 128;

__global__ void rounds(const int* seed_in, int* seed, float* ping, float* pong, float* partial, float* out) {
  cg::grid_group grid = cg::this_grid();
  __shared__ float sums[kThreads];
  const int i = grid.thread_rank(), n = grid.size();
  seed[i] = seed_in[i] + 1;
  ping[i] = static_cast<float>(i);
  grid.sync();
  for (int round = 0; round < 200; ++round) {
    float* from = round % 2 == 0 ? ping : pong;
    float* to = round % 2 == 0 ? pong : ping;
    to[i] = 0.5f * (from[(i + n - 1) % n] + from[(i + 1) % n]) + static_cast<float>(seed[(i + 300) % n] % 3);
    sums[threadIdx.x] = to[i];
    __syncthreads();
    for (int half = kThreads / 2; half > 0; half /= 2) {
      if (threadIdx.x < half) sums[threadIdx.x] += sums[threadIdx.x + half];
      __syncthreads();
    }
    if (threadIdx.x == 0) partial[(round % 2) * gridDim.x + blockIdx.x] = sums[0];
    grid.sync();
    if (threadIdx.x == 0 && blockIdx.x == 0) {
      float total = 0.0f;
      for (int b = 0; b < static_cast<int>(gridDim.x); ++b) total += partial[(round % 2) * gridDim.x + b];
      out[round] = total;
    }
  }
}

int main() {
  const int blocks = 16;
  const int n = blocks * kThreads;
  int* seed_in = zeroed<int>(n);
  int* seed = zeroed<int>(n);
  float* ping = zeroed<float>(n);
  float* pong = zeroed<float>(n);
  float* partial = zeroed<float>(2 * blocks);
  float* out = zeroed<float>(200);
  void* args[] = {&seed_in, &seed, &ping, &pong, &partial, &out};
  CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(rounds), blocks, kThreads, args));
  return finish("grid_sync_many_rounds", static_cast<long long>(fetch(out + 199)));
}
// EXPECT: no-race
