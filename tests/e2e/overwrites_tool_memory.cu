// A program whose store lands in barracuda's own queue state between two launches (here on purpose:
// it looks up the instrumented module's `__barracuda_queues` pointer, which exists only under the tool,
// and overwrites the magic number it points to; natively it finds nothing and writes nothing). The
// tool must say its analysis is incomplete rather than trust that state, put it back, and check the
// launches after it as usual. Output and exit status are the same as natively.
#include <cuda.h>

#include <cstdio>

__global__ void add_one(int* data) { data[threadIdx.x] += 1; }

int main() {
  int* data = nullptr;
  cudaMalloc(&data, 32 * sizeof(int));
  cudaMemset(data, 0, 32 * sizeof(int));
  add_one<<<1, 32>>>(data);
  cudaDeviceSynchronize();

  cudaFunction_t function = nullptr;
  CUmodule module = nullptr;
  CUdeviceptr queues_global = 0;
  size_t bytes = 0;
  if (cudaGetFuncBySymbol(&function, reinterpret_cast<const void*>(add_one)) == cudaSuccess &&
      cuFuncGetModule(&module, reinterpret_cast<CUfunction>(function)) == CUDA_SUCCESS &&
      cuModuleGetGlobal(&queues_global, &bytes, module, "__barracuda_queues") == CUDA_SUCCESS) {
    CUdeviceptr producers = 0;
    cuMemcpyDtoH(&producers, queues_global, sizeof(producers));
    if (producers != 0) cuMemsetD32(producers, 0, 1);  // the magic number: the GPU never reads it
  }

  add_one<<<1, 32>>>(data);  // logged with the overwritten state: reported as not fully checked
  add_one<<<1, 32>>>(data);  // after the repair
  int host[32] = {};
  const cudaError_t status = cudaMemcpy(host, data, sizeof host, cudaMemcpyDeviceToHost);
  std::printf("%s: data[0] = %d, data[31] = %d\n", cudaGetErrorString(status), host[0], host[31]);
  return status == cudaSuccess ? 0 : 1;
}
