// Per-vector mean and variance of a batch of integer feature vectors, spread over four streams, with the
// block reduction of pre-Volta CUDA code: once 64 partial sums are left, warp 0 folds them through a
// volatile pointer with no __syncwarp, relying on the warp running in lockstep. It gives the right
// answer on current GPUs, but under independent thread scheduling (sm_70 and later) nothing orders one
// lane's store before another lane's load: an intra-warp data race.
// APP-EXPECT: racy
#include <cstdio>
#include <vector>

#include "app_check.cuh"

constexpr int kStreams = 4;
constexpr int kVectorsPerStream = 16;
constexpr int kVectors = kStreams * kVectorsPerStream;
constexpr int kLength = 4096;
constexpr int kThreads = 256;

// The sum of `value` over the block.
__device__ int block_sum(int value) {
  __shared__ int partial[kThreads];
  const int t = threadIdx.x;
  partial[t] = value;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 32; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t < 32) {
    volatile int* v = partial;
    v[t] += v[t + 32];
    v[t] += v[t + 16];  // APP-RACE
    v[t] += v[t + 8];
    v[t] += v[t + 4];
    v[t] += v[t + 2];
    v[t] += v[t + 1];
  }
  __syncthreads();
  const int total = partial[0];
  __syncthreads();  // the next call overwrites partial[]
  return total;
}

// One block per vector: sums[v] = sum of x, squares[v] = sum of x^2.
__global__ void moments(const int* vectors, long long* sums, long long* squares) {
  const int* x = vectors + blockIdx.x * kLength;
  int sum = 0, square = 0;
  for (int i = threadIdx.x; i < kLength; i += blockDim.x) {
    sum += x[i];
    square += x[i] * x[i];
  }
  sum = block_sum(sum);
  square = block_sum(square);
  if (threadIdx.x == 0) {
    sums[blockIdx.x] = sum;
    squares[blockIdx.x] = square;
  }
}

int main() {
  int* host_vectors;
  long long *host_sums, *host_squares;
  CUDA_CHECK(cudaMallocHost(&host_vectors, kVectors * kLength * sizeof(int)));
  CUDA_CHECK(cudaMallocHost(&host_sums, kVectors * sizeof(long long)));
  CUDA_CHECK(cudaMallocHost(&host_squares, kVectors * sizeof(long long)));
  unsigned seed = 2024u;
  for (int i = 0; i < kVectors * kLength; ++i) {
    seed = seed * 1664525u + 1013904223u;
    host_vectors[i] = static_cast<int>((seed >> 20) % 201) - 100 + (i / kLength) % 7;
  }
  int* vectors;
  long long *sums, *squares;
  CUDA_CHECK(cudaMalloc(&vectors, kVectors * kLength * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&sums, kVectors * sizeof(long long)));
  CUDA_CHECK(cudaMalloc(&squares, kVectors * sizeof(long long)));

  cudaStream_t streams[kStreams];
  for (int s = 0; s < kStreams; ++s) {
    CUDA_CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
    const int first = s * kVectorsPerStream;
    const size_t offset = static_cast<size_t>(first) * kLength;
    CUDA_CHECK(cudaMemcpyAsync(vectors + offset, host_vectors + offset, kVectorsPerStream * kLength * sizeof(int),
                               cudaMemcpyHostToDevice, streams[s]));
    moments<<<kVectorsPerStream, kThreads, 0, streams[s]>>>(vectors + offset, sums + first, squares + first);
    CUDA_CHECK(cudaMemcpyAsync(host_sums + first, sums + first, kVectorsPerStream * sizeof(long long),
                               cudaMemcpyDeviceToHost, streams[s]));
    CUDA_CHECK(cudaMemcpyAsync(host_squares + first, squares + first, kVectorsPerStream * sizeof(long long),
                               cudaMemcpyDeviceToHost, streams[s]));
  }
  CUDA_CHECK(cudaDeviceSynchronize());

  int mismatches = 0;
  for (int v = 0; v < kVectors; ++v) {
    long long sum = 0, square = 0;
    for (int i = 0; i < kLength; ++i) {
      const long long x = host_vectors[v * kLength + i];
      sum += x;
      square += x * x;
    }
    mismatches += sum != host_sums[v] || square != host_squares[v];
    if (v % kVectorsPerStream == 0) {
      const double mean = static_cast<double>(host_sums[v]) / kLength;
      const double variance = static_cast<double>(host_squares[v]) / kLength - mean * mean;
      std::printf("vector %2d: sum %lld, sum of squares %lld, mean %.6f, variance %.4f\n", v, host_sums[v],
                  host_squares[v], mean, variance);
    }
  }
  std::printf("%d of %d vectors differ from the host\n", mismatches, kVectors);

  for (int s = 0; s < kStreams; ++s) CUDA_CHECK(cudaStreamDestroy(streams[s]));
  CUDA_CHECK(cudaFreeHost(host_vectors));
  CUDA_CHECK(cudaFreeHost(host_sums));
  CUDA_CHECK(cudaFreeHost(host_squares));
  CUDA_CHECK(cudaFree(vectors));
  CUDA_CHECK(cudaFree(sums));
  CUDA_CHECK(cudaFree(squares));
  return mismatches == 0 ? 0 : 1;
}
