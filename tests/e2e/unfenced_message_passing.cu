// Message passing between two blocks through a flag with no fence on either side (`volatile`, or
// relaxed PTX accesses): the data race stays a race, and the report names the flag that handed it
// over. `barracuda harden` proposes a device fence before the flag's store and one after its load, and
// a run with `--harden` checks the program as if they were in its source: no race
// (e2e_harden_fences_unfenced_message_passing_*).
#include <cstdio>
#include <cstring>

__device__ void store_flag(int* flag, bool relaxed) {
  if (relaxed) {
    asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(flag), "r"(1) : "memory");  // the flag's store
  } else {
    *static_cast<volatile int*>(flag) = 1;  // the flag's store
  }
}

__device__ int load_flag(int* flag, bool relaxed) {
  int value;
  if (relaxed) {
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(value) : "l"(flag) : "memory");
  } else {
    value = *static_cast<volatile int*>(flag);
  }
  return value;
}

__global__ void pass_message(int* data, int* flag, int* out, bool relaxed) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    data[0] = 42;  // the data's write
    store_flag(flag, relaxed);
  } else {
    while (load_flag(flag, relaxed) == 0) {
    }
    out[0] = data[0];  // the data's read
  }
}

int main(int argc, char** argv) {
  const bool relaxed = argc > 1 && std::strcmp(argv[1], "relaxed") == 0;
  int* buffers = nullptr;
  cudaMalloc(&buffers, 3 * sizeof(int));
  cudaMemset(buffers, 0, 3 * sizeof(int));
  pass_message<<<2, 32>>>(buffers, buffers + 1, buffers + 2, relaxed);
  // The value itself may be the weak outcome natively: only whether the kernel ran is printed.
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("message passing: CUDA error\n");
    return 1;
  }
  std::printf("message passing: done\n");
  return 0;
}
