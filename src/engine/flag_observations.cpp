#include "engine/flag_observations.h"

namespace barracuda::engine {
namespace {

// Does `write` hand the earlier access (writer's side) over to the later one (reader's side)?
bool hands_over(const LateFlagWrite& write, ThreadId writer, Clock writer_clock, ThreadId reader, Clock reader_clock) {
  return write.observation.follows(writer, writer_clock) && write.reader == reader &&
         raw(write.observation.reader_clock) <= raw(reader_clock);
}

}  // namespace

void resolve_late_flag_writes(RaceLog& races, const std::vector<LateFlagWrite>& writes) {
  if (writes.empty()) return;
  races.for_each([&](Race& race) {
    if (race.flag.valid || race.unfenced_acquire || race.race_class == RaceClass::kScoped || !race.first_kernel.empty() ||
        race.first_id == race.second_id) {
      return;
    }
    for (const LateFlagWrite& write : writes) {
      // Either access may be the writer's: the data's write (read after it), or, where the reader's
      // data read was checked first, the later one.
      if (write.observation.is_word_of(race.address)) continue;
      if (hands_over(write, race.first_id, race.first_clock, race.second_id, race.second_clock) ||
          hands_over(write, race.second_id, race.second_clock, race.first_id, race.first_clock)) {
        race.flag = write.observation.hand_off();
        return;
      }
    }
  });
}

}  // namespace barracuda::engine
