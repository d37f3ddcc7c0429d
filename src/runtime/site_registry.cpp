#include "runtime/site_registry.h"

#include <algorithm>

namespace barracuda::runtime {

trace::ModuleTable module_table(uint32_t module_index, const ptx::passes::SiteTable& sites,
                                std::vector<std::string> kernels) {
  trace::ModuleTable table{module_index, sites.first_id(), std::move(kernels), {}};
  for (const ptx::passes::Site& site : sites.sites()) {
    table.sites.push_back({site.function, site.ptx_line, site.source_file, site.source_line, site.source_column,
                           site.inlined_file, site.inlined_line, site.inlined_column, site.parameter});
  }
  return table;
}

uint32_t SiteRegistry::next_id() const {
  std::lock_guard lock(mutex_);
  return next_id_;
}

void SiteRegistry::add(trace::ModuleTable table) {
  std::lock_guard lock(mutex_);
  // The SASS back end numbers its sites from kFirstSassSite on (sass_backend.h): they never move the
  // instrumenter's next id, which a module being instrumented has already taken.
  if (table.site_base < kFirstSassSite) {
    next_id_ = std::max<uint32_t>(next_id_, table.site_base + static_cast<uint32_t>(table.sites.size()));
  }
  for (const trace::SiteInfo& site : table.sites) {
    if (site.parameter < 0) continue;
    std::vector<uint32_t>& parameters = pointer_parameters_[site.function];
    const auto parameter = static_cast<uint32_t>(site.parameter);
    if (std::find(parameters.begin(), parameters.end(), parameter) == parameters.end()) parameters.push_back(parameter);
  }
  auto at = std::upper_bound(tables_.begin(), tables_.end(), table.site_base,
                             [](uint32_t base, const auto& t) { return base < t.site_base; });
  tables_.insert(at, std::move(table));
}

std::vector<uint32_t> SiteRegistry::pointer_parameters(std::string_view kernel) const {
  std::lock_guard lock(mutex_);
  const auto found = pointer_parameters_.find(std::string(kernel));
  return found == pointer_parameters_.end() ? std::vector<uint32_t>{} : found->second;
}

std::optional<trace::SiteInfo> SiteRegistry::find(uint32_t site_id) const {
  std::lock_guard lock(mutex_);
  auto after = std::upper_bound(tables_.begin(), tables_.end(), site_id,
                                [](uint32_t id, const auto& t) { return id < t.site_base; });
  if (after == tables_.begin()) return std::nullopt;
  const trace::ModuleTable& table = *std::prev(after);
  uint32_t index = site_id - table.site_base;
  if (index >= table.sites.size()) return std::nullopt;
  return table.sites[index];
}

}  // namespace barracuda::runtime
