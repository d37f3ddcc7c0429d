#pragma once
// Random, seeded, reproducible launches for the differential test: a few blocks of one or two
// warps doing loads, stores, atomics and reductions with every semantics and scope, fences, warp
// syncs, block barriers, branches and early exits, on a handful of overlapping addresses.
#include <cstdint>
#include <vector>

#include "barracuda/record.h"
#include "engine/launch.h"

namespace barracuda::engine::test {

struct RandomTrace {
  LaunchInfo launch;
  std::vector<RecordHeader> records;  // in the order the GPU would have logged them (affine mode)
};

RandomTrace make_random_trace(uint64_t seed);

}  // namespace barracuda::engine::test
