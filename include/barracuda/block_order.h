#pragma once
// The order in which a checked kernel's logical blocks are handed to the hardware (option block_order):
// the instrumented code reads %ctaid through a bijection of each grid dimension, so block 0 of the
// program can start last. What the kernel computes is unchanged for kernels that assume no order.
#include <stdint.h>

namespace barracuda {

enum class BlockOrder : uint8_t {
  kNatural = 0,
  kReverse = 1,  // ctaid' = nctaid - 1 - ctaid in each dimension
  kShuffle = 2,  // ctaid' = (a * ctaid + b) mod nctaid, a a prime above any grid size, from the seed
};

}  // namespace barracuda
