// End-to-end fixture: a race-free kernel (each thread owns its slot; a barrier orders the shared-memory
// exchange). barracuda must report nothing and the output must be identical to the native run.
#include <cstdio>

__global__ void reverse_in_block(const int* in, int* out) {
  __shared__ int tile[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = tile[blockDim.x - 1 - threadIdx.x];
}

int main() {
  const int blocks = 4, threads = 128, n = blocks * threads;
  int host[n];
  for (int i = 0; i < n; ++i) host[i] = i;
  int *in = nullptr, *out = nullptr;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, sizeof host);
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  reverse_in_block<<<blocks, threads>>>(in, out);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  long sum = 0;
  for (int i = 0; i < n; ++i) sum += static_cast<long>(host[i]) * (i % 7);
  std::printf("clean_global: first=%d last=%d checksum=%ld\n", host[0], host[n - 1], sum);
  cudaFree(in);
  cudaFree(out);
  return host[0] == threads - 1 ? 0 : 1;
}
