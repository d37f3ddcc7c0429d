// Device checking of global memory in barrier-only kernels (barracuda/global_check.h: the rule;
// global_check_launch.h: what the host gives a launch). Part of the device runtime's translation unit:
// runtime.cu includes it inside its anonymous namespace, after shared_checker.cuh, whose helpers it
// uses.
//
// Per launch with LaunchSlot::global_check set, in kernels the instrumentation found barrier-only for
// global memory (their global and generic loads and stores carry kAccessDeviceGlobal):
//   barrier each thread counts the block barriers it passed in its word of `barriers` (the barriers
//           themselves are counted per block in barrier_counter.cuh, or logged when the launch keeps
//           every record);
//   access  each lane whose global address lies in one of the launch's ranges is checked against that
//           range's shadow, word by word; races go to the host as kGlobalRace records, each site pair
//           once per launch (the launch's race filter). The other lanes are logged.

__device__ __forceinline__ const GlobalCheckLaunch* global_check_of(const LaunchSlot* slot) {
  return reinterpret_cast<const GlobalCheckLaunch*>(slot->global_check);
}

__device__ __forceinline__ uint64_t* barrier_word(const GlobalCheckLaunch* check) {
  const uint64_t block_threads = uint64_t{blockDim.x} * blockDim.y * blockDim.z;
  return reinterpret_cast<uint64_t*>(check->barriers) + linear_block_id() * block_threads + thread_in_block();
}

// The block barriers a thread's barrier word says it passed in this launch.
__device__ __forceinline__ uint32_t barriers_passed_in(const GlobalCheckLaunch* check, uint64_t word) {
  return word >> kGlobalBarrierCountBits == check->tag ? static_cast<uint32_t>(word) : 0;
}
// The block barriers the calling thread passed in this launch (only the thread itself writes its word).
__device__ __forceinline__ uint32_t global_barriers_passed(const GlobalCheckLaunch* check) {
  return barriers_passed_in(check, *barrier_word(check));
}

// Every lane of a block barrier's group, before it waits: one more barrier interval. Past what the
// stamps' interval bits hold, the stamps stay at their last interval (global_interval) and the launch
// says so; the count goes on for kBarriersPassed (barrier_counter.cuh).
__device__ __forceinline__ void count_global_barrier(const LaunchSlot* launch) {
  const GlobalCheckLaunch* check = global_check_of(launch);
  const uint32_t passed = global_barriers_passed(check);
  if (passed >= GlobalStampLayout{check->interval_bits}.max_interval() && !check->saturated) {
    atomicExch(const_cast<uint32_t*>(&check->saturated), 1u);
  }
  if (passed == ~0u) return;
  *barrier_word(check) = uint64_t{check->tag} << kGlobalBarrierCountBits | (passed + 1);
}

// The calling thread's barrier interval as its stamps hold it.
__device__ __forceinline__ uint32_t global_interval(const GlobalCheckLaunch* check) {
  return min(global_barriers_passed(check), GlobalStampLayout{check->interval_bits}.max_interval());
}

__device__ __forceinline__ void store_relaxed_u32(uint32_t* address, uint32_t value) {
  asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(address), "r"(value) : "memory");
}

// ---- races ----------------------------------------------------------------------------------------

// Whether the launch has not sent this pair yet. Entries of earlier launches' tags count as free.
__device__ bool first_global_report(const GlobalCheckLaunch* check, uint64_t key) {
  auto* filter = reinterpret_cast<uint64_t*>(check->race_filter);
  const uint32_t home = static_cast<uint32_t>((key * 0x9E3779B97F4A7C15ull) >> 52);
  for (uint32_t probe = 0; probe < 8; ++probe) {
    uint64_t* entry = &filter[(home + probe) % kGlobalRaceFilterEntries];
    uint64_t seen = load_relaxed_gpu(entry);
    for (;;) {
      if (seen == key) return false;
      if (seen != 0 && global_race_filter_tag(seen) == check->tag) break;  // another pair: probe on
      const uint64_t before = cas(entry, seen, key);
      if (before == seen) return true;
      seen = before;
    }
  }
  return true;
}

// The calling lane alone sends a race its access formed (rare: not inlined into the checks).
__device__ __noinline__ void send_global_race(const Launch& launch, const GlobalCheckLaunch* check, uint32_t site_id,
                                              uint32_t size_log2, uint64_t word_address, const GlobalAccess& access,
                                              const GlobalRace& race) {
  const GlobalStampLayout layout{check->interval_bits};
  const GlobalStamp first = unpack_global_stamp(race.first, layout);
  const auto race_class =
      static_cast<uint32_t>(race_class_between(first.block, first.thread, access.stamp.block, access.stamp.thread));
  if (!first_global_report(check, global_race_filter_key(check->tag, race.first_site, site_id, race.hazard, race_class))) {
    return;
  }
  const WarpGroup alone = lane_alone();
  RecordHeader header = make_header(launch, RecordOp::kGlobalRace, alone.mask, site_id);
  header.space_sem = pack_space_sem(MemorySpace::kGlobal, MemorySemantics::kWeak, MemoryScope::kCta);
  header.size_mode = pack_size_mode(size_log2, AddressMode::kDelta32);
  header.base = word_address;
  Queue queue = block_queue(launch.producers);
  const uint32_t slots = record_slots(AddressMode::kDelta32);
  Reservation reservation = reserve_record(launch, alone, queue, slots, header, Tickets{});
  uint32_t payload[kGlobalRaceValue + 1] = {};
  payload[kGlobalRaceFirstBlock] = first.block;
  payload[kGlobalRaceFirstThread] = first.thread;
  payload[kGlobalRaceFirstSite] = race.first_site;
  payload[kGlobalRaceHazard] = static_cast<uint32_t>(race.hazard) | uint32_t{race.same_value} << 2;
  payload[kGlobalRaceValue] = race.same_value ? access.value : 0;
  // Payload slots may hold an older lap's bytes: every word is written.
  for (uint32_t slot = 0; slot < slots - 1; ++slot) {
    auto* slot_words = reinterpret_cast<uint32_t*>(queue.slot(reservation.record + 1 + slot));
    for (uint32_t w = 0; w < kSlotBytes / 4; ++w) {
      const uint32_t index = slot * (kSlotBytes / 4) + w;
      slot_words[w] = index <= kGlobalRaceValue ? payload[index] : 0;
    }
  }
  publish(queue, reservation, header);
}

// ---- one lane's access to one word -----------------------------------------------------------------

// The site kept in `field` for `stamp`. A stamp is swapped in before its site is stored: a site that
// does not match yet is read again for a while (the other access stores it next), then given up
// (kGlobalUnknownSite) rather than taken from another access.
__device__ __noinline__ uint32_t site_of(const uint32_t* field, uint64_t stamp, uint32_t seen) {
  uint32_t site = kept_global_site(seen, stamp);
  for (uint32_t attempt = 0; site == kGlobalUnknownSite && attempt < 1000; ++attempt) {
    __nanosleep(64);
    site = kept_global_site(load_relaxed_gpu_u32(field), stamp);
  }
  return site;
}

// Applies check_global_access to the word with atomics. The stamp the access changes is swapped in
// only if it still holds what the rule saw, else the rule runs again. A concurrent read and write
// both look for each other after their own update (with a fence in between, so at least one sees the
// other), and the read's entry decides which reports: whoever clears it from the shadow.
__device__ void check_global_word(const Launch& launch, const GlobalCheckLaunch* check, GlobalShadowWord* word,
                                  const GlobalAccess& access, uint32_t site_id, uint32_t size_log2,
                                  uint64_t word_address) {
  const GlobalStampLayout layout{check->interval_bits};
  const uint32_t tag = access.stamp.tag;
  for (;;) {
    GlobalShadowWord seen;
    seen.write = load_relaxed_gpu(&word->write);
    seen.readers[0] = load_relaxed_gpu(&word->readers[0]);
    seen.readers[1] = load_relaxed_gpu(&word->readers[1]);
    seen.value = load_relaxed_gpu(&word->value);
    seen.write_site = load_relaxed_gpu_u32(&word->write_site);
    seen.reader_sites[0] = load_relaxed_gpu_u32(&word->reader_sites[0]);
    seen.reader_sites[1] = load_relaxed_gpu_u32(&word->reader_sites[1]);
    seen.unused = 0;
    GlobalCheckOutcome outcome = check_global_access(seen, access, layout);
    // The race with the last write, if any, is always the first; its site before this access's own
    // (a write's) replaces it.
    if (outcome.race_count > 0 && outcome.races[0].hazard != Hazard::kWriteAfterRead) {
      outcome.races[0].first_site = site_of(&word->write_site, seen.write, seen.write_site);
    }
    if (access.write) {
      if (cas(&word->write, seen.write, outcome.next.write) != seen.write) continue;
      store_relaxed_u32(&word->write_site, outcome.next.write_site);
      if (outcome.next.value != seen.value) {
        atomicExch(reinterpret_cast<unsigned long long*>(&word->value), outcome.next.value);
      }
      if (outcome.race_count > 0 && outcome.races[0].hazard != Hazard::kWriteAfterRead) {
        send_global_race(launch, check, site_id, size_log2, word_address, access, outcome.races[0]);
      }
      __threadfence();
      // The write forgets the reads since the last one, and races with those of them it is concurrent
      // with (the rule's readers and any that came after it saw them) where it clears them itself.
      for (uint32_t r = 0; r < 2; ++r) {
        const uint64_t reader = load_relaxed_gpu(&word->readers[r]);
        if (!current_stamp(reader, tag)) continue;
        const uint32_t kept_site = load_relaxed_gpu_u32(&word->reader_sites[r]);
        if (cas(&word->readers[r], reader, 0) == reader && global_concurrent(reader, access.stamp, layout)) {
          send_global_race(launch, check, site_id, size_log2, word_address, access,
                           {hazard_between(false, false, true, false), reader,
                            site_of(&word->reader_sites[r], reader, kept_site), false});
        }
      }
      return;
    }
    const uint32_t changed = outcome.next.readers[0] != seen.readers[0]   ? 0
                             : outcome.next.readers[1] != seen.readers[1] ? 1
                                                                          : 2;
    // Unchanged (the entries serve every later write already): no atomics at all, as for a tile row
    // every block reads.
    if (changed < 2) {
      const uint64_t mine = outcome.next.readers[changed];
      if (cas(&word->readers[changed], seen.readers[changed], mine) != seen.readers[changed]) continue;
      store_relaxed_u32(&word->reader_sites[changed], outcome.next.reader_sites[changed]);
      __threadfence();
      const uint64_t write = load_relaxed_gpu(&word->write);
      // A write that came after the rule looked: it races with this read unless it cleared the entry
      // first (then it reports the pair itself).
      if (write != seen.write && current_stamp(write, tag) && global_concurrent(write, access.stamp, layout) &&
          cas(&word->readers[changed], mine, 0) == mine) {
        send_global_race(launch, check, site_id, size_log2, word_address, access,
                         {hazard_between(true, false, false, false), write,
                          site_of(&word->write_site, write, load_relaxed_gpu_u32(&word->write_site)), false});
      }
    }
    for (uint32_t r = 0; r < outcome.race_count; ++r) {
      send_global_race(launch, check, site_id, size_log2, word_address, access, outcome.races[r]);
    }
    return;
  }
}

// Every lane of `lanes` (the warp's lanes reading this word in one instruction and one interval, more
// than one): as check_global_word, but the lowest lane reads and updates the shadow once for all of
// them (apply_global_read_lanes; see check_word_read_lanes). Each lane sends its own race with the last
// write; each lane entered as a reader looks for a write that came after, as check_global_word's reads.
__device__ void check_global_word_read_lanes(const Launch& launch, const GlobalCheckLaunch* check,
                                             GlobalShadowWord* word, const GlobalAccess& access, uint32_t lanes,
                                             uint32_t site_id, uint32_t size_log2, uint64_t word_address) {
  const GlobalStampLayout layout{check->interval_bits};
  const uint32_t tag = access.stamp.tag;
  const uint32_t leader = lowest_lane(lanes);
  const uint32_t lane = lane_id();
  const uint32_t warp_base = access.stamp.thread - lane;
  for (;;) {
    GlobalShadowWord seen{};
    if (lane == leader) {
      seen.write = load_relaxed_gpu(&word->write);
      seen.readers[0] = load_relaxed_gpu(&word->readers[0]);
      seen.readers[1] = load_relaxed_gpu(&word->readers[1]);
      seen.write_site = load_relaxed_gpu_u32(&word->write_site);
      seen.reader_sites[0] = load_relaxed_gpu_u32(&word->reader_sites[0]);
      seen.reader_sites[1] = load_relaxed_gpu_u32(&word->reader_sites[1]);
    }
    seen.write = from_lane(lanes, seen.write, leader);
    seen.readers[0] = from_lane(lanes, seen.readers[0], leader);
    seen.readers[1] = from_lane(lanes, seen.readers[1], leader);
    seen.write_site = __shfl_sync(lanes, seen.write_site, static_cast<int>(leader));
    seen.reader_sites[0] = __shfl_sync(lanes, seen.reader_sites[0], static_cast<int>(leader));
    seen.reader_sites[1] = __shfl_sync(lanes, seen.reader_sites[1], static_cast<int>(leader));
    const GlobalShadowWord next = apply_global_read_lanes(seen, access, lanes, warp_base, layout);
    bool applied = true;
    uint64_t write_after = seen.write;
    if (lane == leader) {
      for (uint32_t r = 0; r < 2 && applied; ++r) {
        if (next.readers[r] == seen.readers[r]) continue;
        applied = cas(&word->readers[r], seen.readers[r], next.readers[r]) == seen.readers[r];
        if (applied) store_relaxed_u32(&word->reader_sites[r], next.reader_sites[r]);
      }
      if (applied && (next.readers[0] != seen.readers[0] || next.readers[1] != seen.readers[1])) {
        __threadfence();
        write_after = load_relaxed_gpu(&word->write);
      }
    }
    if (!__shfl_sync(lanes, applied, static_cast<int>(leader))) continue;
    write_after = from_lane(lanes, write_after, leader);
    // The race with the last write, if any (a read forms no other).
    GlobalCheckOutcome own = check_global_access(seen, access, layout);
    if (own.race_count > 0) {
      own.races[0].first_site = site_of(&word->write_site, seen.write, seen.write_site);
      send_global_race(launch, check, site_id, size_log2, word_address, access, own.races[0]);
    }
    const uint64_t me = pack_global_stamp(access.stamp, layout);
    for (uint32_t r = 0; r < 2; ++r) {
      if (next.readers[r] != me || seen.readers[r] == me) continue;
      // A write the leader found after its fence, which came after the rule looked: it races with this
      // read unless it cleared the entry first.
      if (write_after != seen.write && current_stamp(write_after, tag) &&
          global_concurrent(write_after, access.stamp, layout) && cas(&word->readers[r], me, 0) == me) {
        send_global_race(launch, check, site_id, size_log2, word_address, access,
                         {hazard_between(true, false, false, false), write_after,
                          site_of(&word->write_site, write_after, load_relaxed_gpu_u32(&word->write_site)), false});
      }
    }
    return;
  }
}

// Every lane of the access's group (`enabled` the same in all): checks the lanes of a kAccessDeviceGlobal
// access whose global address lies in one of the launch's ranges, among those of `group` (the lanes the
// shared check left; a lane outside it returns at once). Returns the lanes checked (same in every lane
// of `group`); the others are logged.
__device__ __noinline__ uint32_t check_global_lanes(bool enabled, const Launch& launch, const WarpGroup& group,
                                                    uint64_t address, uint8_t space_sem, uint32_t access_info,
                                                    uint64_t value, uint32_t site_id) {
  if (!enabled || !(group.mask >> group.lane & 1u)) return 0;
  const GlobalCheckLaunch* check = global_check_of(launch.slot);
  const GlobalCheckRange* range = nullptr;
  if (space_of(space_sem) == MemorySpace::kGlobal) {
    for (uint32_t r = 0; r < check->range_count; ++r) {
      if (address >= check->ranges[r].begin && address < check->ranges[r].end) {
        range = &check->ranges[r];
        break;
      }
    }
  }
  const uint32_t checked = __ballot_sync(group.mask, range != nullptr);
  if (range == nullptr) return checked;
  const RecordOp op = access_info_op(access_info);
  const bool write = op == RecordOp::kStore;
  const uint32_t size_log2 = access_info_size_log2(access_info);
  const uint32_t bytes = 1u << size_log2;
  const uint32_t lane = group.lane;
  const CheckedLanes lanes =
      checked_lanes(checked, lane, address, write && (access_info & kAccessHasValue) != 0, value, bytes);
  const SharedLaneRole& role = lanes.role;
  const uint32_t interval = global_interval(check);
  // Loads of one word by several lanes in one interval: checked together (`write` is the
  // instruction's, the same in every lane).
  const uint32_t read_together =
      write ? 0 : __match_any_sync(checked, address & ~uint64_t{3}) & __match_any_sync(checked, interval);
  if (role.checks) {
    const uint32_t thread = thread_in_block();
    const uint32_t warp_base = thread - lane;
    const GlobalAccess access{{check->tag, linear_block_id(), interval, thread},
                              site_id,
                              write,
                              warp_base + role.last_writer_lane,
                              lanes.uniform,
                              static_cast<uint32_t>(value),
                              role.same_instruction_lanes};
    auto* shadow = reinterpret_cast<GlobalShadowWord*>(range->shadow);
    // Sub-word loads check the word they lie in (stores are 4 bytes or more in checked kernels).
    const uint64_t first = address & ~uint64_t{3};
    for (uint64_t word = first; word < address + bytes && word < range->end; word += 4) {
      if (__popc(read_together) > 1) {
        check_global_word_read_lanes(launch, check, &shadow[(word - range->begin) / 4], access, read_together, site_id,
                                     size_log2, word);
      } else {
        check_global_word(launch, check, &shadow[(word - range->begin) / 4], access, site_id, size_log2, word);
      }
    }
  }
  return checked;
}
