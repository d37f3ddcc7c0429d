#include "engine/diagnostic_log.h"

namespace barracuda::engine {

void DiagnosticLog::add(DiagnosticKind kind, SiteId site, BlockId block, std::string message) {
  auto [it, inserted] = entries_.try_emplace({std::string{}, kind, raw(site)});
  if (inserted) it->second = Diagnostic{{}, kind, site, block, std::move(message), 0};
  ++it->second.count;
}

void DiagnosticLog::merge(DiagnosticLog&& other, const std::string& kernel, LaunchSeq launch) {
  for (auto& [key, diagnostic] : other.entries_) {
    diagnostic.kernel = kernel;
    diagnostic.launch = launch;
    auto [it, inserted] = entries_.try_emplace({kernel, std::get<1>(key), std::get<2>(key)}, diagnostic);
    if (!inserted) it->second.count += diagnostic.count;
  }
  other.clear();
}

std::vector<Diagnostic> DiagnosticLog::diagnostics() const {
  std::vector<Diagnostic> out;
  for (const auto& [key, diagnostic] : entries_) out.push_back(diagnostic);
  return out;
}

}  // namespace barracuda::engine
