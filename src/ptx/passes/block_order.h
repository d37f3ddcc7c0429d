#pragma once
// Block-order permutation (option block_order): every read of %ctaid.{x,y,z} in the module's functions
// becomes a read through a bijection of that grid dimension, so the program's logical block b runs as
// whichever hardware block the bijection maps to it, and the logical blocks start in another order.
// What a kernel computes is unchanged unless it assumes an order of its blocks (a dispatch-order
// ticket, a "block 0 runs first" hand-off), which is what this exposes. The device runtime, linked
// after, keeps reading the hardware %ctaid, so records and reports name hardware blocks.
#include <cstdint>
#include <optional>
#include <string>

#include "barracuda/block_order.h"
#include "ptx/module.h"

namespace barracuda::ptx::passes {

// Rewrites the module; returns how many %ctaid reads it remapped, or why it left the module as it is
// (a module that reads cluster registers: ranks within a cluster follow the hardware block index).
struct BlockOrderResult {
  uint64_t remapped_reads = 0;
  std::optional<std::string> declined;
};
BlockOrderResult permute_block_order(Module& module, BlockOrder order, uint64_t seed);

}  // namespace barracuda::ptx::passes
