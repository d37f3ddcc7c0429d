#include "engine/flag_observations.h"

namespace barracuda::engine {
namespace {

// Does `write` hand the earlier access (writer's side) over to the later one (reader's side)?
bool hands_over(const LateFlagWrite& write, ThreadId writer, Clock writer_clock, ThreadId reader, Clock reader_clock) {
  return write.observation.writer == writer && raw(writer_clock) <= raw(write.observation.writer_clock) &&
         write.reader == reader && raw(write.observation.reader_clock) <= raw(reader_clock);
}

// Whether `race` is on the flag's own word: the flag's accesses racing with each other (a volatile flag
// read once) are not handed over by it.
bool on_the_flag(const Race& race, uint64_t flag_address) { return race.address / 4 == flag_address / 4; }

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
      if (on_the_flag(race, write.observation.address)) continue;
      if (hands_over(write, race.first_id, race.first_clock, race.second_id, race.second_clock) ||
          hands_over(write, race.second_id, race.second_clock, race.first_id, race.first_clock)) {
        const FlagObservation& o = write.observation;
        race.flag = {o.write_site, o.read_site, o.address, true};
        return;
      }
    }
  });
}

}  // namespace barracuda::engine
