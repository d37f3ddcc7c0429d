#pragma once
// Diagnostics deduplicated by (kernel, kind, site). Workers log without a kernel name; the engine
// merges their logs into its own at the end of each launch, naming the kernel.
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "engine/findings.h"

namespace barracuda::engine {

class DiagnosticLog {
 public:
  // Counts one occurrence; the first occurrence's block and message represent the entry.
  void add(DiagnosticKind kind, SiteId site, BlockId block, std::string message);
  // Moves every entry of `other` here, naming its kernel and (for new entries) its launch.
  void merge(DiagnosticLog&& other, const std::string& kernel, LaunchSeq launch);
  std::vector<Diagnostic> diagnostics() const;
  void clear() { entries_.clear(); }

 private:
  std::map<std::tuple<std::string, DiagnosticKind, uint32_t>, Diagnostic> entries_;
};

}  // namespace barracuda::engine
