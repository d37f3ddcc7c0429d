// An extended __device__ lambda passed to a generic kernel; the lambda stores to one word from
// every block.
#include "suite.cuh"

template <typename F>
__global__ void for_each_block(F f) {
  if (threadIdx.x == 0) f(blockIdx.x);
}

int main() {
  int* x = zeroed<int>(1);
  for_each_block<<<2, 32>>>([x] __device__(unsigned block) { x[0] = block; });  // @A
  return finish("lambda_race", fetch(x));
}
// BUILD: --extended-lambda
// EXPECT: race inter-block global WAW A A
