#pragma once
// The names of the warp models in options, reports and SARIF.
#include <array>

#include "barracuda/warp_model.h"
#include "options/named_enum.h"

namespace barracuda {

inline constexpr std::array<NamedValue<WarpModel>, 2> kWarpModelNames{{
    {WarpModel::kIndependent, "its"},
    {WarpModel::kLockstep, "lockstep"},
}};

}  // namespace barracuda
