// One kernel plays both roles: its first launch waits (acquire) for a flag that its second launch,
// issued after it into another stream, sets (release) once the data is written. Race-free, and
// natively both launches run at once. A tool that lets one launch of a kernel run only after the
// previous one ended never lets the first see the flag: it gives up after 10 s.
#include <cuda/atomic>

#include "suite.cuh"

__global__ void exchange(int* flag, int* data, int* out, int producer) {
  cuda::atomic_ref<int, cuda::thread_scope_device> ready(*flag);
  if (producer) {
    data[threadIdx.x] = 2;
    __syncthreads();
    if (threadIdx.x == 0) ready.store(1, cuda::memory_order_release);
    return;
  }
  const unsigned long long start = gpu_time_ns();
  while (ready.load(cuda::memory_order_acquire) == 0) {
    if (gpu_time_ns() - start > 10'000'000'000ull) return;  // out stays 0: the result line says so
    __nanosleep(1000);
  }
  out[threadIdx.x] = data[threadIdx.x];
}

int main() {
  int* flag = zeroed<int>(1);
  int* data = zeroed<int>(64);
  int* out = zeroed<int>(64);
  cudaFuncAttributes attributes;  // loaded now: lazy loading at a launch waits for running kernels
  CHECK(cudaFuncGetAttributes(&attributes, exchange));
  CHECK(cudaDeviceSynchronize());
  cudaStream_t first, second;
  CHECK(cudaStreamCreateWithFlags(&first, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking));
  exchange<<<1, 64, 0, first>>>(flag, data, out, 0);
  exchange<<<1, 64, 0, second>>>(flag, data, out, 1);
  return finish("same_kernel_waits_for_itself", fetch(out + 63));
}
// EXPECT: no-race
