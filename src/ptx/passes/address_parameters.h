#pragma once
// Which kernel parameter each memory access's address comes from: `p[i]` where `p` is a pointer the
// kernel received. With it, a race whose address lies outside the allocation that parameter points
// to can be reported as an out-of-bounds access through that parameter (report's out_of_bounds).
//
// Flow-insensitive over the kernel's registers, so a register counts only when every instruction
// that writes it derives it from one parameter: `ld.param.u64` of the parameter, then moves, `cvta`,
// and adds or multiply-adds of an offset to it (nvcc's `mul.wide` + `add.s64` and `mad.wide`
// address arithmetic). Anything else that writes a register, or two parameters meeting in one,
// leaves it without an origin. Device functions are not followed (their parameters are not the
// kernel's; nvcc inlines most of them anyway).
#include <cstdint>
#include <unordered_map>

#include "ptx/function.h"

namespace barracuda::ptx::passes {

// Memory instructions of `kernel` (ld, st, atom, red on global or generic addresses) -> the index of
// the parameter their address derives from. Empty for a .func.
std::unordered_map<const Instruction*, uint32_t> address_parameters(const Function& kernel);

}  // namespace barracuda::ptx::passes
