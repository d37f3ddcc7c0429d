#pragma once
// Content-addressed cache of compiled cubins: compiling a large instrumented module takes the driver or
// nvJitLink 20-30 s, so each result is kept on disk under a key that hashes everything the output
// depends on. Safe for concurrent processes: entries are written whole to a temporary file, flushed to
// disk and renamed. An entry carries its size and checksum: a truncated or damaged one is a miss, and
// the next store replaces it.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/jit_link.h"

namespace barracuda::runtime {

// 128-bit key in hex: tool version, record format, architecture, options and every input's text.
std::string cache_key(const JitRequest& request, std::string_view tool_version);

// $XDG_CACHE_HOME/barracuda, else $HOME/.cache/barracuda (the default when no cache_dir option is set).
std::filesystem::path default_cache_dir();

class CubinCache {
 public:
  explicit CubinCache(std::filesystem::path dir) : dir_(std::move(dir)) {}

  std::optional<std::vector<char>> load(const std::string& key) const;
  // Best effort: a cache that cannot be written (read-only home, full disk) must not fail the app.
  // False when the entry could not be written whole; nothing is left under its name then.
  bool store(const std::string& key, const std::vector<char>& cubin) const;
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path entry_path(const std::string& key) const { return dir_ / (key + ".cubin"); }
  std::filesystem::path dir_;
};

// Loads from the cache or compiles and stores. `compiled` (if given) says which happened.
std::vector<char> cached_link_to_cubin(const CubinCache& cache, const JitRequest& request,
                                       std::string_view tool_version, bool* compiled = nullptr);

}  // namespace barracuda::runtime
