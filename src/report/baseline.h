#pragma once
// Baselines: a previous run's JSON report. Races whose fingerprint it contains are marked known, so
// only new races fail a CI run (exit_code.h) and SARIF shows them as baselineState "unchanged".
// Fingerprints are recomputed from the baseline's races rather than trusted from its file.
#include <set>
#include <string>

#include "report/model.h"

namespace barracuda::report {

std::set<std::string> baseline_fingerprints(const Report& baseline);

void mark_known_races(Report& report, const std::set<std::string>& baseline);

}  // namespace barracuda::report
