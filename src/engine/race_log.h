#pragma once
// Races deduplicated by (kernel, sorted site pair, class, hazard). Workers log without a kernel
// name (no string copy per dynamic race); the engine merges their logs at the end of each launch.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "engine/findings.h"
#include "engine/store_values.h"

namespace barracuda::engine {

class RaceLog {
 public:
  // Adds one dynamic race (its `count` is ignored); the first occurrence's details represent the entry,
  // which is returned (a caller may complete what the first occurrence lacked).
  Race& add(const Race& race);
  // Moves every entry of `other` into this log, naming its kernel and, for new entries, their launch
  // and their number (serial); `launch_values` (the stores of the
  // launch `other` comes from) decide which write-write races are same-value ones. An entry stays
  // same-value only while every launch it occurs in says so.
  void merge(RaceLog&& other, const std::string& kernel, LaunchSeq launch, DeviceId device,
             const StoreValues& launch_values);
  std::vector<Race> races() const;  // sorted: for reports
  template <typename Visit>
  void for_each(Visit&& visit) const {  // unordered, no copies
    for (const auto& entry : entries_) visit(entry.second);
  }
  template <typename Visit>
  void for_each(Visit&& visit) {  // may change what the key leaves out (threads, address)
    for (auto& entry : entries_) visit(entry.second);
  }
  uint64_t dynamic_count() const { return dynamic_; }
  uint64_t size() const { return entries_.size(); }
  void clear();

 private:
  struct Key {
    std::string kernel;
    uint32_t low_site, high_site;
    RaceClass race_class;
    Hazard hazard;
    friend bool operator==(const Key&, const Key&) = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const;
  };
  static Key key_of(const Race& race);

  std::unordered_map<Key, Race, KeyHash> entries_;
  uint64_t dynamic_ = 0;
};

}  // namespace barracuda::engine
