#pragma once
// The shim's NCCL wrappers: what a collective orders between the GPUs of one process. NCCL's kernels are
// library code that barracuda does not check (runtime/library_code.h), but a collective joins its
// participants' streams: the work each issues after it runs after the work every participant issued
// before it. The wrappers announce each communicator made (with the clique it belongs to) and each
// collective (with its stream) to the sync observers; runtime/stream_tracker.h matches them.
// NCCL reaches the application two ways, both covered: linked (the preload library exports the entry
// points below under NCCL's names) and opened with dlopen (the shim's dlsym returns the same wrappers).
// One NCCL library per process.
#include <string_view>

namespace barracuda::shim {

// The part of nccl.h (NCCL 2.x ABI) the wrappers need: NCCL's headers are not required to build.
namespace nccl {
using Result = int;
using Comm = void*;  // ncclComm_t
struct UniqueId {    // ncclUniqueId, passed by value
  char internal[128];
};
constexpr Result kSuccess = 0;
}  // namespace nccl

// Whether the shim wraps this NCCL export.
bool is_wrapped_nccl_symbol(std::string_view name);

// The wrapper to return from dlsym for `real`, NCCL's `name`; null when the process's NCCL was already
// found elsewhere with another definition (the real one is then used, unobserved).
void* nccl_wrapper_for(std::string_view name, void* real);

}  // namespace barracuda::shim
