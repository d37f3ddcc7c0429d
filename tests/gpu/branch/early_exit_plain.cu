// Each lane scans with early exit and every lane that finds a match stores its index into one
// result word: different values from different lanes.
#include "suite.cuh"

__global__ void find_first(const int* data, int n, int key, int* result) {
  for (int i = threadIdx.x; i < n; i += 32) {
    if (data[i] == key) {
      result[0] = i;  // @A
      break;
    }
  }
}

int main() {
  const int n = 256;
  int host[n];
  for (int i = 0; i < n; ++i) host[i] = i % 4;
  int* data = zeroed<int>(n);
  CHECK(cudaMemcpy(data, host, sizeof host, cudaMemcpyHostToDevice));
  int* result = zeroed<int>(1);
  find_first<<<1, 32>>>(data, n, 3, result);
  return finish("early_exit_plain", fetch(result));
}
// EXPECT: race intra-warp global WAW A A
