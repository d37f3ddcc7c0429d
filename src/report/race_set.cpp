#include "report/race_set.h"

#include <utility>

#include "report/fingerprint.h"

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

}  // namespace barracuda::report
