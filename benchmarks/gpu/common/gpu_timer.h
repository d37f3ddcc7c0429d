// Times GPU work on the default stream with a pair of CUDA events.
#pragma once

#include <cuda_runtime.h>

#include "workload.h"

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

// The timed region of every workload: `work` queued the scaled repetition count of times, timed as a
// whole (launches are asynchronous, so per-repetition timing would add synchronisation).
template <typename Work>
float time_repetitions(int at_full_scale, const Options& options, Work&& work) {
  const int repetitions = scaled_repetitions(at_full_scale, options);
  GpuTimer timer;
  timer.start();
  for (int r = 0; r < repetitions; ++r) work();
  return timer.stop_ms();
}

}  // namespace bench
