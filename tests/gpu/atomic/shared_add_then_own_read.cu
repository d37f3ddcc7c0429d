// The first threads of warps 0 and 1 each add to one shared word, then the first thread of warp 1
// reads it with no barrier between: its read races with warp 0's add, whichever add came last
// (a checker keeping only the last atomic loses the race when warp 1's add comes second).
#include "suite.cuh"

__global__ void add_then_read(int* out) {
  __shared__ int total;
  if (threadIdx.x == 0) total = 0;
  __syncthreads();
  if (threadIdx.x % 32 == 0) atomicAdd(&total, 1 + threadIdx.x);  // @A
  if (threadIdx.x == 32) *out = total;                              // @B
}

int main() {
  int* out = zeroed<int>(1);
  add_then_read<<<1, 64>>>(out);
  return finish("shared_add_then_own_read", fetch(out));
}
// EXPECT: race inter-warp shared atomic-plain A B
