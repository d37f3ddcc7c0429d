#pragma once
// Instructions that can read or write global or shared memory but that the passes do not log
// (ldmatrix, wmma and wgmma operands, surfaces, tensor copies, multimem): races through them are not
// checked, so a run says which kinds its launched kernels hold, and a barrier whose interval may
// contain them is never called redundant. Texture reads and read-only loads are not listed: they
// read memory no thread writes during the launch (memory_access_pass.cpp says why).
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "ptx/module.h"

namespace barracuda::ptx::passes {

// The kind ("ldmatrix", "wmma.load", "sust", "cp.async.bulk.tensor"...) of an instruction that
// touches global or shared memory unlogged, or nullopt.
std::optional<std::string> unlogged_memory_kind(const Instruction& instruction);

// Instructions of each kind, per kernel of the module, counted over the kernel's call closure
// (an indirect call anywhere: over every function of the module). Kernels with none are absent.
using UnloggedMemory = std::map<std::string, std::map<std::string, uint64_t>>;  // kernel -> kind -> count
UnloggedMemory unlogged_memory_by_kernel(const Module& module);

}  // namespace barracuda::ptx::passes
