#pragma once
// SARIF 2.1.0 (OASIS) for GitHub code scanning and other SARIF viewers: one result per unique race with
// ruleId = its class, the previous access in relatedLocations, the fingerprint in partialFingerprints
// and baselineState new/unchanged; barrier diagnostics as results of their own rules. The rules carry
// help text; skipped kernels and dropped events become tool execution notifications.
#include <string>

#include <nlohmann/json.hpp>

#include "report/model.h"

namespace barracuda::report {

inline constexpr std::string_view kSarifFingerprintKey = "barracudaRace/v1";

struct SarifOptions {
  // Each race result carries `barracuda harden`'s proposal (report/fence_fix.h): the property
  // `hardening` ({changes: [{location, change}]} or {noFix: reason}) and, for an inserted fence, a
  // SARIF `fixes` entry that inserts its line.
  bool fence_fixes = false;
};

nlohmann::ordered_json report_to_sarif(const Report& report, const SarifOptions& options = {});
// Pretty-printed, newline-terminated.
std::string render_sarif(const Report& report, const SarifOptions& options = {});

}  // namespace barracuda::report
