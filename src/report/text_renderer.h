#pragma once
// The human-readable report, in ThreadSanitizer's shape with GPU coordinates:
//   WARNING: barracuda: data race (inter-block, global, write-write) in kernel foo
//     Write of size 4 at 0x... by thread (3,0,0) of block (1,0,0) (warp 0, lane 3):
//       #0 foo at kernel.cu:12:5 (PTX line 57)
//     Previous write of size 4 at 0x... by thread (0,0,0) of block (0,0,0) (warp 0, lane 0):
//       ...
//   SUMMARY: barracuda: data race kernel.cu:12 in foo
// followed by kernels that were not instrumented and one final summary line, always printed.
#include <cstdint>
#include <ostream>

#include "report/model.h"

namespace barracuda::report {

struct TextOptions {
  uint64_t print_limit = 0;  // races and diagnostics printed in full; 0 prints all
  bool summary_only = false;  // quiet=1: just the final summary line
};

void render_text(const Report& report, const TextOptions& options, std::ostream& out);

}  // namespace barracuda::report
