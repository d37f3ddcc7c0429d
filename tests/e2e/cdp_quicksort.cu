// Dynamic parallelism (CDP2): a recursive quicksort after the CUDA sample cdpSimpleQuicksort. Each grid
// is one thread that partitions its segment in place and launches two child grids on the two halves,
// each into its own non-blocking stream created on the device; below 32 elements or at depth 16 it
// sorts its segment by selection sort instead. Siblings run concurrently on disjoint segments, and
// every child sees its parent's partition (done before the launch). The host checks the 4096 sorted
// ints. Race-free.
#include <cstdio>

#include "cuda_check.h"

constexpr int kMaxDepth = 16;
constexpr int kSelectionSortBelow = 32;

__device__ void selection_sort(unsigned* data, int left, int right) {
  for (int i = left; i <= right; ++i) {
    unsigned smallest = data[i];
    int at = i;
    for (int j = i + 1; j <= right; ++j) {
      if (data[j] < smallest) smallest = data[j], at = j;
    }
    if (at != i) data[at] = data[i], data[i] = smallest;
  }
}

__global__ void quicksort(unsigned* data, int left, int right, int depth) {
  if (depth >= kMaxDepth || right - left < kSelectionSortBelow) {
    selection_sort(data, left, right);
    return;
  }
  const unsigned pivot = data[(left + right) / 2];
  int l = left, r = right;
  while (l <= r) {
    unsigned lval = data[l], rval = data[r];
    while (lval < pivot) lval = data[++l];
    while (rval > pivot) rval = data[--r];
    if (l <= r) data[l++] = rval, data[r--] = lval;
  }
  if (left < r) {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    quicksort<<<1, 1, 0, s>>>(data, left, r, depth + 1);
    cudaStreamDestroy(s);
  }
  if (l < right) {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    quicksort<<<1, 1, 0, s>>>(data, l, right, depth + 1);
    cudaStreamDestroy(s);
  }
}

int main() {
  constexpr int n = 4096;
  static unsigned host[n];
  unsigned state = 12345;
  unsigned long long sum_before = 0;
  for (int i = 0; i < n; ++i) {
    state = state * 1664525u + 1013904223u;
    host[i] = state >> 12;
    sum_before += host[i];
  }
  unsigned* data = nullptr;
  CHECK(cudaMalloc(&data, sizeof host));
  CHECK(cudaMemcpy(data, host, sizeof host, cudaMemcpyHostToDevice));
  quicksort<<<1, 1>>>(data, 0, n - 1, 0);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(host, data, sizeof host, cudaMemcpyDeviceToHost));
  bool sorted = true;
  unsigned long long sum_after = 0, weighted = 0;
  for (int i = 0; i < n; ++i) {
    if (i > 0 && host[i - 1] > host[i]) sorted = false;
    sum_after += host[i];
    weighted += static_cast<unsigned long long>(host[i]) * (i % 13 + 1);
  }
  const bool same_values = sum_after == sum_before;
  std::printf("cdp_quicksort: %d ints %s, sum %s, min=%u max=%u checksum=%llu\n", n,
              sorted ? "sorted" : "NOT SORTED", same_values ? "kept" : "CHANGED", host[0], host[n - 1], weighted);
  CHECK(cudaFree(data));
  return sorted && same_values ? 0 : 1;
}
