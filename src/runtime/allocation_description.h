#pragma once
// An AllocationRecord as the report names it: host frames symbolized (dladdr, only now that a race
// needs them) and variable names demangled.
#include <cstdint>
#include <optional>

#include "report/model.h"
#include "runtime/allocation_map.h"

namespace barracuda::runtime {

// Where `address` lies: in `record`, or (nullopt) in no allocation barracuda saw.
report::Allocation describe_allocation(const std::optional<AllocationRecord>& record, uint64_t address);

// A host frame: "main+0x1c (app)" where the object exports a symbol for the address, "app+0x11a4"
// (the offset in the object, for addr2line) where it does not.
std::string host_frame_text(const void* return_address);

}  // namespace barracuda::runtime
