// A 3-D grid of 3-D blocks writing a 32x32x16 volume, one cell per thread: race-free.
#include "suite.cuh"

constexpr int NX = 32, NY = 32, NZ = 16;

__global__ void fill_volume(int* v) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  v[(z * NY + y) * NX + x] = x + y + z;
}

int main() {
  int* v = zeroed<int>(NX * NY * NZ);
  fill_volume<<<dim3(4, 4, 4), dim3(8, 8, 4)>>>(v);
  return finish("grid3d", fetch(v + NX * NY * NZ - 1));
}
// EXPECT: no-race
