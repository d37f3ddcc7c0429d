#pragma once
// Every instrumented module's site table, reachable by the global site id a record carries. Modules
// take consecutive id ranges, so a lookup is a binary search over the ranges. The tables are kept in
// the trace file's form, so a live run and `barracuda replay` resolve sites the same way.
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ptx/passes/site_table.h"
#include "trace/trace_items.h"

namespace barracuda::runtime {

// The trace form of an instrumented module's sites.
trace::ModuleTable module_table(uint32_t module_index, const ptx::passes::SiteTable& sites,
                                std::vector<std::string> kernels);

// Site ids from here on are the SASS back end's (one per machine instruction of the kernels it checks).
inline constexpr uint32_t kFirstSassSite = 1u << 31;

class SiteRegistry {
 public:
  // Where the next module's ids start; add() registers the module's finished table.
  uint32_t next_id() const;
  void add(trace::ModuleTable table);
  std::optional<trace::SiteInfo> find(uint32_t site_id) const;
  // The parameters of `kernel` that addresses of its sites derive from (SiteInfo::parameter).
  std::vector<uint32_t> pointer_parameters(std::string_view kernel) const;

 private:
  mutable std::mutex mutex_;
  std::vector<trace::ModuleTable> tables_;  // in id order
  std::map<std::string, std::vector<uint32_t>, std::less<>> pointer_parameters_;
  uint32_t next_id_ = 1;  // 0 stays free: a zeroed record must never name a real site
};

}  // namespace barracuda::runtime
