#pragma once
// Which launches are checked, as compute-sanitizer's options of the same names: `kernel_name` (a regex
// on the mangled name), then among the matching launches in issue order `launch_skip` (skip the first
// N), `launch_count` (check at most N; 0: no limit) and `launch_sample` (check at most K launches of
// each kernel; 0: no limit). Launches not checked run with their module's logging switched off.
#include <cstdint>
#include <map>
#include <optional>
#include <regex>
#include <string>

namespace barracuda::runtime {

struct LaunchFilterSettings {
  std::optional<std::regex> kernels;
  uint64_t skip = 0;
  uint64_t count = 0;
  uint64_t sample = 0;
};

class LaunchFilter {
 public:
  explicit LaunchFilter(LaunchFilterSettings settings) : settings_(std::move(settings)) {}

  // Called once per launch, in issue order (the caller serialises): whether to check it.
  bool check(const std::string& kernel);
  // Whether every launch is checked: the filter never says no.
  bool checks_everything() const {
    return !settings_.kernels && settings_.skip == 0 && settings_.count == 0 && settings_.sample == 0;
  }

 private:
  LaunchFilterSettings settings_;
  uint64_t matched_ = 0;
  uint64_t checked_ = 0;
  std::map<std::string, uint64_t> checked_per_kernel_;
};

}  // namespace barracuda::runtime
