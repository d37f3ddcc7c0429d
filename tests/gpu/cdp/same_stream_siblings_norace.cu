// Dynamic parallelism (CDP2): thread 0 of the parent launches a producer grid, then a consumer grid
// that reads what every block of the producer wrote, both into the block's NULL stream (0). Grids
// launched into one device stream run one after the other: the consumer sees the producer's writes.
#include "suite.cuh"

__global__ void producer(int* x) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] = i + 1;
}

__global__ void consumer(const int* x, int* out) {
  const int n = gridDim.x * blockDim.x;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = x[n - 1 - i];
}

__global__ void parent(int* x, int* out) {
  if (threadIdx.x == 0) {
    producer<<<2, 64, 0, 0>>>(x);
    consumer<<<2, 64, 0, 0>>>(x, out);
  }
}

int main() {
  int* x = zeroed<int>(128);
  int* out = zeroed<int>(128);
  parent<<<1, 32>>>(x, out);
  return finish("same_stream_siblings_norace", fetch(out));
}
// BUILD: -rdc=true
// EXPECT: no-race
