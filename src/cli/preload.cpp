#include "cli/preload.h"

#include <unistd.h>

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

TemporaryReport::TemporaryReport(bool wanted) {
  if (!wanted) return;
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/barracuda-report-XXXXXX";
  int fd = mkstemp(pattern.data());
  if (fd < 0) return;
  close(fd);
  // The library writes the report at exit; an empty file left here would read as a broken report.
  unlink(pattern.c_str());
  path_ = pattern;
}

TemporaryReport::~TemporaryReport() {
  if (!path_.empty()) unlink(path_.c_str());
}

}  // namespace barracuda::cli
