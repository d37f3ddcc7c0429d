// Feature scaling and statistics of a batch of integer samples with libcu++ synchronisation instead of
// __syncthreads and legacy atomics, as modern CUDA C++ code writes it: a per-row L2 normalisation whose
// block reduction waits on a cuda::barrier<thread_scope_block> (split arrive/wait), a histogram with
// block- and device-scope cuda::atomic_ref, and a peak search whose blocks gather candidates behind a
// cuda::latch and merge them into one record under a device-scope cuda::binary_semaphore.
// APP-EXPECT: clean
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda/latch>
#include <cuda/semaphore>

#include <cmath>
#include <cstdio>
#include <new>
#include <vector>

#include "app_check.cuh"

constexpr int kRows = 64;
constexpr int kCols = 1024;
constexpr int kThreads = 256;
constexpr int kBins = 101;  // sample values are -50..50

struct Peak {
  float value;
  int index;
  int blocks;
};

__device__ cuda::binary_semaphore<cuda::thread_scope_device> peak_lock{1};

// One block per row: out = x / |x|.
__global__ void normalise_rows(const int* x, float* out) {
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> ready;
  __shared__ int squares[kThreads];
  __shared__ float norm;
  if (threadIdx.x == 0) init(&ready, blockDim.x);
  __syncthreads();
  const int* row = x + blockIdx.x * kCols;
  int sum = 0;
  for (int c = threadIdx.x; c < kCols; c += blockDim.x) sum += row[c] * row[c];
  squares[threadIdx.x] = sum;
  auto token = ready.arrive();
  ready.wait(std::move(token));
  if (threadIdx.x < 32) {
    int partial = 0;
    for (int i = threadIdx.x; i < kThreads; i += 32) partial += squares[i];
    for (int offset = 16; offset > 0; offset /= 2) partial += __shfl_down_sync(0xffffffffu, partial, offset);
    if (threadIdx.x == 0) norm = sqrtf(static_cast<float>(partial));
  }
  ready.arrive_and_wait();
  for (int c = threadIdx.x; c < kCols; c += blockDim.x) out[blockIdx.x * kCols + c] = row[c] / norm;
}

__global__ void histogram(const int* x, int n, unsigned* bins) {
  __shared__ unsigned local[kBins];
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_block> bin(local[x[i] + 50]);
    bin.fetch_add(1u, cuda::memory_order_relaxed);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> bin(bins[b]);
    bin.fetch_add(local[b], cuda::memory_order_relaxed);
  }
}

// The largest value (the lowest index among equals) and the number of blocks that reported.
__global__ void find_peak(const float* values, int n, Peak* best) {
  using BlockLatch = cuda::latch<cuda::thread_scope_block>;  // no default constructor: built in place
  __shared__ alignas(BlockLatch) unsigned char latch_storage[sizeof(BlockLatch)];
  __shared__ float candidate[kThreads];
  __shared__ int candidate_index[kThreads];
  BlockLatch* gathered = reinterpret_cast<BlockLatch*>(latch_storage);
  if (threadIdx.x == 0) new (gathered) BlockLatch(blockDim.x);
  __syncthreads();
  float value = -INFINITY;
  int index = -1;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    if (values[i] > value) {
      value = values[i];
      index = i;
    }
  }
  candidate[threadIdx.x] = value;
  candidate_index[threadIdx.x] = index;
  gathered->arrive_and_wait();
  if (threadIdx.x != 0) return;
  for (int t = 1; t < blockDim.x; ++t) {
    bool better = candidate[t] > value || (candidate[t] == value && candidate_index[t] < index);
    if (better) {
      value = candidate[t];
      index = candidate_index[t];
    }
  }
  peak_lock.acquire();
  if (value > best->value || (value == best->value && index < best->index)) {
    best->value = value;
    best->index = index;
  }
  best->blocks += 1;
  peak_lock.release();
}

int main() {
  std::vector<int> x(kRows * kCols);
  for (int i = 0; i < kRows * kCols; ++i) x[i] = (i * 7919 + i / 13) % 101 - 50;
  int* dx;
  float* normalised;
  unsigned* bins;
  Peak* peak;
  CUDA_CHECK(cudaMalloc(&dx, x.size() * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&normalised, x.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&bins, kBins * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&peak, sizeof(Peak)));
  CUDA_CHECK(cudaMemcpy(dx, x.data(), x.size() * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(bins, 0, kBins * sizeof(unsigned)));
  const Peak start = {-INFINITY, -1, 0};
  CUDA_CHECK(cudaMemcpy(peak, &start, sizeof(Peak), cudaMemcpyHostToDevice));

  const int peak_blocks = 48;
  normalise_rows<<<kRows, kThreads>>>(dx, normalised);
  histogram<<<32, kThreads>>>(dx, kRows * kCols, bins);
  find_peak<<<peak_blocks, kThreads>>>(normalised, kRows * kCols, peak);
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> scaled(x.size());
  std::vector<unsigned> counts(kBins);
  Peak found;
  CUDA_CHECK(cudaMemcpy(scaled.data(), normalised, scaled.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(counts.data(), bins, kBins * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&found, peak, sizeof(Peak), cudaMemcpyDeviceToHost));

  int scaled_mismatches = 0, count_mismatches = 0;
  Peak expected = start;
  std::vector<unsigned> expected_counts(kBins, 0);
  for (int r = 0; r < kRows; ++r) {
    int sum = 0;
    for (int c = 0; c < kCols; ++c) sum += x[r * kCols + c] * x[r * kCols + c];
    float norm = std::sqrt(static_cast<float>(sum));
    for (int c = 0; c < kCols; ++c) {
      const int i = r * kCols + c;
      const float v = x[i] / norm;
      scaled_mismatches += v != scaled[i];
      if (v > expected.value) expected = {v, i, 0};
      ++expected_counts[x[i] + 50];
    }
  }
  unsigned long long weighted = 0;
  for (int b = 0; b < kBins; ++b) {
    count_mismatches += counts[b] != expected_counts[b];
    weighted += static_cast<unsigned long long>(counts[b]) * (b + 1);
  }
  std::printf("normalised %d rows: %d values differ from the host\n", kRows, scaled_mismatches);
  std::printf("histogram: %d bins, weighted count %llu, %d bins differ from the host\n", kBins, weighted,
              count_mismatches);
  std::printf("peak %.7f at %d (host %.7f at %d), reported by %d of %d blocks\n", found.value, found.index,
              expected.value, expected.index, found.blocks, peak_blocks);

  CUDA_CHECK(cudaFree(dx));
  CUDA_CHECK(cudaFree(normalised));
  CUDA_CHECK(cudaFree(bins));
  CUDA_CHECK(cudaFree(peak));
  const bool peak_ok = found.value == expected.value && found.index == expected.index && found.blocks == peak_blocks;
  return scaled_mismatches == 0 && count_mismatches == 0 && peak_ok ? 0 : 1;
}
