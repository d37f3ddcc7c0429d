#pragma once
// How the engine orders the instructions of one warp (BRIEF section 4).
#include <array>

#include "options/named_enum.h"

namespace barracuda {

enum class WarpModel {
  kIndependent,  // independent thread scheduling (sm_70+): only warp syncs, barriers and fences order lanes
  kLockstep,     // BARRACUDA's model: a warp executes in lockstep, branches reconverge at post-dominators
};

inline constexpr std::array<NamedValue<WarpModel>, 2> kWarpModelNames{{
    {WarpModel::kIndependent, "its"},
    {WarpModel::kLockstep, "lockstep"},
}};

}  // namespace barracuda
