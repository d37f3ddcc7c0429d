#pragma once
// How report values are spelled in text, shared by the text and SARIF renderers and the JSON schema.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "report/model.h"

namespace barracuda::report {

// "0x7f3a00001000". The JSON schema stores addresses this way too: 64-bit integers do not survive
// JavaScript's doubles.
std::string address_text(uint64_t address);

// Accepts exactly "0x" followed by 1 to 16 hex digits.
std::optional<uint64_t> parse_address_text(std::string_view text);

// "(3,0,0)"
std::string coord_text(const Coord3& d);

// "kernel.cu:12:5"
std::string source_location_text(const SourceLocation& location);

// "kernel.cu:12" with line info, "PTX line 57" without.
std::string site_position_text(const Site& site);

// The fence of `scope` as CUDA C++ spells it ("__threadfence()" for kGpu), or as PTX where CUDA has
// no function for it ("fence.acq_rel.cluster").
std::string fence_text(MemoryScope scope);

// A C++ symbol as source spells it ("ns::counter" for "_ZN2ns7counterE"); other names unchanged.
std::string demangled(const std::string& symbol);

// Where a race's `access_bytes` at `address` lie, for the "Memory:" line of the text report and the
// SARIF message: "4 bytes at offset 0x10 of a 804-byte allocation at 0x7f3a00001000 (cudaMalloc from
// main+0x1c (app))", "... of the 4-byte __device__ variable counter at ...", "shared memory of block
// (2,1,0), offset 0x80", "0x7f3a00001000 is not in any allocation barracuda saw".
std::string allocation_text(const Allocation& allocation, uint32_t access_bytes, uint64_t address);
// "the address comes from parameter 1 (int const*) of the kernel, which points into a 804-byte
// allocation at 0x...; it lies 4 bytes past that allocation's end".
std::string out_of_bounds_text(const OutOfBounds& out_of_bounds, uint64_t address);
// The type of parameter `index` in a kernel's mangled name ("_Z6gatherPKiPi", 0 -> "int const*"),
// or empty when the name does not demangle to a parameter list that long.
std::string kernel_parameter_type(const std::string& mangled_kernel, uint32_t index);

}  // namespace barracuda::report
