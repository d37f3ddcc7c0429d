#include "runtime/library_code.h"

namespace barracuda::runtime {

std::optional<std::string> library_code_in(std::string_view image) {
  // NCCL 2.19 and later name their kernels ncclDevKernel_*, earlier releases ncclKernel_*.
  if (image.find("ncclDevKernel") != std::string_view::npos || image.find("ncclKernel") != std::string_view::npos) {
    return "NCCL (its collectives' kernels; the order they give their streams is kept)";
  }
  return std::nullopt;
}

}  // namespace barracuda::runtime
