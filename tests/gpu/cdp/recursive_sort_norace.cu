// Dynamic parallelism (CDP2), recursion: a one-thread grid partitions its segment around a pivot and
// launches itself on the two halves, each into a stream of its own created on the device (the
// cdpSimpleQuicksort pattern), down to segments of 8 sorted by insertion sort. Every child sees its
// parent's partition (done before the launch); siblings run concurrently on disjoint segments. The
// kernel launches copies of itself: its checked copy must launch its checked copy.
#include "suite.cuh"

__global__ void fill(unsigned* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = (i * 2654435761u) % 1000;
}

__global__ void sort_segment(unsigned* data, int left, int right) {
  if (right - left < 8) {
    for (int i = left + 1; i <= right; ++i) {
      const unsigned value = data[i];
      int j = i - 1;
      for (; j >= left && data[j] > value; --j) data[j + 1] = data[j];
      data[j + 1] = value;
    }
    return;
  }
  const unsigned pivot = data[(left + right) / 2];
  int l = left, r = right;
  while (l <= r) {
    while (data[l] < pivot) ++l;
    while (data[r] > pivot) --r;
    if (l <= r) {
      const unsigned swapped = data[l];
      data[l++] = data[r];
      data[r--] = swapped;
    }
  }
  cudaStream_t low, high;
  cudaStreamCreateWithFlags(&low, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&high, cudaStreamNonBlocking);
  if (left < r) sort_segment<<<1, 1, 0, low>>>(data, left, r);
  if (l < right) sort_segment<<<1, 1, 0, high>>>(data, l, right);
  cudaStreamDestroy(low);
  cudaStreamDestroy(high);
}

int main() {
  constexpr int n = 512;
  unsigned* data = zeroed<unsigned>(n);
  fill<<<n / 128, 128>>>(data, n);
  sort_segment<<<1, 1>>>(data, 0, n - 1);
  return finish("recursive_sort_norace", fetch(data + n - 1));
}
// BUILD: -rdc=true
// EXPECT: no-race
