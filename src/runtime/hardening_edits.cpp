#include "runtime/hardening_edits.h"

#include <algorithm>

#include "report/fence_fix.h"
#include "report/report_file.h"

namespace barracuda::runtime {
namespace {

ptx::Scope ptx_scope(MemoryScope scope) {
  switch (scope) {
    case MemoryScope::kCta: return ptx::Scope::Cta;
    case MemoryScope::kCluster: return ptx::Scope::Cluster;
    case MemoryScope::kGpu: return ptx::Scope::Gpu;
    case MemoryScope::kSystem: return ptx::Scope::Sys;
  }
  return ptx::Scope::Gpu;
}

ptx::passes::HardeningEdit::Kind edit_kind(report::FenceFix::Kind kind) {
  switch (kind) {
    case report::FenceFix::Kind::kFenceAfter: return ptx::passes::HardeningEdit::Kind::kFenceAfter;
    case report::FenceFix::Kind::kFenceBefore: return ptx::passes::HardeningEdit::Kind::kFenceBefore;
    case report::FenceFix::Kind::kWidenScope: return ptx::passes::HardeningEdit::Kind::kWidenScope;
  }
  return ptx::passes::HardeningEdit::Kind::kFenceAfter;
}

}  // namespace

std::vector<ptx::passes::HardeningEdit> hardening_edits(const report::Report& report) {
  using Edit = ptx::passes::HardeningEdit;
  std::vector<Edit> edits;
  for (const report::Race& race : report.races) {
    for (const report::FenceFix& fix : report::harden_race(race).fixes) {
      if (fix.site.ptx_line == 0) continue;
      const Edit edit{race.kernel, fix.site.ptx_line, edit_kind(fix.kind), ptx_scope(fix.scope)};
      if (std::find(edits.begin(), edits.end(), edit) == edits.end()) edits.push_back(edit);
    }
  }
  return edits;
}

std::vector<ptx::passes::HardeningEdit> hardening_edits_from_file(const std::string& path) {
  return hardening_edits(report::load_json_report_file(path));
}

}  // namespace barracuda::runtime
