#include "report/toolkit_headers.h"

#include <array>

namespace barracuda::report {
namespace {

// Directory names the toolkit's headers live under in every installation layout (/usr/local/cuda-13.0,
// /usr/local/cuda/targets/x86_64-linux, conda's and pip's nvidia-* packages, a CCCL checkout).
constexpr std::array kToolkitDirectories{
    std::string_view{"/cuda/include/"},     std::string_view{"/targets/x86_64-linux/include/"},
    std::string_view{"/targets/sbsa-linux/include/"}, std::string_view{"/include/thrust/"},
    std::string_view{"/include/cub/"},      std::string_view{"/include/cuda/"},
    std::string_view{"/include/cccl/"},     std::string_view{"/include/cooperative_groups"},
    std::string_view{"/nvidia/cuda_runtime/include/"}, std::string_view{"/nvidia/cuda_cccl/include/"},
};

}  // namespace

bool in_toolkit_headers(std::string_view path) {
  for (std::string_view directory : kToolkitDirectories) {
    if (path.find(directory) != std::string_view::npos) return true;
  }
  // /usr/local/cuda-13.0/include/..., /opt/cuda-12.4/include/...: "cuda-" and a version number.
  for (size_t at = path.find("/cuda-"); at != std::string_view::npos; at = path.find("/cuda-", at + 1)) {
    const size_t version = at + 6;
    if (version < path.size() && path[version] >= '0' && path[version] <= '9' &&
        path.find("/include/", version) != std::string_view::npos) {
      return true;
    }
  }
  return false;
}

}  // namespace barracuda::report
