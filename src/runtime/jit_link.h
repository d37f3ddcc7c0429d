#pragma once
// Compiles instrumented PTX to a cubin in-process with nvJitLink (works without a GPU), linking the
// device logging runtime's PTX into the application's PTX in the same step. The shim and the tests
// that check instrumented PTX both link through here.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace barracuda::runtime {

class JitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class LinkInputKind : uint8_t {
  kPtx,
  kObject,   // relocatable cubin (ptxas -c)
  kLibrary,  // static library of objects (libcudadevrt.a)
};

struct LinkInput {
  std::string_view name;  // shown in nvJitLink's error log
  std::string_view text;  // PTX source without a trailing NUL, or the object's bytes
  LinkInputKind kind = LinkInputKind::kPtx;
  // For an object: its PTX, compiled instead when the module needs a register cap below the object's.
  std::string_view ptx_fallback = {};
};

struct JitRequest {
  std::vector<LinkInput> inputs;  // linked together (relocatable device code)
  // nvJitLink's -arch: "sm_90", or "sm_90a" for PTX that uses arch-specific features (wgmma, setmaxnreg).
  std::string arch = "sm_90";
  std::vector<std::string> ptxas_options;  // from the fat-binary entry's options block ("--generate-line-info")
};

struct LinkedCubin {
  std::vector<char> cubin;
  // Non-zero when a kernel's register limit (.maxnreg, launch bounds) is below what the runtime's entry
  // points use: nvJitLink refuses that call, so the module was relinked with -maxrregcount=<the lowest
  // such limit>, which makes ptxas spill in the runtime and caps the module's other kernels too.
  uint32_t register_cap = 0;
};

// The embedded device runtime (device/runtime_ptx.h) as a link input for `arch`: the register-capped
// sm_90 object for sm_90 and sm_90a, its PTX for other architectures.
LinkInput device_runtime_input(std::string_view arch);

// ptxas's compilation of one module spread over every core.
inline constexpr std::string_view kParallelPtxas = "-Xptxas=--split-compile=0";

// The options passed to nvJitLink: the architecture, the register cap when non-zero, kParallelPtxas,
// then each ptxas option forwarded with -Xptxas (nvJitLink rejects ptxas spellings such as
// --generate-line-info).
std::vector<std::string> jit_options(const JitRequest& request, uint32_t register_cap = 0);

// Link-time-optimisation IR (NVRTC's or nvcc's -dlto output) linked and optimised into one PTX module
// for `arch` (nvJitLink -lto -ptx): a JIT link of LTO-IR carries no PTX to instrument until then.
// Throws JitError with nvJitLink's log when it fails.
std::string lto_ir_to_ptx(const std::vector<std::string>& lto_ir, std::string_view arch);

// Links and compiles; when a kernel's register limit is below a callee's, relinks once with that cap
// (objects replaced by their PTX fallback, which is then compiled under it). Throws JitError carrying
// nvJitLink's error log when it fails.
LinkedCubin link_to_cubin(const JitRequest& request);

}  // namespace barracuda::runtime
