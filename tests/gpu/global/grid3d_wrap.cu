// A 3-D volume fill whose z index wraps one plane early: plane NZ-1 lands on plane 0, written by
// blocks of another blockIdx.z.
#include "suite.cuh"

constexpr int NX = 16, NY = 16, NZ = 16;

__global__ void fill_volume(int* v) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = (blockIdx.z * blockDim.z + threadIdx.z) % (NZ - 1);
  v[(z * NY + y) * NX + x] = blockIdx.z;  // @A
}

int main() {
  int* v = zeroed<int>(NX * NY * NZ);
  fill_volume<<<dim3(2, 2, 4), dim3(8, 8, 4)>>>(v);
  return finish("grid3d_wrap", fetch(v));
}
// EXPECT: race inter-block global WAW A A
