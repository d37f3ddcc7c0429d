#pragma once
// Every instrumented module's site table, reachable by the global site id a record carries. Modules
// take consecutive id ranges (ModuleInstrumenter hands out the first id of each), so a lookup is a
// binary search over the ranges.
#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

#include "ptx/passes/site_table.h"

namespace barracuda::runtime {

class SiteRegistry {
 public:
  // Where the next module's ids start; add() registers the module's finished table.
  uint32_t next_id() const;
  void add(ptx::passes::SiteTable table);
  std::optional<ptx::passes::Site> find(uint32_t site_id) const;

 private:
  mutable std::mutex mutex_;
  std::vector<ptx::passes::SiteTable> tables_;  // in id order
  uint32_t next_id_ = 1;  // 0 stays free: a zeroed record must never name a real site
};

}  // namespace barracuda::runtime
