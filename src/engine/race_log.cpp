#include "engine/race_log.h"

#include <algorithm>
#include <functional>
#include <tuple>

namespace barracuda::engine {

size_t RaceLog::KeyHash::operator()(const Key& k) const {
  size_t h = std::hash<std::string>{}(k.kernel);
  h ^= (uint64_t{k.low_site} << 32 | k.high_site) * 0x9E3779B97F4A7C15ull;
  return h ^ (static_cast<size_t>(k.race_class) << 8 | static_cast<size_t>(k.hazard));
}

RaceLog::Key RaceLog::key_of(const Race& race) {
  const uint32_t a = raw(race.first_site), b = raw(race.second_site);
  return {race.kernel, std::min(a, b), std::max(a, b), race.race_class, race.hazard};
}

Race& RaceLog::add(const Race& race) {
  ++dynamic_;
  auto [it, inserted] = entries_.try_emplace(key_of(race), race);
  it->second.count = inserted ? 1 : it->second.count + 1;
  if (!inserted) {
    it->second.unfenced_acquire = it->second.unfenced_acquire && race.unfenced_acquire;
    it->second.same_value = it->second.same_value && race.same_value;
    it->second.value_from_device = it->second.value_from_device && race.value_from_device;
  }
  return it->second;
}

void RaceLog::merge(RaceLog&& other, const std::string& kernel, LaunchSeq launch, DeviceId device,
                    const StoreValues& launch_values) {
  for (auto& [key, race] : other.entries_) {
    race.kernel = kernel;
    race.launch = launch;
    race.device = device;
    if (race.first_kernel.empty()) race.first_device = device;  // else the earlier launch's (earlier_launches.cpp)
    if (race.value_from_device) {
      // The device compared the values; a racing read that observed either store (engine.cpp) still
      // makes the pair a race (hist[bin]++ of two warps that both stored 1).
      race.same_value = race.same_value && !launch_values.varying(race.first_site) &&
                        !launch_values.varying(race.second_site);
    } else {
      const std::optional<uint32_t> first = launch_values.constant(race.first_site);
      race.same_value = race.hazard == Hazard::kWriteAfterWrite && race.first_kernel.empty() && first &&
                        first == launch_values.constant(race.second_site);
    }
    auto [it, inserted] = entries_.try_emplace(key_of(race), race);
    if (inserted) it->second.serial = entries_.size() - 1;
    if (!inserted) {
      it->second.count += race.count;
      it->second.same_value = it->second.same_value && race.same_value;
      it->second.unfenced_acquire = it->second.unfenced_acquire && race.unfenced_acquire;
      if (!it->second.flag.valid) it->second.flag = race.flag;
    }
  }
  dynamic_ += other.dynamic_;
  other.clear();
}

std::vector<Race> RaceLog::races() const {
  std::vector<Race> out;
  out.reserve(entries_.size());
  for (const auto& [key, race] : entries_) out.push_back(race);
  // A stable order for reports and tests: by kernel, then site pair, class and hazard.
  std::sort(out.begin(), out.end(), [](const Race& a, const Race& b) {
    const Key ka = key_of(a), kb = key_of(b);
    return std::tie(ka.kernel, ka.low_site, ka.high_site, ka.race_class, ka.hazard) <
           std::tie(kb.kernel, kb.low_site, kb.high_site, kb.race_class, kb.hazard);
  });
  return out;
}

void RaceLog::clear() {
  entries_.clear();
  dynamic_ = 0;
}

}  // namespace barracuda::engine
