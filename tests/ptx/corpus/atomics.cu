// Corpus kernels: legacy atomics of every kind, cuda::atomic_ref orders and scopes, fences, volatile.
#include <cuda/atomic>
#include <cuda_fp16.h>

__device__ unsigned int g_counter;
__device__ unsigned long long g_wide;

__global__ void legacy_atomics(int* i, unsigned* u, unsigned long long* ull, float* f, double* d, __half2* h) {
  int t = threadIdx.x;
  atomicAdd(i, t);
  atomicSub(i + 1, t);
  atomicExch(i + 2, t);
  atomicMin(i + 3, t);
  atomicMax(i + 4, t);
  atomicInc(u, 17u);
  atomicDec(u + 1, 17u);
  atomicCAS(i + 5, t, t + 1);
  atomicAnd(i + 6, t);
  atomicOr(i + 7, t);
  atomicXor(i + 8, t);
  atomicAdd(ull, 1ull);
  atomicCAS(ull + 1, 0ull, 1ull);
  atomicMin(ull + 2, (unsigned long long)t);
  atomicAdd(f, 1.0f);
  atomicExch(f + 1, 2.0f);
  atomicAdd(d, 1.0);
  atomicAdd(h, __halves2half2(__float2half(1.0f), __float2half(2.0f)));
  atomicAdd_block(i + 9, 1);
  atomicAdd_system(i + 10, 1);
  atomicCAS_block(i + 11, 0, 1);
  atomicExch_system(u + 2, 3u);
}

template <cuda::thread_scope Scope>
__device__ void orders(int* p) {
  cuda::atomic_ref<int, Scope> ref(*p);
  int v = ref.load(cuda::memory_order_relaxed);
  v += ref.load(cuda::memory_order_acquire);
  v += ref.load(cuda::memory_order_seq_cst);
  ref.store(v, cuda::memory_order_relaxed);
  ref.store(v, cuda::memory_order_release);
  ref.store(v, cuda::memory_order_seq_cst);
  ref.fetch_add(1, cuda::memory_order_acq_rel);
  ref.fetch_sub(1, cuda::memory_order_release);
  ref.fetch_and(1, cuda::memory_order_acquire);
  ref.fetch_or(1, cuda::memory_order_relaxed);
  ref.fetch_xor(1, cuda::memory_order_seq_cst);
  ref.fetch_min(1);
  ref.fetch_max(1);
  ref.exchange(2, cuda::memory_order_acq_rel);
  int expected = 0;
  ref.compare_exchange_strong(expected, 1, cuda::memory_order_acq_rel);
  ref.compare_exchange_weak(expected, 2, cuda::memory_order_release, cuda::memory_order_relaxed);
}

__global__ void scoped_atomics(int* p) {
  orders<cuda::thread_scope_block>(p);
  orders<cuda::thread_scope_device>(p + 1);
  orders<cuda::thread_scope_system>(p + 2);
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> wide(g_wide);
  wide.fetch_add(1, cuda::memory_order_relaxed);
  cuda::atomic_ref<float, cuda::thread_scope_block> real(*reinterpret_cast<float*>(p + 3));
  real.fetch_add(1.0f);
}

__global__ void fences(volatile int* flag, int* data) {
  data[threadIdx.x] = 1;
  __threadfence_block();
  __threadfence();
  __threadfence_system();
  cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_block);
  cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device);
  cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_system);
  if (threadIdx.x == 0) *flag = 1;
  while (*flag == 0) {
  }
  atomicAdd(&g_counter, 1);
}

__global__ void spin_lock(int* lock, int* data) {
  if (threadIdx.x % 32 == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    __threadfence();
    data[0] += 1;
    __threadfence();
    atomicExch(lock, 0);
  }
}
