// End-to-end fixture for runs that are stopped: a racy kernel (blocks 0 and 1 both write out[0]), then
// the host waits far longer than any test allows. `barracuda run --timeout` must stop it and the report
// must still hold the race the finished launch showed.
// `racy_then_wait spin`: the wait is a kernel that never ends (it spins on a flag nobody sets, logging
// its loads all along) and the host's cudaDeviceSynchronize on it.
#include <unistd.h>

#include <cstdio>
#include <cstring>

__global__ void write_first_slot(int* out) {
  if (threadIdx.x == 0) out[0] = blockIdx.x;  // RACE: every block writes out[0]
}

__global__ void spin_forever(const volatile int* flag) {
  while (*flag == 0) {
  }
}

int main(int argc, char** argv) {
  int* out = nullptr;
  cudaMalloc(&out, 2 * sizeof(int));
  cudaMemset(out, 0, 2 * sizeof(int));
  write_first_slot<<<2, 32>>>(out);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("racy_then_wait: %s\n", cudaGetErrorString(err));
  std::fflush(stdout);
  if (argc > 1 && std::strcmp(argv[1], "spin") == 0) {
    spin_forever<<<1, 32>>>(out + 1);
    cudaDeviceSynchronize();  // never returns
  }
  sleep(600);
  return 0;
}
