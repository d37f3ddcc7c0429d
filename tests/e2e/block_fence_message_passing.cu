// Message passing between two blocks ordered only by __threadfence_block(): the data race is scoped
// (the fences' scope does not cover the other block). `barracuda harden` proposes device fences after
// the write and before the read, and a run with `--harden` checks the program as if they were in its
// source: no race (e2e_harden_fences_block_message_passing).
#include <cstdio>

__global__ void pass_message(int* data, int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    data[0] = 42;  // the write harden puts a device fence after
    __threadfence_block();
    atomicExch(flag, 1);
  } else {
    while (atomicAdd(flag, 0) == 0) {
    }
    __threadfence_block();
    out[0] = data[0];  // the read harden puts a device fence before
  }
}

int main() {
  int* buffers = nullptr;
  cudaMalloc(&buffers, 3 * sizeof(int));
  cudaMemset(buffers, 0, 3 * sizeof(int));
  pass_message<<<2, 32>>>(buffers, buffers + 1, buffers + 2);
  // The value itself may be the weak outcome natively: only whether the kernel ran is printed.
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("message passing: CUDA error\n");
    return 1;
  }
  std::printf("message passing: done\n");
  return 0;
}
