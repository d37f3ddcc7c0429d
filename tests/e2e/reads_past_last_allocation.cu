// Reads past the end of the program's last allocation, as an unguarded kernel does (`nindex[i + 1]`
// for the thread after the last node), and prints what it found. Natively that memory is unused;
// under barracuda it must be too: the tool's own device memory must not sit right after the
// application's buffers, or the output changes and such kernels loop over the tool's live data.
#include <cstdio>

__global__ void read_past_end(const int* last, int elements, long long* found) {
  found[threadIdx.x] = last[elements + threadIdx.x * 16];
}

int main() {
  constexpr int kProbes = 256;
  long long* found = nullptr;
  cudaMalloc(&found, kProbes * sizeof(long long));
  const int elements = 1024;
  int* last = nullptr;
  cudaMalloc(&last, elements * sizeof(int));
  cudaMemset(last, 0, elements * sizeof(int));
  read_past_end<<<1, kProbes>>>(last, elements, found);
  const cudaError_t status = cudaDeviceSynchronize();
  long long host[kProbes] = {};
  cudaMemcpy(host, found, sizeof host, cudaMemcpyDeviceToHost);
  int nonzero = 0;
  for (long long word : host) nonzero += word != 0;
  std::printf("kernel: %s; nonzero words past the last allocation: %d of %d\n", cudaGetErrorString(status), nonzero,
              kProbes);
  return status == cudaSuccess ? 0 : 1;
}
