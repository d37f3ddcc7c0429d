// End-to-end fixture for runs that are stopped: a racy kernel (blocks 0 and 1 both write out[0]), then
// the host waits far longer than any test allows. `barracuda run --timeout` must stop it and the report
// must still hold the race the finished launch showed.
// `racy_then_wait spin`: the wait is a kernel that never ends (it spins on a flag nobody sets, logging
// its loads all along) and the host's cudaDeviceSynchronize on it.
// `racy_then_wait flood`: the wait is an endless stream of race-free launches, issued faster than the
// tool checks them.
#include <unistd.h>

#include <cstdio>
#include <cstring>

__global__ void write_first_slot(int* out) {
  if (threadIdx.x == 0) out[0] = blockIdx.x;  // RACE: every block writes out[0]
}

// Race-free: each thread doubles its own words of `data`, many records per launch.
__global__ void double_own_words(int* data, int words) {
  const int threads = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < words; i += threads) data[i] = data[i] * 2 + 1;
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
  if (argc > 1 && std::strcmp(argv[1], "flood") == 0) {
    // Launches without end, faster than they can be checked: the application's thread spends its
    // time waiting inside the tool's launch hook when the signal comes.
    constexpr int kWords = 1 << 24;
    int* data = nullptr;
    cudaMalloc(&data, kWords * sizeof(int));
    for (;;) double_own_words<<<1024, 256>>>(data, kWords);
  }
  sleep(600);
  return 0;
}
