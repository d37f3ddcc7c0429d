// A block histogram: every thread adds many values into 64 shared bins, a barrier, then each of the
// first 64 threads copies one bin out. The adds never race with each other; the barrier orders them
// with the reads.
#include "suite.cuh"

__global__ void histogram(const unsigned* values, int per_thread, unsigned* out) {
  __shared__ unsigned bins[64];
  if (threadIdx.x < 64) bins[threadIdx.x] = 0;
  __syncthreads();
  for (int i = 0; i < per_thread; ++i) atomicAdd(&bins[values[threadIdx.x * per_thread + i] % 64], 1u);
  __syncthreads();
  if (threadIdx.x < 64) out[blockIdx.x * 64 + threadIdx.x] = bins[threadIdx.x];
}

int main() {
  const int threads = 256, per_thread = 16;
  unsigned host[threads * per_thread];
  for (int i = 0; i < threads * per_thread; ++i) host[i] = i * 2654435761u;
  unsigned* values = zeroed<unsigned>(threads * per_thread);
  CHECK(cudaMemcpy(values, host, sizeof host, cudaMemcpyHostToDevice));
  unsigned* out = zeroed<unsigned>(4 * 64);
  histogram<<<4, threads>>>(values, per_thread, out);
  return finish("shared_bins_then_barrier", fetch(out + 5));
}
// EXPECT: no-race
