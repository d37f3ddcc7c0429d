// Races whose report must name the memory they hit (issue 15 part 4), one per mode:
//   buffer:   two blocks write word 4 of an 804-byte cudaMalloc buffer (offset 0x10);
//   variable: two blocks write the __device__ variable `counter`;
//   overflow: block 0 reads past the end of a 1024-byte buffer into the 4096-byte buffer block 1
//             writes (word 3, offset 0xc): the report names the allocation actually touched.
// Built with -rdynamic, so the allocation's host frames name main.
#include <cstdio>
#include <cstring>

__device__ int counter;

__global__ void store_to_buffer(int* buffer) {
  if (threadIdx.x == 0) buffer[4] = blockIdx.x;
}

__global__ void store_to_variable() {
  if (threadIdx.x == 0) counter = blockIdx.x;
}

__global__ void read_past_the_end(const int* small, long long distance, int* large, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    out[0] = small[distance + 3];
  } else {
    large[3] = 7;
  }
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  if (std::strcmp(mode, "buffer") == 0) {
    int* buffer = nullptr;
    cudaMalloc(&buffer, 201 * sizeof(int));
    store_to_buffer<<<2, 32>>>(buffer);
    cudaDeviceSynchronize();
    cudaFree(buffer);
  } else if (std::strcmp(mode, "variable") == 0) {
    store_to_variable<<<2, 32>>>();
    cudaDeviceSynchronize();
  } else if (std::strcmp(mode, "overflow") == 0) {
    int *small = nullptr, *large = nullptr, *out = nullptr;
    cudaMalloc(&small, 1024);
    cudaMalloc(&large, 4096);
    cudaMalloc(&out, sizeof(int));
    read_past_the_end<<<2, 32>>>(small, large - small, large, out);
    cudaDeviceSynchronize();
    cudaFree(out);
    cudaFree(large);
    cudaFree(small);
  } else {
    std::fprintf(stderr, "usage: %s buffer|variable|overflow\n", argv[0]);
    return 2;
  }
  const cudaError_t status = cudaGetLastError();
  std::printf("%s: %s\n", mode, cudaGetErrorString(status));
  return status == cudaSuccess ? 0 : 1;
}
