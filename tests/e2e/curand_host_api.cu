// cuRAND's host API fills a buffer (its generator kernels live in libcurand as machine code only: the
// SASS back end checks them), then the app's own kernel sums it per block through shared memory with
// barriers. Race-free: libcurand's kernels and the app's must all be checked, with no finding.
#include <cstdio>
#include <curand.h>

#include "cuda_check.h"

__global__ void block_sums(const float* x, float* sums, int n) {
  __shared__ float partial[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = partial[0];
}

int main() {
  constexpr int n = 1 << 20, blocks = n / 256;
  float *x = nullptr, *sums = nullptr;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&sums, blocks * sizeof(float)));
  curandGenerator_t generator;
  if (curandCreateGenerator(&generator, CURAND_RNG_PSEUDO_PHILOX4_32_10) != CURAND_STATUS_SUCCESS ||
      curandSetPseudoRandomGeneratorSeed(generator, 1234) != CURAND_STATUS_SUCCESS ||
      curandGenerateUniform(generator, x, n) != CURAND_STATUS_SUCCESS) {
    std::printf("curand_host_api: cuRAND failed\n");
    return 1;
  }
  block_sums<<<blocks, 256>>>(x, sums, n);
  CHECK(cudaGetLastError());
  static float host[blocks];
  CHECK(cudaMemcpy(host, sums, sizeof host, cudaMemcpyDeviceToHost));
  double total = 0;
  for (float sum : host) total += sum;
  std::printf("curand_host_api: mean %.3f\n", total / n);
  curandDestroyGenerator(generator);
  return 0;
}
