#include "runtime/allocation_map.h"

#include <iterator>
#include <mutex>

namespace barracuda::runtime {

void AllocationMap::insert(AllocationRecord record) {
  if (record.size == 0) return;
  std::unique_lock lock(mutex_);
  erase_overlapping_locked(record.base, record.size);
  const uint64_t base = record.base;
  by_base_.emplace(base, std::move(record));
}

void AllocationMap::erase_starting_at(uint64_t base) {
  std::unique_lock lock(mutex_);
  by_base_.erase(base);
}

void AllocationMap::erase_overlapping(uint64_t base, uint64_t size) {
  std::unique_lock lock(mutex_);
  erase_overlapping_locked(base, size);
}

void AllocationMap::erase_overlapping_locked(uint64_t base, uint64_t size) {
  if (size == 0) return;
  // The interval that starts before `base` may reach into the range; later ones start inside it.
  auto first = by_base_.lower_bound(base);
  if (first != by_base_.begin()) {
    const auto before = std::prev(first);
    if (before->second.base + before->second.size > base) first = before;
  }
  const auto last = base + size < base ? by_base_.end() : by_base_.lower_bound(base + size);
  by_base_.erase(first, last);
}

void AllocationMap::erase_owned_by(const void* owner) {
  std::unique_lock lock(mutex_);
  std::erase_if(by_base_, [owner](const auto& entry) { return entry.second.owner == owner; });
}

std::optional<AllocationRecord> AllocationMap::find(uint64_t address) const {
  std::shared_lock lock(mutex_);
  auto after = by_base_.upper_bound(address);
  if (after == by_base_.begin()) return std::nullopt;
  const AllocationRecord& candidate = std::prev(after)->second;
  if (address - candidate.base >= candidate.size) return std::nullopt;
  return candidate;
}

size_t AllocationMap::size() const {
  std::shared_lock lock(mutex_);
  return by_base_.size();
}

}  // namespace barracuda::runtime
