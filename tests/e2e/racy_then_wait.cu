// End-to-end fixture for runs that are stopped: a racy kernel (blocks 0 and 1 both write out[0]), then
// the host waits far longer than any test allows. `barracuda run --timeout` must stop it and the report
// must still hold the race the finished launch showed.
#include <unistd.h>

#include <cstdio>

__global__ void write_first_slot(int* out) {
  if (threadIdx.x == 0) out[0] = blockIdx.x;  // RACE: every block writes out[0]
}

int main() {
  int* out = nullptr;
  cudaMalloc(&out, sizeof(int));
  write_first_slot<<<2, 32>>>(out);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("racy_then_wait: %s\n", cudaGetErrorString(err));
  std::fflush(stdout);
  sleep(600);
  return 0;
}
