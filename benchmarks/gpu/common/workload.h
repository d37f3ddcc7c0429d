// The contract between one GPU workload and the shared driver (main.cu). Each workload .cu defines
// `workload_name` and `run_workload`; the driver parses the command line, skips (exit 77) when no GPU is
// present, and prints the one line the harness parses:
//
//   RESULT <name> ok <gpu_ms>        exit 0
//   RESULT <name> FAIL <gpu_ms>      exit 1, preceded by a line saying what was wrong
#pragma once

#include <string>

namespace bench {

struct Options {
  // Multiplies the amount of GPU work (the repetition count); 1 sizes every workload to >= 100 ms on an
  // H100, small values (0.01) give a quick functional check.
  double scale = 1.0;
};

struct Outcome {
  float gpu_ms = 0;     // GPU work only, measured with CUDA events around the timed region
  std::string failure;  // empty when the result matched its reference
};

// The workload's repetition count at this scale: never below one.
int scaled_repetitions(int at_full_scale, const Options& options);

extern const char* const workload_name;
Outcome run_workload(const Options& options);

}  // namespace bench
