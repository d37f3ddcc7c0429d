// Column statistics of a large matrix streamed through shared memory with asynchronous copies, the
// double-buffering pattern of bandwidth-bound kernels. The first kernel pulls row stages with
// cuda::memcpy_async into a two-stage cuda::pipeline whose stage size is chosen at run time from the
// device's shared-memory limit (over 48 KiB: cudaFuncSetAttribute); the second reduces the per-block
// partial sums with __pipeline_memcpy_async double buffering in a run-time sized extern __shared__ buffer.
// APP-EXPECT: clean
#include <cooperative_groups.h>
#include <cuda/pipeline>
#include <cuda_pipeline.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "app_check.cuh"

namespace cg = cooperative_groups;

constexpr int kRows = 1024;
constexpr int kCols = 2048;
constexpr int kThreads = 256;
constexpr int kPartialBlocks = 64;  // each block of the first kernel sums kRows / kPartialBlocks rows
constexpr int kColumnsPerThread = kCols / kThreads;

// partial[block][col] = sum of matrix[row][col] over the block's rows, fetched stage_rows rows at a time.
__global__ void column_partials(const float* matrix, int stage_rows, float* partial) {
  extern __shared__ float stages[];
  // make_pipeline initialises the state (its constructor does not run for a __shared__ variable).
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  cg::thread_block block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  const int rows_per_block = kRows / gridDim.x;
  const int chunks = rows_per_block / stage_rows;
  const size_t stage_elements = static_cast<size_t>(stage_rows) * kCols;
  const float* rows = matrix + static_cast<size_t>(blockIdx.x) * rows_per_block * kCols;
  auto fetch = [&](int chunk) {
    pipe.producer_acquire();
    cuda::memcpy_async(block, stages + (chunk % 2) * stage_elements, rows + chunk * stage_elements,
                       cuda::aligned_size_t<16>(stage_elements * sizeof(float)), pipe);
    pipe.producer_commit();
  };
  float sums[kColumnsPerThread] = {};
  fetch(0);
  for (int chunk = 0; chunk < chunks; ++chunk) {
    if (chunk + 1 < chunks) fetch(chunk + 1);
    pipe.consumer_wait();
    const float* stage = stages + (chunk % 2) * stage_elements;
    for (int r = 0; r < stage_rows; ++r) {
      for (int j = 0; j < kColumnsPerThread; ++j) sums[j] += stage[r * kCols + threadIdx.x + j * kThreads];
    }
    pipe.consumer_release();
  }
  for (int j = 0; j < kColumnsPerThread; ++j) partial[blockIdx.x * kCols + threadIdx.x + j * kThreads] = sums[j];
}

// colsum[col] = sum over the partial rows; each block owns kThreads columns and double-buffers
// stage_rows partial rows at a time in 16-byte asynchronous copies that other threads consume.
__global__ void sum_partials(const float* partial, int stage_rows, float* colsum) {
  extern __shared__ float4 buffer[];
  const int col0 = blockIdx.x * kThreads;
  const int vectors_per_row = kThreads / 4;
  const int stage_vectors = stage_rows * vectors_per_row;
  const int stages = kPartialBlocks / stage_rows;
  auto issue = [&](int stage) {
    for (int v = threadIdx.x; v < stage_vectors; v += blockDim.x) {
      const int row = stage * stage_rows + v / vectors_per_row;
      const float* src = partial + row * kCols + col0 + (v % vectors_per_row) * 4;
      __pipeline_memcpy_async(&buffer[(stage % 2) * stage_vectors + v], src, sizeof(float4));
    }
    __pipeline_commit();
  };
  float sum = 0.0f;
  issue(0);
  for (int stage = 0; stage < stages; ++stage) {
    if (stage + 1 < stages) {
      issue(stage + 1);
      __pipeline_wait_prior(1);
    } else {
      __pipeline_wait_prior(0);
    }
    __syncthreads();
    const float* rows = reinterpret_cast<const float*>(&buffer[(stage % 2) * stage_vectors]);
    for (int r = 0; r < stage_rows; ++r) sum += rows[r * kThreads + threadIdx.x];
    __syncthreads();  // the next issue refills this buffer
  }
  colsum[col0 + threadIdx.x] = sum;
}

int main() {
  int device = 0, optin = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  // The deepest stage (in rows) whose two buffers fit next to the pipeline state.
  int stage_rows = 8;
  while (stage_rows > 1 && 2 * stage_rows * kCols * sizeof(float) + 1024 > static_cast<size_t>(optin)) stage_rows /= 2;
  const size_t stage_bytes = 2 * stage_rows * kCols * sizeof(float);
  CUDA_CHECK(cudaFuncSetAttribute(column_partials, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  static_cast<int>(stage_bytes)));
  const int partial_stage_rows = 8;
  const size_t partial_bytes = 2 * partial_stage_rows * kThreads * sizeof(float);

  std::vector<float> matrix(static_cast<size_t>(kRows) * kCols);
  for (size_t i = 0; i < matrix.size(); ++i) {
    uint32_t h = static_cast<uint32_t>(i) * 2654435761u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    matrix[i] = static_cast<float>(h % 9) - 4.0f;
  }
  float *dmatrix, *partial, *colsum;
  CUDA_CHECK(cudaMalloc(&dmatrix, matrix.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&partial, kPartialBlocks * kCols * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&colsum, kCols * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(dmatrix, matrix.data(), matrix.size() * sizeof(float), cudaMemcpyHostToDevice));

  column_partials<<<kPartialBlocks, kThreads, stage_bytes>>>(dmatrix, stage_rows, partial);
  sum_partials<<<kCols / kThreads, kThreads, partial_bytes>>>(partial, partial_stage_rows, colsum);
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> result(kCols);
  CUDA_CHECK(cudaMemcpy(result.data(), colsum, kCols * sizeof(float), cudaMemcpyDeviceToHost));

  std::vector<double> expected(kCols, 0.0);
  for (int r = 0; r < kRows; ++r) {
    for (int c = 0; c < kCols; ++c) expected[c] += matrix[static_cast<size_t>(r) * kCols + c];
  }
  int mismatches = 0;
  double total = 0.0, weighted = 0.0;
  float lowest = result[0], highest = result[0];
  for (int c = 0; c < kCols; ++c) {
    mismatches += result[c] != expected[c];
    total += result[c];
    weighted += result[c] * (c % 17);
    lowest = result[c] < lowest ? result[c] : lowest;
    highest = result[c] > highest ? result[c] : highest;
  }
  std::printf("column sums of a %dx%d matrix: total %.0f, weighted %.0f, min %.0f, max %.0f\n", kRows, kCols, total,
              weighted, lowest, highest);
  std::printf("%d columns differ from the host\n", mismatches);

  CUDA_CHECK(cudaFree(dmatrix));
  CUDA_CHECK(cudaFree(partial));
  CUDA_CHECK(cudaFree(colsum));
  return mismatches == 0 ? 0 : 1;
}
