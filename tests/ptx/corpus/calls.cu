// Corpus kernels: printf, recursion, indirect calls through function pointers, non-inlined device
// functions with aggregates, dense switches (brx.idx jump tables), local arrays, assert, malloc.
#include <cassert>
#include <cstdio>

struct Pair {
  double a;
  int b[3];
};

__device__ __noinline__ Pair make_pair(int x) { return Pair{x * 0.5, {x, x + 1, x + 2}}; }
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ __noinline__ int twice(int x) { return 2 * x; }
__device__ __noinline__ int square(int x) { return x * x; }
__device__ int (*const g_ops[])(int) = {twice, square};

__device__ __noinline__ int dispatch(int selector, int x) {
  switch (selector) {
    case 0: return x + 1;
    case 1: return x * 3;
    case 2: return x - 7;
    case 3: return x ^ 0x55;
    case 4: return x << 2;
    case 5: return x / 5;
    case 6: return x % 11;
    case 7: return ~x;
    default: return 0;
  }
}

__global__ void calls(int* out, int selector) {
  int t = threadIdx.x;
  int (*op)(int) = g_ops[t & 1];
  int v = op(t) + fib(t % 10) + dispatch(selector + t % 8, t);
  Pair p = make_pair(v);
  int local[16];
  for (int i = 0; i < 16; ++i) local[i] = v * i;
  v += local[(t * 7) % 16] + p.b[t % 3] + static_cast<int>(p.a);
  if (t == 0) printf("block %d value %d pair %f\n", blockIdx.x, v, p.a);
  assert(v != 123456789);
  int* heap = static_cast<int*>(malloc(sizeof(int) * 4));
  if (heap) {
    heap[0] = v;
    v += heap[0];
    free(heap);
  }
  out[t] = v;
}
