#pragma once
// The names of the block orders in options and reports.
#include <array>

#include "barracuda/block_order.h"
#include "options/named_enum.h"

namespace barracuda {

inline constexpr std::array<NamedValue<BlockOrder>, 3> kBlockOrderNames{{
    {BlockOrder::kNatural, "natural"},
    {BlockOrder::kReverse, "reverse"},
    {BlockOrder::kShuffle, "shuffle"},
}};

}  // namespace barracuda
