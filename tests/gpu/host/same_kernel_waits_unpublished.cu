// same_kernel_waits_for_itself with the flag set and read relaxed: both launches of the one kernel
// run at once, and nothing orders the second launch's data write before the first launch's read.
#include <cuda/atomic>

#include "suite.cuh"

__global__ void exchange(int* flag, int* data, int* out, int producer) {
  cuda::atomic_ref<int, cuda::thread_scope_device> ready(*flag);
  if (producer) {
    data[threadIdx.x] = 2;  // @A
    __syncthreads();
    if (threadIdx.x == 0) ready.store(1, cuda::memory_order_relaxed);
    return;
  }
  const unsigned long long start = gpu_time_ns();
  while (ready.load(cuda::memory_order_relaxed) == 0) {
    if (gpu_time_ns() - start > 10'000'000'000ull) return;
    __nanosleep(1000);
  }
  out[threadIdx.x] = data[threadIdx.x];  // @B
}

int main() {
  int* flag = zeroed<int>(1);
  int* data = zeroed<int>(64);
  int* out = zeroed<int>(64);
  cudaFuncAttributes attributes;
  CHECK(cudaFuncGetAttributes(&attributes, exchange));
  CHECK(cudaDeviceSynchronize());
  cudaStream_t first, second;
  CHECK(cudaStreamCreateWithFlags(&first, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking));
  exchange<<<1, 64, 0, first>>>(flag, data, out, 0);
  exchange<<<1, 64, 0, second>>>(flag, data, out, 1);
  return finish("same_kernel_waits_unpublished", fetch(out + 63));
}
// EXPECT: race inter-block global WAR A B
