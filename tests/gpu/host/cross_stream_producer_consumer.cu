// A consumer kernel waits (acquire) for a flag that a producer kernel, launched after it into another
// stream, sets (release) once its data is written: race-free, and natively both run at once. A tool
// that runs one launch at a time never lets the consumer see the flag: it gives up after 10 s.
#include <cuda/atomic>

#include "suite.cuh"

__global__ void consume(int* flag, const int* data, int* out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> ready(*flag);
  const unsigned long long start = gpu_time_ns();
  while (ready.load(cuda::memory_order_acquire) == 0) {
    if (gpu_time_ns() - start > 10'000'000'000ull) return;  // out stays 0: the result line says so
    __nanosleep(1000);
  }
  out[threadIdx.x] = data[threadIdx.x];
}

__global__ void produce(int* flag, int* data) {
  data[threadIdx.x] = 2;
  __syncthreads();
  if (threadIdx.x == 0) cuda::atomic_ref<int, cuda::thread_scope_device>(*flag).store(1, cuda::memory_order_release);
}

int main() {
  int* flag = zeroed<int>(1);
  int* data = zeroed<int>(64);
  int* out = zeroed<int>(64);
  // Lazy loading would load `produce` at its launch, which waits for the running consumer: load both now.
  cudaFuncAttributes attributes;
  CHECK(cudaFuncGetAttributes(&attributes, consume));
  CHECK(cudaFuncGetAttributes(&attributes, produce));
  CHECK(cudaDeviceSynchronize());
  cudaStream_t consumer, producer;
  CHECK(cudaStreamCreateWithFlags(&consumer, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&producer, cudaStreamNonBlocking));
  consume<<<1, 64, 0, consumer>>>(flag, data, out);
  produce<<<1, 64, 0, producer>>>(flag, data);
  return finish("cross_stream_producer_consumer", fetch(out + 63));
}
// EXPECT: no-race
