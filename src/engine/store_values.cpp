#include "engine/store_values.h"

#include <algorithm>

namespace barracuda::engine {

uint64_t StoreValues::combine(uint64_t a, uint64_t b) {
  if (a == kUnseen) return b;
  if (b == kUnseen || a == b) return a;
  return kVarying;
}

void StoreValues::note(SiteId site, std::optional<uint32_t> uniform_value) {
  const size_t index = raw(site);
  if (index >= values_.size()) values_.resize(std::max<size_t>(index + 1, values_.size() * 2), kUnseen);
  values_[index] = combine(values_[index], uniform_value ? (kKnown | *uniform_value) : kVarying);
}

void StoreValues::merge(const StoreValues& other) {
  if (other.values_.size() > values_.size()) values_.resize(other.values_.size(), kUnseen);
  for (size_t i = 0; i < other.values_.size(); ++i) values_[i] = combine(values_[i], other.values_[i]);
}

std::optional<uint32_t> StoreValues::constant(SiteId site) const {
  const size_t index = raw(site);
  if (index >= values_.size() || values_[index] == kUnseen || values_[index] == kVarying) return std::nullopt;
  return static_cast<uint32_t>(values_[index]);
}

}  // namespace barracuda::engine
