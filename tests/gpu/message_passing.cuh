// Message passing between two blocks, the shape of the fence and libcu groups: block 0 writes data
// and raises a flag, block 1 waits for the flag and reads the data. The kernels below are the
// variants that differ only in orders, scopes or fences; the programs instantiate them and name
// their lines through the markers here (@MP_...).
#pragma once
#include <cuda/atomic>
#include "suite.cuh"

// Flag accessed through cuda::atomic_ref<int, Scope>: StoreOrder on the producer's store,
// LoadOrder on the consumer's spinning loads.
template <cuda::thread_scope Scope, cuda::memory_order StoreOrder, cuda::memory_order LoadOrder>
__global__ void atomic_ref_message_passing(int* data, int* flag, int* out) {
  if (threadIdx.x != 0) return;
  cuda::atomic_ref<int, Scope> ready(*flag);
  if (blockIdx.x == 0) {
    data[0] = 42;                             // @MP_DATA_WRITE
    ready.store(1, StoreOrder);
  } else {
    while (ready.load(LoadOrder) == 0) {}
    out[0] = data[0];                         // @MP_DATA_READ
  }
}

enum class Fence { none, block, device, system };

template <Fence F>
__device__ void fence() {
  if constexpr (F == Fence::block) __threadfence_block();
  if constexpr (F == Fence::device) __threadfence();
  if constexpr (F == Fence::system) __threadfence_system();
}

// Legacy style: volatile flag, with the given fence after the producer's data write and after the
// consumer's spin.
template <Fence Producer, Fence Consumer>
__global__ void volatile_message_passing(int* data, volatile int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    data[0] = 42;                             // @MP_LEGACY_DATA_WRITE
    fence<Producer>();
    *flag = 1;
  } else {
    while (*flag == 0) {}
    fence<Consumer>();
    out[0] = data[0];                         // @MP_LEGACY_DATA_READ
  }
}

// The message-passing shape shared by the fence and libcu groups: kernel(data, flag, out) on two
// blocks of 32 threads (block 0 produces, block 1 consumes) over three zeroed ints; prints out[0].
template <typename Flag>
int run_message_passing(const char* name, void (*kernel)(int*, Flag*, int*)) {
  int* data = zeroed<int>(1);
  int* flag = zeroed<int>(1);
  int* out = zeroed<int>(1);
  kernel<<<2, 32>>>(data, flag, out);
  return finish(name, fetch(out));
}
