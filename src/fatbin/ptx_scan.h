#pragma once
// A line-level look at PTX text: enough to name its kernels and target without parsing it (the PTX
// parser proper lives in src/ptx).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fatbin/entry.h"

namespace barracuda::fatbin {

// Names of the kernels (.entry directives) defined in `ptx`, in order of definition.
std::vector<std::string> ptx_kernels(std::string_view ptx);

// From the `.version X.Y` directive.
std::optional<IsaVersion> ptx_isa_version(std::string_view ptx);

// From the first target of the `.target sm_XX[a|f]` directive.
std::optional<SmArch> ptx_target(std::string_view ptx);

}  // namespace barracuda::fatbin
