// The bulk copy of bulk_copy_barrier, but warps 1..7 read the tile before waiting on the barrier.
#include <cuda/barrier>
#include "suite.cuh"

constexpr int N = 256;

__global__ void load_tile(const int* in, int* out) {
  __shared__ alignas(16) int tile[N];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0) cuda::memcpy_async(tile, in, cuda::aligned_size_t<16>(sizeof(tile)), bar);  // @A
  int early = threadIdx.x >= 32 ? tile[threadIdx.x] : 0;                                           // @B
  bar.arrive_and_wait();
  out[threadIdx.x] = early;
}

int main() {
  int* in = zeroed<int>(N);
  int* out = zeroed<int>(N);
  load_tile<<<1, N>>>(in, out);
  return finish("bulk_copy_read_early", fetch(out + 40));
}
// EXPECT: race inter-warp shared RAW A B
