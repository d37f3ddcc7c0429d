// A benchmark loop as real programs have it: one tiled matrix product launched 300 times (plus a
// second kernel 300 times), race-free. With --launch-sample 3 barracuda checks the first three launches
// of each kernel and runs the rest with logging off. Prints a checksum of the result.
#include <cstdio>
#include <vector>

constexpr int kN = 256;
constexpr int kTile = 16;

__global__ void matmul(const float* a, const float* b, float* c) {
  __shared__ float ta[kTile][kTile], tb[kTile][kTile];
  const int row = blockIdx.y * kTile + threadIdx.y, col = blockIdx.x * kTile + threadIdx.x;
  float sum = 0;
  for (int k = 0; k < kN; k += kTile) {
    ta[threadIdx.y][threadIdx.x] = a[row * kN + k + threadIdx.x];
    tb[threadIdx.y][threadIdx.x] = b[(k + threadIdx.y) * kN + col];
    __syncthreads();
    for (int i = 0; i < kTile; ++i) sum += ta[threadIdx.y][i] * tb[i][threadIdx.x];
    __syncthreads();
  }
  c[row * kN + col] = sum;
}

__global__ void scale(float* c, float k) { c[blockIdx.x * blockDim.x + threadIdx.x] *= k; }

int main() {
  std::vector<float> host(kN * kN, 1.0f);
  float *a, *b, *c;
  cudaMalloc(&a, sizeof(float) * kN * kN);
  cudaMalloc(&b, sizeof(float) * kN * kN);
  cudaMalloc(&c, sizeof(float) * kN * kN);
  cudaMemcpy(a, host.data(), sizeof(float) * kN * kN, cudaMemcpyHostToDevice);
  cudaMemcpy(b, host.data(), sizeof(float) * kN * kN, cudaMemcpyHostToDevice);
  for (int i = 0; i < 300; ++i) {
    matmul<<<dim3(kN / kTile, kN / kTile), dim3(kTile, kTile)>>>(a, b, c);
    scale<<<kN * kN / 256, 256>>>(c, 0.5f);
  }
  cudaMemcpy(host.data(), c, sizeof(float) * kN * kN, cudaMemcpyDeviceToHost);
  double sum = 0;
  for (float v : host) sum += v;
  std::printf("repeated_kernel: %s, checksum %.1f\n", cudaGetErrorString(cudaGetLastError()), sum);
  return 0;
}
