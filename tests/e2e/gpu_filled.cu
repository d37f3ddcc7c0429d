// The app fills the GPU's memory before its first launch: the app must see what it sees natively,
// and the run either checks the launch (the tool's memory still fits) or says it was not checked;
// never a crash or a changed result.
//   e2e_gpu_filled          all but 64 MiB taken: the tool's memory still fits, the launch is checked
//   e2e_gpu_filled MIB      all but MIB MiB taken: any of the tool's allocations may fail
//   e2e_gpu_filled all      every last chunk taken: the tool cannot create its queues at all
// Run the second with CUDA_MODULE_LOADING=EAGER, so that natively the kernel needs no memory at launch.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

__global__ void racy_store(int* x) {
  if (threadIdx.x == 0) x[0] = blockIdx.x;
}

// Takes chunks of decreasing size until not even 64 KiB is left; returns how many bytes it took.
static size_t take_everything(std::vector<void*>& hogs) {
  size_t taken = 0;
  for (size_t chunk = size_t{1} << 30; chunk >= (size_t{64} << 10);) {
    void* hog = nullptr;
    if (cudaMalloc(&hog, chunk) == cudaSuccess) {
      hogs.push_back(hog);
      taken += chunk;
    } else {
      cudaGetLastError();  // the failure is expected: clear it
      chunk /= 2;
    }
  }
  return taken;
}

int main(int argc, char** argv) {
  const bool everything = argc > 1 && std::strcmp(argv[1], "all") == 0;
  cudaFree(nullptr);  // create the context first: it takes memory of its own
  int* x = nullptr;
  const cudaError_t small = cudaMalloc(&x, sizeof(int));
  std::vector<void*> hogs;
  cudaError_t filled = cudaSuccess;
  if (everything) {
    filled = take_everything(hogs) > 0 ? cudaSuccess : cudaErrorMemoryAllocation;
  } else {
    size_t free_bytes = 0, total_bytes = 0;
    cudaMemGetInfo(&free_bytes, &total_bytes);
    const size_t left = size_t{argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 64} << 20;
    void* hog = nullptr;
    filled = cudaMalloc(&hog, free_bytes > left ? free_bytes - left : 0);
  }
  racy_store<<<2, 32>>>(x);
  const cudaError_t done = cudaDeviceSynchronize();
  std::printf("fill: %s; 4 bytes: %s; kernel: %s\n", cudaGetErrorName(filled), cudaGetErrorName(small),
              cudaGetErrorName(done));
  return done == cudaSuccess ? 0 : 1;
}
