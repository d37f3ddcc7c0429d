#pragma once
// PTX of shared_checkable_kernels.cu and global_checkable_kernels.cu, embedded at build time.
#include <string_view>

namespace barracuda {

std::string_view shared_checkable_kernels_ptx();
std::string_view global_checkable_kernels_ptx();

}  // namespace barracuda
