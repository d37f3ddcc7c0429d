#include "gpu_timer.h"

#include "cuda_check.h"

namespace bench {

GpuTimer::GpuTimer() {
  check(cudaEventCreate(&begin_), "cudaEventCreate");
  check(cudaEventCreate(&end_), "cudaEventCreate");
}

GpuTimer::~GpuTimer() {
  cudaEventDestroy(begin_);
  cudaEventDestroy(end_);
}

void GpuTimer::start() { check(cudaEventRecord(begin_), "cudaEventRecord"); }

float GpuTimer::stop_ms() {
  check(cudaEventRecord(end_), "cudaEventRecord");
  check(cudaEventSynchronize(end_), "timed GPU work");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, begin_, end_), "cudaEventElapsedTime");
  return ms;
}

}  // namespace bench
