// The app takes all but 64 MiB of the GPU's memory before its first launch: the app must see what
// it sees natively, and the run either checks the launch (the tool's memory still fits) or says it
// was not checked; never a crash or a changed result.
#include <cstdio>

__global__ void racy_store(int* x) {
  if (threadIdx.x == 0) x[0] = blockIdx.x;
}

int main() {
  cudaFree(nullptr);  // create the context first: it takes memory of its own
  size_t free_bytes = 0, total_bytes = 0;
  cudaMemGetInfo(&free_bytes, &total_bytes);
  constexpr size_t kLeft = size_t{64} << 20;
  void* hog = nullptr;
  const cudaError_t filled = cudaMalloc(&hog, free_bytes > kLeft ? free_bytes - kLeft : 0);
  int* x = nullptr;
  const cudaError_t small = cudaMalloc(&x, sizeof(int));
  racy_store<<<2, 32>>>(x);
  const cudaError_t done = cudaDeviceSynchronize();
  std::printf("fill: %s; 4 bytes: %s; kernel: %s\n", cudaGetErrorName(filled), cudaGetErrorName(small),
              cudaGetErrorName(done));
  return done == cudaSuccess ? 0 : 1;
}
