// End-to-end fixture: long barrier loops whose logging fills 1 MiB queues, so warps wait for the host
// in the device runtime's back-pressure path while their blocks synchronise. Race-free: any race or
// barrier divergence reported is the tool's fault. cg::sync is a non-aligned `barrier.sync`, which
// ptxas compiles to a converged warp's BAR.SYNC in the unrolled body; __syncthreads is aligned; the
// third launch's loop is not unrolled.
#include <cooperative_groups.h>

#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

enum class Barrier { kCooperativeGroups, kSyncthreads };

template <Barrier kBarrier>
__device__ __forceinline__ void block_sync() {
  if constexpr (kBarrier == Barrier::kCooperativeGroups) {
    cg::sync(cg::this_thread_block());
  } else {
    __syncthreads();
  }
}

template <Barrier kBarrier, int kUnroll>
__global__ void exchange(const float* in, float* out, int steps) {
  __shared__ float tile[1024];
  const int t = threadIdx.x, n = blockDim.x;
  float v = in[blockIdx.x * n + t];
#pragma unroll kUnroll
  for (int s = 0; s < steps; ++s) {
    tile[t] = v;
    block_sync<kBarrier>();
    v = 0.5f * (tile[(t + 1) % n] + tile[(t + n - 1) % n]);
    block_sync<kBarrier>();
  }
  out[blockIdx.x * n + t] = v;
}

int main() {
  constexpr int blocks = 4, threads = 256, steps = 4096, n = blocks * threads;
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i % 17);
  cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  double sums[3] = {};
  for (int kernel = 0; kernel < 3; ++kernel) {
    if (kernel == 0) exchange<Barrier::kCooperativeGroups, 16><<<blocks, threads>>>(in, out, steps);
    if (kernel == 1) exchange<Barrier::kSyncthreads, 8><<<blocks, threads>>>(in, out, steps);
    if (kernel == 2) exchange<Barrier::kSyncthreads, 1><<<blocks, threads>>>(in, out, steps);
    cudaMemcpy(host.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (float v : host) sums[kernel] += v;
  }
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("barriers_under_back_pressure: %s, sums %.3f %.3f %.3f\n", cudaGetErrorString(err), sums[0], sums[1],
              sums[2]);
  cudaFree(in);
  cudaFree(out);
  return err == cudaSuccess ? 0 : 1;
}
