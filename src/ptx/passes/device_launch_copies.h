#pragma once
// Dynamic parallelism (docs/dynamic_parallelism.md): a kernel the module launches from the device runs
// as a child grid inside its parent's launch. Each such kernel gets a copy, BARRACUDA_CHILD_KERNEL_PREFIX
// and its name, with one more parameter, the child token (barracuda/device_launch.h), and every
// device-side reference to the kernel (the function pointer handed to the CUDA device runtime) is
// pointed at the copy. The instrumentation then logs the copy's entry with the token
// (kernel_lifetime_pass.cpp) and each launch's token and launch record (device_launch_pass.cpp); the
// functions the copy calls are the kernel's own, instrumented once.
//
// Where a launch cannot be followed (a function pointer that does not come from a kernel's symbol in
// the same function, a parameter whose size is not known), the module falls back to copies under
// kUncheckedPrefix, which the passes leave uninstrumented like the device runtime's own functions,
// and whose child grids run unchecked (the run says so).
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ptx/module.h"

namespace barracuda::ptx::passes {

inline constexpr std::string_view kUncheckedPrefix = "__barracuda_unchecked_";
inline constexpr std::string_view kGetParameterBuffer = "__cudaCDP2GetParameterBufferV2";
inline constexpr std::string_view kLaunchDevice = "__cudaCDP2LaunchDeviceV2";

// Whether the module calls the CUDA device runtime to launch kernels (CUDA 12+ names those
// __cudaCDP2LaunchDeviceV2, __cudaCDP2GetParameterBufferV2, ...; older PTX cudaLaunchDevice and
// cudaGetParameterBuffer): it must then be linked with libcudadevrt.
bool launches_from_the_device(const Module& module);

struct DeviceLaunchedKernels {
  std::vector<std::string> kernels;  // the kernels launched from the device (none: the module is unchanged)
  bool checked = false;              // their child grids are checked (else they run unchecked copies)
};
DeviceLaunchedKernels copy_device_launched_kernels(Module& module);

// The byte offset of each checked child copy's token parameter in its parameter buffer, by copy name.
std::unordered_map<std::string_view, uint32_t> child_token_offsets(const Module& module);

// Call sequences of the device runtime (`{ .param ...; st.param [param0+0], %rd5; ...; call ...; }`).
// Whether `call` calls `callee`.
bool calls(const Instruction& call, std::string_view callee);
// The value the sequence around `call` stores into `[paramN+offset]`.
std::optional<Operand> call_argument(StatementIterator call, const StatementList& body, int parameter, int64_t offset);
// The register the sequence around `call` loads its return value into.
std::optional<std::string_view> call_result(StatementIterator call, const StatementList& body);
// The registers `function` loads the parameter buffers of its launches from the device into.
std::unordered_set<std::string_view> parameter_buffer_registers(Function& function);
// The symbol `register_name` is given by its only definition, `mov.u64 register_name, symbol`.
std::optional<std::string_view> symbol_in_register(const Function& function, std::string_view register_name);

}  // namespace barracuda::ptx::passes
