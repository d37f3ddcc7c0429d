#include "engine/store_values.h"

namespace barracuda::engine {

uint64_t StoreValues::combine(uint64_t a, uint64_t b) {
  if (a == kUnseen) return b;
  if (b == kUnseen || a == b) return a;
  return kVarying;
}

void StoreValues::note(SiteId site, std::optional<uint32_t> uniform_value) {
  uint64_t& value = values_.try_emplace(raw(site), kUnseen).first->second;
  value = combine(value, uniform_value ? (kKnown | *uniform_value) : kVarying);
}

void StoreValues::merge(const StoreValues& other) {
  for (const auto& [site, value] : other.values_) {
    uint64_t& mine = values_.try_emplace(site, kUnseen).first->second;
    mine = combine(mine, value);
  }
}

bool StoreValues::varying(SiteId site) const {
  const auto found = values_.find(raw(site));
  return found != values_.end() && found->second == kVarying;
}

std::optional<uint32_t> StoreValues::constant(SiteId site) const {
  const auto found = values_.find(raw(site));
  if (found == values_.end() || found->second == kVarying) return std::nullopt;
  return static_cast<uint32_t>(found->second);
}

}  // namespace barracuda::engine
