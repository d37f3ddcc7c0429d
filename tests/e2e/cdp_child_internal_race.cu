// Dynamic parallelism (CDP2): a race inside a child grid. Thread 0 of the parent launches a child of two
// blocks; thread 0 of block 0 writes a word that thread 0 of block 1 reads, with nothing between the
// blocks: one race, between the child's write (line 13) and its read (line 15). Block 1 keeps only
// whether the word it read was 0 or 1 (always), so the output is the same whichever it saw.
#include <cstdio>

#include "cuda_check.h"

__global__ void child(int* word, int* seen, int* own) {
  own[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x + threadIdx.x;
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    word[0] = 1;
  } else {
    seen[0] = static_cast<unsigned>(word[0]) < 2u;
  }
}

__global__ void launch_child(int* word, int* seen, int* own) {
  if (threadIdx.x == 0) child<<<2, 64>>>(word, seen, own);
}

int main() {
  constexpr int n = 128;
  int *word = nullptr, *seen = nullptr, *own = nullptr;
  CHECK(cudaMalloc(&word, sizeof(int)));
  CHECK(cudaMalloc(&seen, sizeof(int)));
  CHECK(cudaMalloc(&own, n * sizeof(int)));
  CHECK(cudaMemset(word, 0, sizeof(int)));
  CHECK(cudaMemset(seen, 0, sizeof(int)));
  launch_child<<<1, 32>>>(word, seen, own);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int host[n], value = 0, seen_value = 0;
  CHECK(cudaMemcpy(host, own, sizeof host, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&value, word, sizeof value, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&seen_value, seen, sizeof seen_value, cudaMemcpyDeviceToHost));
  long sum = 0;
  for (int i = 0; i < n; ++i) sum += static_cast<long>(host[i]) * (i + 1);
  std::printf("cdp_child_internal_race: checksum=%ld word=%d seen=%d\n", sum, value, seen_value);
  CHECK(cudaFree(word));
  CHECK(cudaFree(seen));
  CHECK(cudaFree(own));
  return 0;
}
