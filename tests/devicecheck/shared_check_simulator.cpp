#include "shared_check_simulator.h"

#include <array>
#include <cstring>
#include <unordered_map>
#include <utility>

#include "barracuda/global_check.h"
#include "barracuda/shared_check.h"

namespace barracuda::devicecheck::test {
namespace {

// The lanes of `access` that check their access on the device, in lane order, as the device picks
// them (shared_lane_role: one lane of a same-value store per address): fn(lane, address, role).
template <typename Fn>
void for_each_checking_lane(const RecordView& access, Fn fn) {
  const RecordHeader& h = access.header();
  const bool same_value_store = access.op() == RecordOp::kStore && (h.flags & kFlagSameValue) != 0;
  for (uint32_t m = h.active_mask; m; m &= m - 1) {
    const uint32_t lane = static_cast<uint32_t>(__builtin_ctz(m));
    const uint64_t address = access.lane_address(lane);
    uint32_t same_address = 0;  // what the device's __match_any_sync gives
    for (uint32_t o = h.active_mask; o; o &= o - 1) {
      const uint32_t other = static_cast<uint32_t>(__builtin_ctz(o));
      if (access.lane_address(other) == address) same_address |= 1u << other;
    }
    const SharedLaneRole role = shared_lane_role(same_value_store, h.active_mask, same_address, lane);
    if (role.checks) fn(lane, address, role);
  }
}

struct BlockShadow {
  std::vector<uint32_t> barriers_passed;  // by block-linear thread
  std::unordered_map<uint64_t, SharedShadowWord> words;  // by word index
};

RecordHeader race_record(const RecordHeader& access, const SharedAccess& second, uint32_t lane, uint32_t offset,
                         const SharedRace& race) {
  RecordHeader h = access;
  h.op = static_cast<uint8_t>(RecordOp::kSharedRace);
  h.size_mode = pack_size_mode(size_log2_of(access.size_mode), AddressMode::kAffine);
  h.flags = race_record_flags(race.hazard, race.first_op, access_op(second.write, second.stamp.atomic));
  h.active_mask = 1u << lane;
  h.stride = static_cast<int32_t>(race.first.site);
  h.base = pack_shared_race_base({offset, race.first.thread, race.first.site, race.hazard, race.same_value,
                                  race.same_value ? static_cast<uint32_t>(access.stride) : 0});
  return h;
}

// The lanes of an access that touch the same address as `lane` in the same interval (`key` of every
// lane: its address and interval), which the device checks together: loads in shared memory
// (check_word_read_lanes), loads and atomics in global memory (check_global_word_lanes).
template <typename Key>
uint32_t lanes_together(const RecordView& access, uint32_t lane, Key key) {
  const bool together = access.op() == RecordOp::kLoad ||
                        (access.space() == MemorySpace::kGlobal && access.op() != RecordOp::kStore);
  if (!together) return 1u << lane;
  uint32_t lanes = 0;
  for (uint32_t m = access.header().active_mask; m; m &= m - 1) {
    const uint32_t other = static_cast<uint32_t>(__builtin_ctz(m));
    if (key(other) == key(lane)) lanes |= 1u << other;
  }
  return lanes;
}

void check_access(const RecordView& access, BlockShadow& block, std::vector<RecordHeader>& out) {
  const RecordHeader& h = access.header();
  const uint32_t warp_base = h.warp_id * kWarpSize;
  const auto key = [&](uint32_t lane) {
    return std::pair{access.lane_address(lane), block.barriers_passed[warp_base + lane]};
  };
  for_each_checking_lane(access, [&](uint32_t lane, uint64_t address, const SharedLaneRole& role) {
    const uint32_t together = lanes_together(access, lane, key);
    if (lowest_lane(together) != lane) return;  // checked with the lowest lane of its reads
    const uint32_t thread = warp_base + lane;
    const uint32_t epoch = 1 + block.barriers_passed[thread];
    const bool atomic = access.op() == RecordOp::kAtomic || access.op() == RecordOp::kReduction;
    SharedAccess lane_access{{epoch, thread, h.site_id, atomic}, access.op() != RecordOp::kLoad,
                             warp_base + role.last_writer_lane, access.has_uniform_value(),
                             access.uniform_value(), role.same_instruction_lanes};
    for (uint32_t word = 0; word < (access.access_bytes() + 3) / 4; ++word) {
      const uint64_t offset = address + 4 * word;
      SharedShadowWord& shadow = block.words[offset / 4];
      if (together == 1u << lane) {
        const SharedCheckOutcome outcome = check_shared_access(shadow, lane_access);
        shadow = outcome.next;
        for (uint32_t r = 0; r < outcome.race_count; ++r) {
          out.push_back(race_record(h, lane_access, lane, static_cast<uint32_t>(offset), outcome.races[r]));
        }
        continue;
      }
      // Each lane's races against the shadow before them, then the shadow they leave together.
      for (uint32_t m = together; m; m &= m - 1) {
        SharedAccess each = lane_access;
        each.stamp.thread = each.last_writer_thread = warp_base + lowest_lane(m);
        const SharedCheckOutcome outcome = check_shared_access(shadow, each);
        for (uint32_t r = 0; r < outcome.race_count; ++r) {
          out.push_back(race_record(h, each, lowest_lane(m), static_cast<uint32_t>(offset), outcome.races[r]));
        }
      }
      shadow = apply_shared_read_lanes(shadow, lane_access, together, warp_base);
    }
  });
}

// As the device's send_global_race: the header names the second access, the payload the first.
void push_global_race(const RecordHeader& access, uint32_t lane, uint64_t word, const GlobalAccess& second,
                      const GlobalRace& race, GlobalStampLayout layout, std::vector<RecordHeader>& out) {
  RecordHeader h = access;
  h.op = static_cast<uint8_t>(RecordOp::kGlobalRace);
  h.size_mode = pack_size_mode(size_log2_of(access.size_mode), AddressMode::kDelta32);
  h.flags = race_record_flags(race.hazard, race.first_op, global_access_op(second));
  h.active_mask = 1u << lane;
  h.stride = 0;
  h.base = word;
  const GlobalStamp first = unpack_global_stamp(race.first, layout);
  std::array<uint32_t, kWarpSize> words{};
  words[kGlobalRaceFirstBlock] = first.block;
  words[kGlobalRaceFirstThread] = first.thread;
  words[kGlobalRaceFirstSite] = race.first_site;
  words[kGlobalRaceHazard] = static_cast<uint32_t>(race.hazard) | uint32_t{race.same_value} << 2;
  words[kGlobalRaceValue] = race.same_value ? second.value : 0;
  std::array<RecordHeader, 4> payload{};
  std::memcpy(payload.data(), words.data(), sizeof words);
  out.push_back(h);
  out.insert(out.end(), payload.begin(), payload.end());
}

struct GlobalShadow {
  GlobalStampLayout layout;
  std::unordered_map<uint32_t, std::vector<uint32_t>> barriers_passed;  // by block, by thread
  std::unordered_map<uint64_t, GlobalShadowWord> words;                // by word address
};

void check_global(const RecordView& access, GlobalShadow& shadow, uint32_t threads, std::vector<RecordHeader>& out) {
  const RecordHeader& h = access.header();
  const uint32_t warp_base = h.warp_id * kWarpSize;
  std::vector<uint32_t>& barriers = shadow.barriers_passed[h.block_id];
  barriers.resize(threads);
  const auto key = [&](uint32_t lane) {
    return std::pair{access.lane_address(lane) & ~uint64_t{3}, barriers[warp_base + lane]};
  };
  for_each_checking_lane(access, [&](uint32_t lane, uint64_t address, const SharedLaneRole& role) {
    const uint32_t together = lanes_together(access, lane, key);
    if (lowest_lane(together) != lane) return;  // checked with the lowest lane of its reads
    const uint32_t thread = warp_base + lane;
    const bool strong = global_access_strong(access.op(), h.space_sem);
    const GlobalAccess lane_access{{1, h.block_id, barriers[thread], thread, strong},
                                   h.site_id,
                                   access.op() != RecordOp::kLoad,
                                   warp_base + role.last_writer_lane,
                                   access.has_uniform_value(),
                                   access.uniform_value(),
                                   role.same_instruction_lanes};
    for (uint64_t word = address & ~uint64_t{3}; word < address + access.access_bytes(); word += 4) {
      GlobalShadowWord& cell = shadow.words[word];
      if (together == 1u << lane) {
        const GlobalCheckOutcome outcome = check_global_access(cell, lane_access, shadow.layout);
        cell = outcome.next;
        for (uint32_t r = 0; r < outcome.race_count; ++r) {
          push_global_race(h, lane, word, lane_access, outcome.races[r], shadow.layout, out);
        }
        continue;
      }
      for (uint32_t m = together; m; m &= m - 1) {
        GlobalAccess each = lane_access;
        each.stamp.thread = each.last_writer_thread = warp_base + lowest_lane(m);
        const GlobalCheckOutcome outcome = check_global_access(cell, each, shadow.layout);
        for (uint32_t r = 0; r < outcome.race_count; ++r) {
          push_global_race(h, lowest_lane(m), word, each, outcome.races[r], shadow.layout, out);
        }
      }
      apply_global_lanes(cell, lane_access, together, warp_base, shadow.layout);
    }
  });
}

}  // namespace

std::vector<RecordHeader> simulate_device_global_check(const engine::LaunchInfo& launch,
                                                       std::span<const RecordHeader> slots) {
  GlobalShadow shadow{global_stamp_layout(launch.block_count()), {}, {}};
  std::vector<RecordHeader> out;
  for (size_t i = 0; i < slots.size();) {
    const RecordView record(slots[i], slots.data() + i + 1);
    const size_t count = record.slot_count();
    if (record.is_memory_access() && record.space() == MemorySpace::kGlobal) {
      check_global(record, shadow, launch.padded_threads_per_block(), out);
    } else {
      if (record.op() == RecordOp::kBarrier) {
        std::vector<uint32_t>& barriers = shadow.barriers_passed[record.header().block_id];
        barriers.resize(launch.padded_threads_per_block());
        for (uint32_t m = record.header().active_mask; m; m &= m - 1) {
          ++barriers[record.header().warp_id * kWarpSize + static_cast<uint32_t>(__builtin_ctz(m))];
        }
      }
      out.insert(out.end(), slots.begin() + static_cast<ptrdiff_t>(i),
                 slots.begin() + static_cast<ptrdiff_t>(i + count));
    }
    i += count;
  }
  return out;
}

std::vector<RecordHeader> simulate_device_shared_check(const engine::LaunchInfo& launch,
                                                       std::span<const RecordHeader> slots) {
  std::unordered_map<uint32_t, BlockShadow> blocks;
  std::vector<RecordHeader> out;
  for (size_t i = 0; i < slots.size();) {
    const RecordView record(slots[i], slots.data() + i + 1);
    const size_t count = record.slot_count();
    BlockShadow& block = blocks[record.header().block_id];
    block.barriers_passed.resize(launch.padded_threads_per_block());
    if (record.is_memory_access() && record.space() == MemorySpace::kShared) {
      check_access(record, block, out);
    } else {
      if (record.op() == RecordOp::kBarrier) {
        for (uint32_t m = record.header().active_mask; m; m &= m - 1) {
          ++block.barriers_passed[record.header().warp_id * kWarpSize + static_cast<uint32_t>(__builtin_ctz(m))];
        }
      }
      out.insert(out.end(), slots.begin() + static_cast<ptrdiff_t>(i),
                 slots.begin() + static_cast<ptrdiff_t>(i + count));
    }
    i += count;
  }
  return out;
}

}  // namespace barracuda::devicecheck::test
