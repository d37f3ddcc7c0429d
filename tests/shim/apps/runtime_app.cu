// A CUDA runtime application with <<<>>> launches, built three ways (static cudart, shared cudart,
// per-thread default stream): add once on the legacy stream, then scale on the default stream and on a
// created stream, with dynamic shared memory. Prints a checksum; exits 1 with the error on any failure.
#include <cstdio>
#include <vector>

#include "runtime_check.h"

namespace {

constexpr int kCount = 1024;
constexpr int kTileFloats = 32;

}  // namespace

__global__ void add(const float* a, const float* b, float* sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) sum[i] = a[i] + b[i];
}

// 64 threads per block over a 2x3 grid = 384 elements; the first 32 threads fill the tile.
__global__ void scale(float* data, float factor) {
  extern __shared__ float tile[];
  unsigned thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  unsigned block = blockIdx.y * gridDim.x + blockIdx.x;
  unsigned i = block * blockDim.x * blockDim.y * blockDim.z + thread;
  if (thread < kTileFloats) tile[thread] = float(thread);
  __syncthreads();
  data[i] = data[i] * factor + tile[thread % kTileFloats];
}

int main() {
  std::vector<float> a(kCount), b(kCount), result(kCount);
  for (int i = 0; i < kCount; ++i) {
    a[i] = float(i);
    b[i] = float(2 * i);
  }
  float *device_a, *device_b, *device_sum;
  size_t bytes = kCount * sizeof(float);
  CHECK(cudaMalloc(&device_a, bytes));
  CHECK(cudaMalloc(&device_b, bytes));
  CHECK(cudaMalloc(&device_sum, bytes));
  CHECK(cudaMemcpy(device_a, a.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(device_b, b.data(), bytes, cudaMemcpyHostToDevice));

  add<<<4, 256>>>(device_a, device_b, device_sum, kCount);
  CHECK(cudaGetLastError());
  dim3 grid(2, 3, 1), block(8, 4, 2);
  scale<<<grid, block, kTileFloats * sizeof(float)>>>(device_sum, 2.0f);
  CHECK(cudaGetLastError());
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  // A created stream is ordered after the legacy stream but not after the per-thread default stream:
  // an event keeps the second scale after the first in both builds (the checksum is deterministic).
  cudaEvent_t scaled;
  CHECK(cudaEventCreateWithFlags(&scaled, cudaEventDisableTiming));
  CHECK(cudaEventRecord(scaled, 0));
  CHECK(cudaStreamWaitEvent(stream, scaled, 0));
  scale<<<grid, block, kTileFloats * sizeof(float), stream>>>(device_sum, 0.5f);
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(result.data(), device_sum, bytes, cudaMemcpyDeviceToHost));

  double checksum = 0;
  for (float value : result) checksum += value;
  std::printf("runtime_app: checksum %.1f\n", checksum);
  CHECK(cudaEventDestroy(scaled));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(device_a));
  CHECK(cudaFree(device_b));
  CHECK(cudaFree(device_sum));
  return 0;
}
