// CUDA runtime errors become exceptions carrying what was attempted; the driver prints them and exits 2.
#pragma once

#include <cuda_runtime.h>

namespace bench {

void check(cudaError_t status, const char* what);

// Checks the launch just made and, in the same call, that the kernel ran to completion.
void check_kernel(const char* kernel);

}  // namespace bench
