#include "report/finding_set.h"

#include <utility>

#include "report/fingerprint.h"
#include "report/value_text.h"

namespace barracuda::report {
namespace {

std::string key_of(const Race& race) { return race_fingerprint(race); }

// The site's function is part of it: machine-code sites (SASS back end) and sites the run could not
// resolve have no source position, their function names them.
std::string key_of(const Diagnostic& diagnostic) {
  return std::to_string(static_cast<int>(diagnostic.kind)) + '|' + diagnostic.kernel + '|' + diagnostic.site.function +
         '@' + site_position_text(diagnostic.site);
}

void fold(Race& kept, Race&& race) {
  kept.dynamic_count += race.dynamic_count;
  kept.same_value = kept.same_value && race.same_value;  // a race in any instruction or process is a race
  if (!race.unfenced_acquire) kept.unfenced_acquire.reset();
  if (!kept.flag_hand_off) kept.flag_hand_off = std::move(race.flag_hand_off);
}

void fold(Diagnostic&, Diagnostic&&) {}

}  // namespace

template <typename Finding>
FindingSet<Finding>::FindingSet(std::vector<Finding>& findings) : findings_(findings) {
  for (size_t i = 0; i < findings_.size(); ++i) by_key_.try_emplace(key_of(findings_[i]), i);
}

template <typename Finding>
Finding* FindingSet<Finding>::add(Finding finding) {
  const auto [it, added] = by_key_.try_emplace(key_of(finding), findings_.size());
  if (!added) {
    fold(findings_[it->second], std::move(finding));
    return nullptr;
  }
  findings_.push_back(std::move(finding));
  return &findings_.back();
}

template class FindingSet<Race>;
template class FindingSet<Diagnostic>;

}  // namespace barracuda::report
