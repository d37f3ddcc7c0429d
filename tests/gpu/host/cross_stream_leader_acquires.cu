// The common consumer shape across streams: thread 0 of each consumer block waits (acquire) for the
// producer's flag, __syncthreads() hands what it acquired to the block, then every thread reads the
// published data. Race-free; the consumer is launched first, so both kernels run at once natively.
#include <cuda/atomic>

#include "suite.cuh"

__global__ void consume(int* flag, const int* data, int* out) {
  __shared__ int ready_seen;
  if (threadIdx.x == 0) {
    cuda::atomic_ref<int, cuda::thread_scope_device> ready(*flag);
    const unsigned long long start = gpu_time_ns();
    ready_seen = 1;
    while (ready.load(cuda::memory_order_acquire) == 0) {
      if (gpu_time_ns() - start > 10'000'000'000ull) { ready_seen = 0; break; }  // out stays 0
      __nanosleep(1000);
    }
  }
  __syncthreads();
  if (ready_seen) out[blockIdx.x * blockDim.x + threadIdx.x] = data[blockIdx.x * blockDim.x + threadIdx.x];
}

__global__ void produce(int* flag, int* data) {
  data[threadIdx.x] = 2;
  __syncthreads();  // every thread's write is ordered before thread 0's release
  if (threadIdx.x == 0) cuda::atomic_ref<int, cuda::thread_scope_device>(*flag).store(1, cuda::memory_order_release);
}

int main() {
  int* flag = zeroed<int>(1);
  int* data = zeroed<int>(128);
  int* out = zeroed<int>(128);
  cudaFuncAttributes attributes;
  CHECK(cudaFuncGetAttributes(&attributes, consume));
  CHECK(cudaFuncGetAttributes(&attributes, produce));
  CHECK(cudaDeviceSynchronize());
  cudaStream_t consumer, producer;
  CHECK(cudaStreamCreateWithFlags(&consumer, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&producer, cudaStreamNonBlocking));
  consume<<<2, 64, 0, consumer>>>(flag, data, out);
  produce<<<1, 128, 0, producer>>>(flag, data);
  return finish("cross_stream_leader_acquires", fetch(out + 127));
}
// EXPECT: no-race
