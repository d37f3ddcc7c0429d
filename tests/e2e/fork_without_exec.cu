// A program that forks without exec after its kernels ran (a worker process, a daemon): the child
// does not use CUDA and exits through exit(), so atexit handlers run in it. The race the parent's
// kernel had is the parent's to report, once; the child must neither print nor write it again, nor
// hang on the tool's state it inherited.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

__global__ void racy_counter(int* counter) { if (threadIdx.x == 0) counter[0] = blockIdx.x; }

int main() {
  int* counter = nullptr;
  cudaMalloc(&counter, sizeof(int));
  cudaMemset(counter, 0, sizeof(int));
  racy_counter<<<2, 32>>>(counter);
  cudaDeviceSynchronize();
  std::fflush(stdout);
  const pid_t child = fork();
  if (child == 0) {
    std::printf("child: done\n");
    std::exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  std::printf("parent: child exited with %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return 0;
}
