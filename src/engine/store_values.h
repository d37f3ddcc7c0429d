#pragma once
// Which store sites, in one launch, always wrote one and the same value (records with
// kFlagUniformValue: every lane stored one value to one address). Many threads setting a flag
// (`*changed = 1;`, `dist[v] = level + 1;`) is the commonest idiom of GPU graph code: a write-write race
// between two sites that both only ever stored the same value in the launch is its own class,
// "same-value write-write" (RaceLog::merge). Per launch, because such values are often a kernel
// argument (the BFS level) that changes from launch to launch.
#include <cstdint>
#include <optional>
#include <unordered_map>

#include "engine/ids.h"

namespace barracuda::engine {

class StoreValues {
 public:
  // One plain store record at `site`: the value all its lanes stored, or nullopt when they stored
  // several values, to several addresses, or more than 4 bytes.
  void note(SiteId site, std::optional<uint32_t> uniform_value);
  void merge(const StoreValues& other);
  void clear() { values_.clear(); }
  // The one value every store record at `site` wrote, if it always wrote the same one.
  std::optional<uint32_t> constant(SiteId site) const;
  // Whether `site` was noted as storing several values (or as a store a racing read observed).
  bool varying(SiteId site) const;

 private:
  static constexpr uint64_t kUnseen = 0;
  static constexpr uint64_t kVarying = ~uint64_t{0};
  static constexpr uint64_t kKnown = uint64_t{1} << 32;  // | value
  static uint64_t combine(uint64_t a, uint64_t b);

  // By site id: kKnown | value, or kVarying (unseen sites are absent). A map, not a vector by site id:
  // ids come from the records, and a malformed one must not size anything.
  std::unordered_map<uint32_t, uint64_t> values_;
};

}  // namespace barracuda::engine
