#pragma once
// Where `barracuda run` finds libbarracuda.so and how it composes LD_PRELOAD; a temporary report file.
#include <filesystem>
#include <optional>
#include <string>

namespace barracuda::cli {

// The library sits in ../lib next to bin/barracuda (build and install trees), or beside it.
std::optional<std::filesystem::path> find_preload_library();
std::string preload_search_dirs_text();

// Our library first (it must see dlsym before anyone caches driver pointers), then the user's own.
std::string preload_value(const std::filesystem::path& library, const char* existing);

class TemporaryReport {
 public:
  explicit TemporaryReport(bool wanted);
  ~TemporaryReport();
  TemporaryReport(const TemporaryReport&) = delete;
  TemporaryReport& operator=(const TemporaryReport&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace barracuda::cli
