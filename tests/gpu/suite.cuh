// Helpers every suite program shares: fail loudly on a CUDA error, print the one result line.
#pragma once
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    cudaError_t check_status_ = (call);                                                      \
    if (check_status_ != cudaSuccess) {                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                     \
                   cudaGetErrorString(check_status_));                                       \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

// Waits for the device, checks launch and execution errors, and prints "<name>: <value>".
inline int finish(const char* name, long long value) {
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::printf("%s: %lld\n", name, value);
  return 0;
}

// Device buffer of n T's, zero-filled.
template <typename T>
T* zeroed(size_t n) {
  T* p = nullptr;
  CHECK(cudaMalloc(&p, n * sizeof(T)));
  CHECK(cudaMemset(p, 0, n * sizeof(T)));
  return p;
}

// Copies one T back from the device (after the kernels before it finished).
template <typename T>
T fetch(const T* device_ptr) {
  T value{};
  CHECK(cudaMemcpy(&value, device_ptr, sizeof(T), cudaMemcpyDeviceToHost));
  return value;
}

// The GPU's global nanosecond timer: for kernels that wait a bounded time or report when they ran.
__device__ inline unsigned long long gpu_time_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Takes a permit of a libcu++ semaphore by spinning on try_acquire (the acquire exchange acquire()
// repeats) for 10 s at most, so that a program whose protocol is broken ends instead of hanging.
// Returns whether it got the permit.
template <typename Semaphore>
__device__ bool acquire_within_10s(Semaphore& semaphore) {
  const unsigned long long start = gpu_time_ns();
  while (!semaphore.try_acquire()) {
    if (gpu_time_ns() - start > 10'000'000'000ull) return false;
    __nanosleep(100);
  }
  return true;
}
