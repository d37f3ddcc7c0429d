// cudaDeviceReset between racy launches, several times in one process (argument: the number of
// cycles, 6 by default). Each reset destroys the primary context that holds the tool's queues and its
// launch-completion events, and the next primary context may get the destroyed one's handle: an event
// of the old context handed to a launch in the new one crashed the driver (cuEventRecord,
// cuEventDestroy) or never completed (the suite's host/device_reset on the H200, 16 of 40 runs five at
// a time crashed, 13 hung).
#include <cstdio>
#include <cstdlib>

__global__ void fill(int* x) { x[0] = blockIdx.x; }  // RACE: every block writes x[0]

int main(int argc, char** argv) {
  const int cycles = argc > 1 ? std::atoi(argv[1]) : 6;
  int last = -1;
  for (int cycle = 0; cycle < cycles; ++cycle) {
    int* x = nullptr;
    if (cudaMalloc(&x, sizeof(int)) != cudaSuccess) return 1;
    fill<<<2, 32>>>(x);
    if (cudaMemcpy(&last, x, sizeof last, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
    if (cudaDeviceReset() != cudaSuccess) return 1;
  }
  std::printf("device_reset_cycles: %d cycles, last value %s\n", cycles, last == 0 || last == 1 ? "a block's" : "wrong");
  return 0;
}
