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
};

// `sm` is the target architecture number (90 for sm_90). Each module is named in error messages.
struct PtxModule {
  std::string_view name;
  std::string_view text;
};
LinkedCubin link_with_device_runtime(const std::vector<PtxModule>& modules, int sm);

}  // namespace barracuda
