// Times GPU work on the default stream with a pair of CUDA events.
#pragma once

#include <cuda_runtime.h>

namespace bench {

class GpuTimer {
 public:
  GpuTimer();
  ~GpuTimer();
  GpuTimer(const GpuTimer&) = delete;
  GpuTimer& operator=(const GpuTimer&) = delete;

  void start();
  // Waits for the work queued since start() and returns its duration.
  float stop_ms();

 private:
  cudaEvent_t begin_ = nullptr;
  cudaEvent_t end_ = nullptr;
};

}  // namespace bench
