#pragma once
// How the engine orders the instructions of one warp (BRIEF section 4). Shared by the options, the
// engine and the report.
#include <cstdint>

namespace barracuda {

enum class WarpModel : uint8_t {
  // sm_70+ independent thread scheduling: lanes are independent threads; only bar.warp.sync, block
  // barriers and release/acquire order them. The default.
  kIndependent,
  // BARRACUDA's model: a warp executes in lockstep; each instruction is ordered after the previous
  // one of every active lane; divergent branch paths are unordered until they reconverge.
  kLockstep,
};

}  // namespace barracuda
