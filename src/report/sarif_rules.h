#pragma once
// The SARIF rules: one per race class plus the two barrier diagnostics, in a fixed order so that
// ruleIndex values stay stable between runs.
#include <span>
#include <string_view>

#include "report/model.h"

namespace barracuda::report {

struct SarifRule {
  std::string_view id;
  std::string_view name;
  std::string_view short_description;
  std::string_view help;
  std::string_view level;  // SARIF result level: "error" or "warning"
};

std::span<const SarifRule> sarif_rules();
size_t sarif_rule_index(RaceClass race_class);
size_t sarif_rule_index(const Race& race);  // its class's rule, same-value-write-write or unfenced-acquire
size_t sarif_rule_index(DiagnosticKind kind);

}  // namespace barracuda::report
