#include "engine/flag_observations.h"

#include <algorithm>

namespace barracuda::engine {
namespace {

uint64_t pair_key(ThreadId writer, ThreadId reader) { return uint64_t{raw(writer)} << 32 | raw(reader); }
uint64_t pair_key(const LateFlagWrite& write) { return pair_key(write.observation.writer, write.reader); }

// Does `write` hand the writer's access at `writer_clock` over to the reader's at `reader_clock`?
bool hands_over(const LateFlagWrite& write, ThreadId writer, Clock writer_clock, Clock reader_clock) {
  return write.observation.follows(writer, writer_clock) && raw(write.observation.reader_clock) <= raw(reader_clock);
}

}  // namespace

LateFlagWrites::LateFlagWrites(std::vector<LateFlagWrite> writes) : writes_(std::move(writes)) {
  std::stable_sort(writes_.begin(), writes_.end(),
                   [](const LateFlagWrite& a, const LateFlagWrite& b) { return pair_key(a) < pair_key(b); });
}

std::optional<FlagHandOff> LateFlagWrites::handing_over(ThreadId writer, Clock writer_clock, ThreadId reader,
                                                        Clock reader_clock, uint64_t data_address) const {
  const uint64_t key = pair_key(writer, reader);
  auto write = std::lower_bound(writes_.begin(), writes_.end(), key,
                                [](const LateFlagWrite& w, uint64_t k) { return pair_key(w) < k; });
  for (; write != writes_.end() && pair_key(*write) == key; ++write) {
    if (!write->observation.is_word_of(data_address) && hands_over(*write, writer, writer_clock, reader_clock)) {
      return write->observation.hand_off();
    }
  }
  return std::nullopt;
}

void LateFlagWrites::name_flags(RaceLog& races) const {
  if (writes_.empty()) return;
  races.for_each([&](Race& race) {
    if (race.flag.valid || race.unfenced_acquire || race.race_class == RaceClass::kScoped || !race.first_kernel.empty() ||
        race.first_id == race.second_id) {
      return;
    }
    // Either access may be the writer's: the data's write (read after it), or, where the reader's data
    // read was checked first, the later one.
    std::optional<FlagHandOff> flag =
        handing_over(race.first_id, race.first_clock, race.second_id, race.second_clock, race.address);
    if (!flag) flag = handing_over(race.second_id, race.second_clock, race.first_id, race.first_clock, race.address);
    if (flag) race.flag = *flag;
  });
}

}  // namespace barracuda::engine
