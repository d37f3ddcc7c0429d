// Races the device found itself: in kernels that only full-block barriers synchronise, the device
// checks shared accesses (barracuda/shared_check.h) and, in launches nothing runs beside, global
// accesses (barracuda/global_check.h) against its own shadow and sends only the races. Each becomes
// the Race the engine would have logged for the same pair, so reports cannot tell which side found it.
#include <bit>

#include "engine/worker.h"

namespace barracuda::engine {

namespace {

// The race the engine would have logged for the pair the device found: the second access is the
// record's one lane. The device checks only under independent thread scheduling, where lanes of one
// warp are threads like any other: the class follows from the two threads alone (race_rule.h), and
// the device named the hazard by the same rule.
Race device_race(const RecordView& record, MemorySpace space, ThreadCoord first, uint32_t first_site,
                 Hazard hazard, AtomicPlainSides sides, uint64_t address) {
  const RecordHeader& h = record.header();
  Race race;
  race.second_thread = {BlockId{h.block_id},
                        h.warp_id * kWarpSize + static_cast<uint32_t>(std::countr_zero(h.active_mask))};
  race.race_class =
      race_class_between(raw(first.block), first.thread, raw(race.second_thread.block), race.second_thread.thread);
  race.hazard = hazard;
  race.sides = sides;
  race.space = space;
  race.first_site = static_cast<SiteId>(first_site);
  race.second_site = static_cast<SiteId>(h.site_id);
  race.first_thread = first;
  race.address = address;
  race.size = record.access_bytes();
  return race;
}

}  // namespace

// The device compared the two stores' values itself (it never sends the stores): its verdict stands
// for this pair, where per-site values would take a site for constant from the one pair it sent.
void Worker::add_device_race(Race race, bool same_value) {
  race.same_value = same_value;
  race.value_from_device = true;
  races_.add(race);
}

void Worker::apply_shared_race(const RecordView& record, BlockState& block) {
  const RecordHeader& h = record.header();
  const SharedRacePayload payload = record.shared_race();
  if (std::popcount(h.active_mask) != 1) return malformed(h, "device race record with other than one lane");
  if (payload.first_thread >= shared_.launch.padded_threads_per_block()) {
    return malformed(h, "device race record naming a thread outside the block");
  }
  add_device_race(device_race(record, MemorySpace::kShared, {block.id(), payload.first_thread}, payload.first_site,
                              payload.hazard, payload.sides, payload.offset),
                  payload.same_value);
}

void Worker::apply_global_race(const RecordView& record) {
  const RecordHeader& h = record.header();
  const GlobalRacePayload payload = record.global_race();
  if (std::popcount(h.active_mask) != 1) return malformed(h, "device race record with other than one lane");
  const LaunchInfo& launch = shared_.launch;
  if (payload.first_thread >= launch.padded_threads_per_block() || payload.first_block >= launch.block_count() ||
      h.block_id >= launch.block_count()) {
    return malformed(h, "device race record naming a thread outside the grid");
  }
  add_device_race(device_race(record, MemorySpace::kGlobal, {BlockId{payload.first_block}, payload.first_thread},
                              payload.first_site, payload.hazard, payload.sides, h.base),
                  payload.same_value);
}

}  // namespace barracuda::engine
