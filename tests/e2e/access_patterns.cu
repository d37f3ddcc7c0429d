// Kernels whose event stream is known exactly: each logged warp instruction, its mask, address
// encoding and source line are checked by event_stream_check (tests/traces) against the trace that
// `barracuda run --record` writes for this program. Prints what it read back.
#include <cstdio>

__global__ void coalesced_store(int* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;  // line 7: affine, stride 4
}

__global__ void shared_reverse(int* out) {
  __shared__ int tile[64];
  tile[threadIdx.x] = threadIdx.x;             // line 12: shared store, stride 4
  __syncthreads();                             // line 13: barrier
  out[threadIdx.x] = tile[63 - threadIdx.x];   // line 14: shared load stride -4, global store
}

__global__ void divergent_store(int* out) {
  if (threadIdx.x % 2 == 0) out[threadIdx.x] = 1;  // line 18: even lanes only
}

__global__ void scattered_load(const int* in, int* out) {
  unsigned lane = threadIdx.x;
  out[lane] = in[(lane * lane) % 64];  // line 23: gathered load (32-bit deltas), affine store
}

__global__ void atomic_count(int* counter) {
  atomicAdd(counter, 1);  // line 27: one address for all lanes
}

int main() {
  int* a = nullptr;
  int* b = nullptr;
  cudaMalloc(&a, 128 * sizeof(int));
  cudaMalloc(&b, 128 * sizeof(int));
  cudaMemset(a, 0, 128 * sizeof(int));
  cudaMemset(b, 0, 128 * sizeof(int));
  coalesced_store<<<2, 64>>>(a);
  shared_reverse<<<1, 64>>>(b);
  divergent_store<<<1, 32>>>(b + 64);
  scattered_load<<<1, 32>>>(a, b + 96);
  atomic_count<<<1, 64>>>(a + 127);
  int host_a[128], host_b[128];
  cudaMemcpy(host_a, a, sizeof host_a, cudaMemcpyDeviceToHost);
  cudaMemcpy(host_b, b, sizeof host_b, cudaMemcpyDeviceToHost);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("access_patterns: %s, a[65]=%d b[0]=%d b[64]=%d b[100]=%d count=%d\n", cudaGetErrorString(err),
              host_a[65], host_b[0], host_b[64], host_b[100], host_a[127]);
  cudaFree(a);
  cudaFree(b);
  return err == cudaSuccess ? 0 : 1;
}
