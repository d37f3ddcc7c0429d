#include "runtime/cuda_device_runtime_library.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <vector>

namespace barracuda::runtime {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> toolkit_roots() {
  std::vector<fs::path> roots;
  for (const char* variable : {"CUDA_HOME", "CUDA_PATH"}) {
    if (const char* value = std::getenv(variable); value && *value) roots.emplace_back(value);
  }
  if (const char* path = std::getenv("PATH")) {
    std::string_view rest = path;
    while (!rest.empty()) {
      const size_t colon = rest.find(':');
      const fs::path nvcc = fs::path(rest.substr(0, colon)) / "nvcc";
      std::error_code error;
      if (fs::is_regular_file(nvcc, error)) roots.push_back(fs::canonical(nvcc, error).parent_path().parent_path());
      rest = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
    }
  }
  roots.emplace_back("/usr/local/cuda");
  return roots;
}

std::optional<std::string> find_and_read() {
  for (const fs::path& root : toolkit_roots()) {
    for (const char* directory : {"lib64", "targets/x86_64-linux/lib", "targets/sbsa-linux/lib"}) {
      std::ifstream in(root / directory / "libcudadevrt.a", std::ios::binary);
      if (!in) continue;
      std::ostringstream bytes;
      bytes << in.rdbuf();
      return std::move(bytes).str();
    }
  }
  return std::nullopt;
}

}  // namespace

const std::optional<std::string>& cuda_device_runtime_library() {
  static const std::optional<std::string> library = find_and_read();
  return library;
}

}  // namespace barracuda::runtime
