// Dynamic parallelism (CDP2): thread 0 of the parent launches child A and child B, both with
// cudaStreamFireAndForget. Each fills its own half of `parts` (disjoint), and thread 0 of each writes
// its own value into the same word: fire-and-forget grids are unordered with each other, so one race,
// write-write, between line 12 (A) and line 17 (B). The host prints only whether the word holds one of
// the two values.
#include <cstdio>

#include "cuda_check.h"

__global__ void child_a(int* parts, int* word) {
  parts[threadIdx.x] = threadIdx.x + 1;
  if (threadIdx.x == 0) word[0] = 1;
}

__global__ void child_b(int* parts, int* word) {
  parts[blockDim.x + threadIdx.x] = threadIdx.x + 2;
  if (threadIdx.x == 0) word[0] = 2;
}

__global__ void fire_and_forget_two(int* parts, int* word) {
  if (threadIdx.x == 0) {
    child_a<<<1, 32, 0, cudaStreamFireAndForget>>>(parts, word);
    child_b<<<1, 32, 0, cudaStreamFireAndForget>>>(parts, word);
  }
}

int main() {
  constexpr int n = 64;
  int *parts = nullptr, *word = nullptr;
  CHECK(cudaMalloc(&parts, n * sizeof(int)));
  CHECK(cudaMalloc(&word, sizeof(int)));
  CHECK(cudaMemset(word, 0, sizeof(int)));
  fire_and_forget_two<<<1, 32>>>(parts, word);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int host[n], value = 0;
  CHECK(cudaMemcpy(host, parts, sizeof host, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&value, word, sizeof value, cudaMemcpyDeviceToHost));
  long sum = 0;
  for (int i = 0; i < n; ++i) sum += static_cast<long>(host[i]) * (i + 1);
  std::printf("cdp_fire_and_forget_race: checksum=%ld word written=%s\n", sum,
              value == 1 || value == 2 ? "yes" : "no");
  CHECK(cudaFree(parts));
  CHECK(cudaFree(word));
  return 0;
}
