// Schedule perturbation (option perturb, barracuda run --explore), end to end. Two blocks take a ticket;
// the block that gets ticket 0 writes the value, and block 0, when it was not first, reads it: there
// is no release/acquire between them (a relaxed ticket), so that read races with the write, but only
// in the runs where block 1 takes its ticket first. Block 1 waits 3 us before its ticket, so in a
// plain run block 0 is first and nothing is read; under --explore some seeds delay block 0's ticket
// (a nanosleep of 0.5-33 us) past block 1's, and the race shows with the seed that found it.
#include <cstdio>

// A wait of a fixed length (the global timer, not __nanosleep, which may sleep anywhere from nothing
// to twice what it is asked), logging nothing.
__device__ void wait_ns(unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

__global__ void first_arriver(int* value, int* ticket, int* seen) {
  if (threadIdx.x != 0) return;
  // 3 us: with 8 us, 24 seeds found the race once in one run on the H200 and never in another (the
  // delays before an atomic are 0.5-33 us at one point in four).
  if (blockIdx.x == 1) wait_ns(3000);
  const int arrival = atomicAdd(ticket, 1);
  if (arrival == 0) {
    *value = 42 + static_cast<int>(blockIdx.x);  // WRITE
  } else if (blockIdx.x == 0) {
    seen[0] = *value;  // READ
  }
}

int main() {
  int* buffers = nullptr;
  if (cudaMalloc(&buffers, 3 * sizeof(int)) != cudaSuccess) return 1;
  cudaMemset(buffers, 0, 3 * sizeof(int));
  first_arriver<<<2, 32>>>(buffers, buffers + 1, buffers + 2);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("first arriver: CUDA error\n");
    return 1;
  }
  std::printf("first arriver: done\n");  // which block was first is timing: not printed
  return 0;
}
