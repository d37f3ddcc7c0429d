// One kernel template instantiated for int, float and double, plus a functor template argument:
// race-free.
#include "suite.cuh"

template <typename T>
struct Twice {
  __device__ T operator()(T v) const { return v + v; }
};

template <typename T, typename Op>
__global__ void apply(const T* in, T* out, Op op) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = op(in[i]);
}

template <typename T>
void run() {
  T* in = zeroed<T>(256);
  T* out = zeroed<T>(256);
  apply<<<2, 128>>>(in, out, Twice<T>{});
}

int main() {
  run<int>();
  run<float>();
  run<double>();
  return finish("templates", 3);
}
// EXPECT: no-race
