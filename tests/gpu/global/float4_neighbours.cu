// Two warps read-modify-write neighbouring float4 vectors that share no byte: race-free.
#include "suite.cuh"

__global__ void bump(float4* v) {
  if (threadIdx.x % 32 != 0) return;
  float4& mine = v[threadIdx.x / 32];
  mine.x += 1; mine.y += 2; mine.z += 3; mine.w += 4;
}

int main() {
  float4* v = zeroed<float4>(2);
  bump<<<1, 64>>>(v);
  return finish("float4_neighbours", static_cast<long long>(fetch(v + 1).w));
}
// EXPECT: no-race
