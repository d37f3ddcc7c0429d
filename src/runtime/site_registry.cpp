#include "runtime/site_registry.h"

#include <algorithm>

namespace barracuda::runtime {

uint32_t SiteRegistry::next_id() const {
  std::lock_guard lock(mutex_);
  return next_id_;
}

void SiteRegistry::add(ptx::passes::SiteTable table) {
  std::lock_guard lock(mutex_);
  next_id_ = std::max<uint32_t>(next_id_, table.first_id() + static_cast<uint32_t>(table.sites().size()));
  tables_.push_back(std::move(table));
  std::sort(tables_.begin(), tables_.end(), [](const auto& a, const auto& b) { return a.first_id() < b.first_id(); });
}

std::optional<ptx::passes::Site> SiteRegistry::find(uint32_t site_id) const {
  std::lock_guard lock(mutex_);
  auto after = std::upper_bound(tables_.begin(), tables_.end(), site_id,
                                [](uint32_t id, const auto& table) { return id < table.first_id(); });
  if (after == tables_.begin()) return std::nullopt;
  const ptx::passes::SiteTable& table = *std::prev(after);
  uint32_t index = site_id - table.first_id();
  if (index >= table.sites().size()) return std::nullopt;
  return table.sites()[index];
}

}  // namespace barracuda::runtime
