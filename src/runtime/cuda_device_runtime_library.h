#pragma once
// libcudadevrt.a, the CUDA device runtime that kernels launching kernels from the device
// (dynamic parallelism) link against: found the way nvcc finds its toolkit.
#include <optional>
#include <string>

namespace barracuda::runtime {

// The library's bytes, read once per process: from $CUDA_HOME, $CUDA_PATH, the toolkit of the nvcc
// on $PATH, then /usr/local/cuda (lib64, then targets/<arch>-linux/lib). nullopt when none is found.
const std::optional<std::string>& cuda_device_runtime_library();

}  // namespace barracuda::runtime
