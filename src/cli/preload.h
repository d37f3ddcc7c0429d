#pragma once
// Where `barracuda run` finds libbarracuda.so and how it composes LD_PRELOAD; the temporary directory
// the processes of a run write their reports into.
#include <filesystem>
#include <optional>
#include <string>

namespace barracuda::cli {

// The library sits in ../lib next to bin/barracuda (build and install trees), or beside it.
std::optional<std::filesystem::path> find_preload_library();
std::string preload_search_dirs_text();

// Our library first (it must see dlsym before anyone caches driver pointers), then the user's own.
std::string preload_value(const std::filesystem::path& library, const char* existing);

// A fresh directory under $TMPDIR (or /tmp), removed with everything in it; throws
// std::filesystem::filesystem_error when it cannot be made.
class TemporaryDirectory {
 public:
  TemporaryDirectory();
  ~TemporaryDirectory();
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace barracuda::cli
