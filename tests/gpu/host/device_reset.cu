// cudaDeviceReset between two racy launches: the tool keeps its event queues in the context the reset
// destroys, so it must release them first, survive the reset and check the launch after it too.
#include "suite.cuh"

__global__ void fill_before(int* x) { x[0] = blockIdx.x; }  // @A
__global__ void fill_after(int* x) { x[0] = blockIdx.x; }   // @B

int main() {
  int* before = zeroed<int>(1);
  fill_before<<<2, 32>>>(before);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaDeviceReset());
  int* after = zeroed<int>(1);  // the reset freed `before`
  fill_after<<<2, 32>>>(after);
  return finish("device_reset", fetch(after) >= 0);
}
// EXPECT: race inter-block global WAW A A
// EXPECT: race inter-block global WAW B B
