#pragma once
// The fake driver's one kernel, "marker": out[i] = the module's marker + i for every thread i, where
// `out` (a CUdeviceptr, the kernel's only parameter) is host memory.
#include <cuda.h>

CUresult run_fake_kernel(CUfunction function, unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,
                         unsigned block_y, unsigned block_z, void** params);
