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

nlohmann::ordered_json report_to_sarif(const Report& report);
std::string render_sarif(const Report& report);  // pretty-printed, newline-terminated

}  // namespace barracuda::report
