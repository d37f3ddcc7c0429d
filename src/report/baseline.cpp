#include "report/baseline.h"

#include "report/fingerprint.h"

namespace barracuda::report {

std::set<std::string> baseline_fingerprints(const Report& baseline) {
  std::set<std::string> fingerprints;
  for (const Race& race : baseline.races) fingerprints.insert(race_fingerprint(race));
  return fingerprints;
}

void mark_known_races(Report& report, const std::set<std::string>& baseline) {
  for (Race& race : report.races) race.known = baseline.contains(race_fingerprint(race));
}

}  // namespace barracuda::report
