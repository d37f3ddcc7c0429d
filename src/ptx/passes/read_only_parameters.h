#pragma once
// The pointer parameters a kernel only reads through. Loads through them cannot race with any
// access of the same launch, provided no other parameter points into the same allocation (the
// runtime checks that per launch, and that no other launch can run beside it), so they need not be
// logged: a matrix every block reads, a graph's edge list. The instrumentation marks such loads with
// kAccessReadOnlyParameter and the device drops them in launches the host allows it for.
//
// Sound only when every write of global memory the kernel can execute is accounted for: each
// st/atom/red of global or generic memory must have an address address_parameters() derives from a
// parameter (those parameters are written, not read-only), and nothing else in the kernel may write
// global memory: bulk and tensor copies to global, multimem, tensormap.replace, surface stores,
// wmma stores, discard, a call (a device function that was not inlined: its writes are not followed)
// and any opcode the IR does not know make the kernel have none.
#include <cstdint>
#include <unordered_map>
#include <unordered_set>

#include "ptx/function.h"

namespace barracuda::ptx::passes {

// `origins`: address_parameters(kernel). Empty for a .func or where some write is not accounted for.
std::unordered_set<uint32_t> read_only_parameters(const Function& kernel,
                                                  const std::unordered_map<const Instruction*, uint32_t>& origins);

}  // namespace barracuda::ptx::passes
