#include "cli/preload.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <vector>

namespace barracuda::cli {
namespace {

constexpr const char* kLibraryName = "libbarracuda.so";

std::vector<std::filesystem::path> search_dirs() {
  std::error_code ec;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  std::filesystem::path bin = exe.parent_path();
  return {bin.parent_path() / "lib", bin};
}

}  // namespace

std::optional<std::filesystem::path> find_preload_library() {
  for (const auto& dir : search_dirs()) {
    std::filesystem::path candidate = dir / kLibraryName;
    if (std::filesystem::exists(candidate)) return candidate;
  }
  return std::nullopt;
}

std::string preload_search_dirs_text() {
  std::string text;
  for (const auto& dir : search_dirs()) text += (text.empty() ? "" : ", ") + dir.string();
  return text;
}

std::string preload_value(const std::filesystem::path& library, const char* existing) {
  std::string value = library.string();
  if (existing && *existing) value += std::string(":") + existing;
  return value;
}

TemporaryDirectory::TemporaryDirectory() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/barracuda-run-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    throw std::filesystem::filesystem_error("cannot make a temporary directory", pattern,
                                            std::error_code(errno, std::generic_category()));
  }
  path_ = pattern;
}

TemporaryDirectory::~TemporaryDirectory() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace barracuda::cli
