// End-to-end fixture: one launch of 4096 blocks x 512 threads (2M threads), each writing its own
// element: race-free. The tool must run it to completion and report nothing.
#include <cstdio>
#include <vector>

__global__ void scale(int* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = static_cast<int>(i % 1000) * 3;
}

int main() {
  constexpr unsigned blocks = 4096, threads = 512, n = blocks * threads;
  int* out = nullptr;
  cudaMalloc(&out, n * sizeof(int));
  scale<<<blocks, threads>>>(out);
  std::vector<int> host(n);
  cudaMemcpy(host.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaError_t err = cudaDeviceSynchronize();
  long long sum = 0;
  for (int v : host) sum += v;
  std::printf("million_threads: %s, %u threads, sum=%lld\n", cudaGetErrorString(err), n, sum);
  cudaFree(out);
  return err == cudaSuccess ? 0 : 1;
}
