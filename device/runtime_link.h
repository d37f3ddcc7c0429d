#pragma once
// Links PTX modules with the embedded device runtime into one cubin (nvJitLink, relocatable PTX):
// what the shim does to each instrumented module, and what CI uses to check instrumented PTX.
#include <string>
#include <string_view>
#include <vector>

namespace barracuda {

struct LinkedCubin {
  std::vector<char> cubin;  // empty when linking failed
  std::string error_log;    // nvJitLink's log when linking failed
  // Non-zero when a kernel's register limit (.maxnreg, or launch bounds) is below what the runtime's
  // entry points use: the whole link was then redone with -maxrregcount=<the lowest such limit>,
  // which makes ptxas spill in the runtime (and caps the module's other kernels too).
  uint32_t register_cap = 0;
};

struct PtxModule {
  std::string_view name;
  std::string_view text;
};
// `arch` is the target architecture ("sm_90", "sm_90a"). Each module is named in error messages.
LinkedCubin link_with_device_runtime(const std::vector<PtxModule>& modules, std::string_view arch);

}  // namespace barracuda
