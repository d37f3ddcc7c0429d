#pragma once
// Dynamic parallelism: a kernel the module launches from the device runs as a child grid inside its
// parent's launch, and the engine cannot yet tell a child grid's records from its parent's (both
// would claim the same blocks). So each kernel launched from the device is copied, with every
// function it calls, under the prefix kUncheckedPrefix, which the passes leave uninstrumented like
// the device runtime's own functions, and every device-side reference to the kernel (the function
// pointer handed to the CUDA device runtime) is pointed at the copy. The kernel's host launches
// stay checked; its child grids run unchecked, and the run says so.
#include <string>
#include <string_view>
#include <vector>

#include "ptx/module.h"

namespace barracuda::ptx::passes {

inline constexpr std::string_view kUncheckedPrefix = "__barracuda_unchecked_";

// Whether the module calls the CUDA device runtime to launch kernels (CUDA 12+ names those
// __cudaCDP2LaunchDeviceV2, __cudaCDP2GetParameterBufferV2, ...; older PTX cudaLaunchDevice and
// cudaGetParameterBuffer): it must then be linked with libcudadevrt.
bool launches_from_the_device(const Module& module);

// Makes the copies and redirects the references; returns the names of the kernels launched from the
// device (none: the module is unchanged).
std::vector<std::string> copy_device_launched_kernels(Module& module);

}  // namespace barracuda::ptx::passes
