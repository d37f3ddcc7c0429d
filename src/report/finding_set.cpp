#include "report/finding_set.h"

#include <utility>

#include "report/fingerprint.h"
#include "report/value_text.h"

namespace barracuda::report {

RaceSet::RaceSet(std::vector<Race>& races) : races_(races) {
  for (size_t i = 0; i < races_.size(); ++i) by_fingerprint_.try_emplace(race_fingerprint(races_[i]), i);
}

Race* RaceSet::add(Race race) {
  const auto [it, added] = by_fingerprint_.try_emplace(race_fingerprint(race), races_.size());
  if (added) {
    races_.push_back(std::move(race));
    return &races_.back();
  }
  Race& kept = races_[it->second];
  kept.dynamic_count += race.dynamic_count;
  kept.same_value = kept.same_value && race.same_value;  // a race in any instruction or process is a race
  if (!race.unfenced_acquire) kept.unfenced_acquire.reset();
  if (!kept.flag_hand_off) kept.flag_hand_off = std::move(race.flag_hand_off);
  return nullptr;
}

namespace {

// The site's function is part of it: machine-code sites (SASS back end) and sites the run could not
// resolve have no source position, their function names them.
std::string diagnostic_key(const Diagnostic& diagnostic) {
  return std::to_string(static_cast<int>(diagnostic.kind)) + '|' + diagnostic.kernel + '|' + diagnostic.site.function +
         '@' + site_position_text(diagnostic.site);
}

}  // namespace

DiagnosticSet::DiagnosticSet(std::vector<Diagnostic>& diagnostics) : diagnostics_(diagnostics) {
  for (size_t i = 0; i < diagnostics_.size(); ++i) by_key_.try_emplace(diagnostic_key(diagnostics_[i]), i);
}

Diagnostic* DiagnosticSet::add(Diagnostic diagnostic) {
  if (!by_key_.try_emplace(diagnostic_key(diagnostic), diagnostics_.size()).second) return nullptr;
  diagnostics_.push_back(std::move(diagnostic));
  return &diagnostics_.back();
}

}  // namespace barracuda::report
