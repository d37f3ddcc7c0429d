// Block-order permutation (option block_order), end to end.
//   e2e_block_order handoff   the last block publishes a value (plain store, then a relaxed flag) 5 ms
//                             after it starts; every block that finds the flag set when it starts reads
//                             the value: a race, but only blocks that start after the publisher read.
//                             One block per SM, four waves of 10 ms: in the natural order the publisher
//                             starts last of all, after every other block made its check, so no block
//                             reads; in the reverse order it is in the first wave, and three waves read.
//   e2e_block_order grid3d    every block of a 3-D grid of odd sizes writes its own slot: the output
//                             is the same in any block order exactly when the order is a bijection.
#include <cstdio>
#include <cstring>
#include <vector>

__device__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Sleeps, so that the wait logs a few records, not millions: queues that fill up would hold blocks
// back at their start and blur the order they start in.
__device__ void wait_ns(unsigned long long ns) {
  const unsigned long long start = now_ns();
  while (now_ns() - start < ns) __nanosleep(200'000);
}

__global__ void handoff(int* value, int* published, int* seen) {
  extern __shared__ int keep_one_block_per_sm[];
  if (threadIdx.x == 0) {
    keep_one_block_per_sm[0] = 0;
    if (blockIdx.x == gridDim.x - 1) {
      wait_ns(5'000'000);
      *value = 42;  // WRITE
      atomicExch(published, 1);
    } else if (atomicAdd(published, 0) != 0) {
      seen[blockIdx.x] = *value;  // READ
    }
  }
  wait_ns(10'000'000);  // the next wave starts after this one
  __syncthreads();
}

__global__ void own_slot(int* slots) {
  if (threadIdx.x != 0) return;
  const int linear = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  atomicAdd(&slots[linear], linear + 1);
}

int main(int argc, char** argv) {
  const bool grid3d = argc > 1 && std::strcmp(argv[1], "grid3d") == 0;
  if (grid3d) {
    const dim3 grid(7, 5, 3);
    const int blocks = 7 * 5 * 3;
    int* slots = nullptr;
    cudaMalloc(&slots, blocks * sizeof(int));
    cudaMemset(slots, 0, blocks * sizeof(int));
    own_slot<<<grid, 32>>>(slots);
    std::vector<int> host(blocks);
    cudaMemcpy(host.data(), slots, blocks * sizeof(int), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < blocks; ++i) wrong += host[i] != i + 1;
    std::printf("grid3d: %d of %d slots wrong\n", wrong, blocks);
    return wrong == 0 ? 0 : 1;
  }
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const int shared_bytes = 160 << 10;  // more than half an SM's shared memory: one block per SM
  cudaFuncSetAttribute(handoff, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes);
  int *value = nullptr, *published = nullptr, *seen = nullptr;
  cudaMalloc(&value, sizeof(int));
  cudaMalloc(&published, sizeof(int));
  cudaMalloc(&seen, 4 * sms * sizeof(int));
  cudaMemset(value, 0, sizeof(int));
  cudaMemset(published, 0, sizeof(int));
  handoff<<<4 * sms, 128, shared_bytes>>>(value, published, seen);
  const cudaError_t done = cudaDeviceSynchronize();
  std::printf("handoff: %s\n", cudaGetErrorName(done));  // how many blocks read depends on the order
  return done == cudaSuccess ? 0 : 1;
}
