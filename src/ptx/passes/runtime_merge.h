#pragma once
// Puts the device runtime's definitions into an instrumented module, in place of the `.extern`
// prototypes instrument_module declared, so ptxas compiles runtime and kernels as one program.
// Compiled apart (nvJitLink of two relocatable modules), __barracuda_log_access needs about 91
// registers on sm_90, and so does every kernel calling it; compiled together as one program (ptxas
// without -c, or the driver JIT), the instrumented test kernels need 39-44 (docs/device.md).
#include "ptx/module.h"

namespace barracuda::ptx::passes {

// `runtime` is the parsed device runtime PTX (device_runtime_ptx()); it must outlive `module`,
// whose new items point into its text. Raises `module`'s .version and .target to the runtime's if lower.
void merge_device_runtime(Module& module, const Module& runtime);

}  // namespace barracuda::ptx::passes
