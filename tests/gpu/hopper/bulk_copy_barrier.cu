// Hopper bulk asynchronous copy: thread 0 issues cuda::memcpy_async of a 16-byte-aligned tile tied
// to a block-scope cuda::barrier (cp.async.bulk + mbarrier complete_tx); every thread waits with
// arrive_and_wait before reading: race-free.
#include <cuda/barrier>
#include "suite.cuh"

constexpr int N = 256;

__global__ void load_tile(const int* in, int* out) {
  __shared__ alignas(16) int tile[N];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0) cuda::memcpy_async(tile, in, cuda::aligned_size_t<16>(sizeof(tile)), bar);
  bar.arrive_and_wait();
  out[threadIdx.x] = tile[N - 1 - threadIdx.x];
}

int main() {
  int* in = zeroed<int>(N);
  int* out = zeroed<int>(N);
  load_tile<<<1, N>>>(in, out);
  return finish("bulk_copy_barrier", fetch(out));
}
// EXPECT: no-race
