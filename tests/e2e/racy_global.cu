// End-to-end fixture: blocks 0 and 1 both write out[0] with no synchronisation (inter-block WAW race
// in global memory); every thread also writes its own slot (no race). Prints the values it read back.
#include <cstdio>

__global__ void write_shared_slot(int* out) {
  out[1 + blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;  // own slot: race-free
  if (threadIdx.x == 0) out[0] = blockIdx.x;                    // RACE: every block writes out[0]
}

int main() {
  int* out = nullptr;
  const int blocks = 2, threads = 64;
  cudaMalloc(&out, sizeof(int) * (1 + blocks * threads));
  write_shared_slot<<<blocks, threads>>>(out);
  int host[3] = {};
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("racy_global: %s, slot1=%d slot2=%d\n", cudaGetErrorString(err), host[1], host[2]);
  cudaFree(out);
  return err == cudaSuccess ? 0 : 1;
}
