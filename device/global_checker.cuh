// Device checking of global memory in barrier-only kernels (barracuda/global_check.h: the rule;
// global_check_launch.h: what the host gives a launch). Part of the device runtime's translation unit:
// runtime.cu includes it inside its anonymous namespace, after shared_checker.cuh, whose helpers it
// uses.
//
// Per launch with LaunchSlot::global_check set, in kernels the instrumentation found barrier-only for
// global memory (their global and generic loads, stores and atomics carry kAccessDeviceGlobal):
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

__device__ __forceinline__ GlobalStampLayout layout_of(const GlobalCheckLaunch* check) {
  return unpack_global_stamp_layout(check->layout);
}

__device__ __forceinline__ void mark_saturated(const GlobalCheckLaunch* check) {
  if (!check->saturated) atomicExch(const_cast<uint32_t*>(&check->saturated), 1u);
}

// Every lane of a block barrier's group, before it waits: one more barrier interval. Past what the
// stamps' interval bits hold, the stamps stay at their last interval (global_interval) and the launch
// says so; the count goes on for kBarriersPassed (barrier_counter.cuh).
__device__ __forceinline__ void count_global_barrier(const LaunchSlot* launch) {
  const GlobalCheckLaunch* check = global_check_of(launch);
  const uint32_t passed = global_barriers_passed(check);
  const GlobalStampLayout layout = layout_of(check);
  if (layout.grid_bits == 0 && passed >= layout.max_interval()) mark_saturated(check);
  if (passed == ~0u) return;
  *barrier_word(check) = uint64_t{check->tag} << kGlobalBarrierCountBits | (passed + 1);
}

__device__ __forceinline__ uint64_t* block_grid_syncs_word(const GlobalCheckLaunch* check) {
  return reinterpret_cast<uint64_t*>(check->block_barriers) + uint64_t{kBlockBarrierWords} * linear_block_id() +
         kBlockGridSyncsWord;
}

// Thread 0 of a block at a grid sync's arrival (after the sync's opening barrier, before its closing
// one): the block's threads start their next grid interval at that closing barrier.
__device__ __forceinline__ void note_grid_sync_arrival(const GlobalCheckLaunch* check) {
  const GlobalStampLayout layout = layout_of(check);
  if (layout.grid_bits == 0) return;
  uint64_t* word = block_grid_syncs_word(check);
  const BlockGridSyncs now = unpack_block_grid_syncs(*word, check->tag);
  if (now.syncs >= layout.max_grid()) return;  // past the largest grid interval the barriers count on
  *word = pack_block_grid_syncs(check->tag, {now.syncs + 1, global_barriers_passed(check) + 1});
}

// The calling thread's interval as its stamps hold it: its block barriers, or, in a kernel with grid
// syncs, its block's grid syncs and its barriers since the last.
__device__ __forceinline__ uint32_t global_interval(const GlobalCheckLaunch* check) {
  const GlobalStampLayout layout = layout_of(check);
  const uint32_t passed = global_barriers_passed(check);
  if (layout.grid_bits == 0) return min(passed, layout.max_interval());
  const BlockGridSyncs grid = unpack_block_grid_syncs(*block_grid_syncs_word(check), check->tag);
  // Before its closing barrier (thread 0 spinning) the thread is not in the new interval yet: it
  // checks no access there, and one that did would not be compared within its block.
  const uint32_t within = passed >= grid.base ? passed - grid.base : layout.max_barriers();
  if (passed >= grid.base && (within >= layout.max_barriers() || grid.syncs >= layout.max_grid())) mark_saturated(check);
  return layout.interval_of(grid.syncs, within);
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
  const GlobalStampLayout layout = layout_of(check);
  const GlobalStamp first = unpack_global_stamp(race.first, layout);
  const auto race_class =
      static_cast<uint32_t>(race_class_between(first.block, first.thread, access.stamp.block, access.stamp.thread));
  if (!first_global_report(check, global_race_filter_key(check->tag, race.first_site, site_id, race.hazard, race_class, race.same_value))) {
    return;
  }
  const WarpGroup alone = lane_alone();
  RecordHeader header = make_header(launch, RecordOp::kGlobalRace, alone.mask, site_id);
  header.flags = race_record_flags(race.hazard, race.first_op, global_access_op(access));
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

// The word's shadow as one lane sees it, field by field: what the rule reads for `access` (the last
// plain write, the entries of the views reads_view names and their sites, the value for a plain write);
// the other fields stay 0.
__device__ __forceinline__ GlobalShadowWord load_global_word(const GlobalShadowWord* word, const GlobalAccess& access) {
  GlobalShadowWord seen{};
  seen.write = load_relaxed_gpu(&word->write);
  seen.write_site = load_relaxed_gpu_u32(&word->write_site);
  for (uint32_t e = 0; e < kGlobalEntries; ++e) {
    if (!reads_view(view_of_entry(e), access)) continue;
    seen.entries[e] = load_relaxed_gpu(&word->entries[e]);
    seen.entry_sites[e] = load_relaxed_gpu_u32(&word->entry_sites[e]);
  }
  if (plain_write(access)) seen.value = load_relaxed_gpu(&word->value);
  return seen;
}

// The race of `access` with the access whose stamp `first` is kept in `field` (its site in `site`).
__device__ void send_global_race_with(const Launch& launch, const GlobalCheckLaunch* check, uint32_t site_id,
                                      uint32_t size_log2, uint64_t word_address, const GlobalAccess& access,
                                      Hazard hazard, uint64_t first, AccessOp first_op, const uint32_t* site) {
  send_global_race(launch, check, site_id, size_log2, word_address, access,
                   {hazard, first, site_of(site, first, load_relaxed_gpu_u32(site)), false, first_op});
}

// An access just kept in entry `entry` (`mine`), against what came after the rule looked at `seen`:
// the stamps read again after the access's fence (by this lane, after its own fence or, for lanes kept
// together, after their leader's and the shuffle that follows it). A plain write clears the entries it
// sees and reports those pairs itself, so the access reports a later plain write only if it clears
// its entry first. An access of a conflicting view kept meanwhile (both looked before either was kept;
// one of them sees the other after its fence) is reported, and both may report it: the launch's
// filter and the host keep one.
__device__ __noinline__ void check_global_after(const Launch& launch, const GlobalCheckLaunch* check,
                                                GlobalShadowWord* word, const GlobalAccess& access, uint32_t entry,
                                                uint64_t mine, const GlobalShadowWord& seen, uint32_t site_id,
                                                uint32_t size_log2, uint64_t word_address) {
  const GlobalStampLayout layout = layout_of(check);
  const uint32_t tag = access.stamp.tag;
  const uint64_t write = load_relaxed_gpu(&word->write);
  if (write != seen.write && current_stamp(write, tag) && global_concurrent(write, access.stamp, layout) &&
      cas(&word->entries[entry], mine, 0) == mine) {
    send_global_race_with(launch, check, site_id, size_log2, word_address, access,
                          hazard_between(true, false, access.write, access.write), write, AccessOp::kWrite,
                          &word->write_site);
  }
  for (uint32_t e = 0; e < kGlobalEntries; ++e) {
    const GlobalView view = view_of_entry(e);
    if (!view_conflicts(view, access)) continue;
    const uint64_t kept = load_relaxed_gpu(&word->entries[e]);
    if (kept != seen.entries[e] && current_stamp(kept, tag) && global_concurrent(kept, access.stamp, layout)) {
      send_global_race_with(launch, check, site_id, size_log2, word_address, access, view_hazard(view, access), kept,
                            view_op(view), &word->entry_sites[e]);
    }
  }
}

// Sends the races the rule finds against the shadow as seen (only the one with the last plain write
// where `only_last_write`), that one with its site read for the stamp it names.
__device__ __noinline__ void send_global_races(const Launch& launch, const GlobalCheckLaunch* check,
                                               GlobalShadowWord* word, const GlobalAccess& access,
                                               const GlobalShadowWord& seen, bool only_last_write, uint32_t site_id,
                                               uint32_t size_log2, uint64_t word_address) {
  for_each_global_race(seen, access, layout_of(check),
                       [&](const GlobalRace& race, bool with_last_write) {
                         if (only_last_write && !with_last_write) return;
                         GlobalRace sent = race;
                         if (with_last_write) sent.first_site = site_of(&word->write_site, seen.write, seen.write_site);
                         send_global_race(launch, check, site_id, size_log2, word_address, access, sent);
                       });
}

// Applies check_global_access to the word with atomics. The stamp the access changes is swapped in
// only if it still holds what the rule saw, else the rule runs again. An access and a concurrent one
// it conflicts with both look for each other after their own update (with a fence in between, so at
// least one sees the other); a plain write and an entry it clears settle who reports by the clearing.
// An access its view does not keep (the entries serve every later access already) changes nothing:
// no atomics at all, as for a tile row every block reads or a counter every thread adds to.
__device__ __noinline__ void check_global_word(const Launch& launch, const GlobalCheckLaunch* check, GlobalShadowWord* word,
                                               const GlobalAccess& access, uint32_t site_id, uint32_t size_log2,
                                               uint64_t word_address) {
  const GlobalStampLayout layout = layout_of(check);
  const uint32_t tag = access.stamp.tag;
  for (;;) {
    GlobalShadowWord seen = load_global_word(word, access);
    if (lags_written_value(seen, access, layout)) seen.value = await_written_value(&word->value, tag, seen.value);
    if (plain_write(access)) {
      // The last write's site, read before this write's own replaces it.
      if (current_stamp(seen.write, tag)) {
        seen.write_site = pack_global_site(site_of(&word->write_site, seen.write, seen.write_site), seen.write);
      }
      const GlobalWriteUpdate update = global_write_update(access, layout);
      if (cas(&word->write, seen.write, update.stamp) != seen.write) continue;
      store_relaxed_u32(&word->write_site, update.site);
      if (update.value != seen.value) atomicExch(reinterpret_cast<unsigned long long*>(&word->value), update.value);
      send_global_races(launch, check, word, access, seen, true, site_id, size_log2, word_address);
      __threadfence();
      // The write forgets the entries, and races with those it is concurrent with (the rule's and any
      // kept after it looked) where it clears them itself.
      for (uint32_t e = 0; e < kGlobalEntries; ++e) {
        const uint64_t earlier = load_relaxed_gpu(&word->entries[e]);
        if (!current_stamp(earlier, tag)) continue;
        const uint32_t kept_site = load_relaxed_gpu_u32(&word->entry_sites[e]);
        if (cas(&word->entries[e], earlier, 0) == earlier && global_concurrent(earlier, access.stamp, layout)) {
          send_global_race(launch, check, site_id, size_log2, word_address, access,
                           {view_hazard(view_of_entry(e), access), earlier,
                            site_of(&word->entry_sites[e], earlier, kept_site), false, view_op(view_of_entry(e))});
        }
      }
      return;
    }
    const GlobalEntryUpdate update = global_entry_update(seen, access, layout);
    if (update.entry != kNoEntry) {
      const uint64_t before = seen.entries[update.entry];
      if (cas(&word->entries[update.entry], before, update.stamp) != before) continue;
      store_relaxed_u32(&word->entry_sites[update.entry], update.site);
      __threadfence();
      check_global_after(launch, check, word, access, update.entry, update.stamp, seen, site_id, size_log2,
                         word_address);
    }
    send_global_races(launch, check, word, access, seen, false, site_id, size_log2, word_address);
    return;
  }
}

// Every lane of `lanes` (the warp's lanes of one load, relaxed load or atomic on this word in one
// interval, more than one): as check_global_word, but the lowest lane reads and updates the shadow
// once for all of them (apply_global_lanes; see check_shared_read_lanes). Each lane sends its own races
// against the shadow as seen; each lane kept in an entry looks for what came after its leader's fence.
__device__ __noinline__ void check_global_word_lanes(const Launch& launch, const GlobalCheckLaunch* check,
                                                     GlobalShadowWord* word, const GlobalAccess& access, uint32_t lanes,
                                                     uint32_t site_id, uint32_t size_log2, uint64_t word_address) {
  const GlobalStampLayout layout = layout_of(check);
  const uint32_t leader = lowest_lane(lanes);
  const uint32_t lane = lane_id();
  const uint32_t warp_base = access.stamp.thread - lane;
  const uint32_t first = first_entry(view_of(access));
  for (;;) {
    GlobalShadowWord seen{};
    if (lane == leader) seen = load_global_word(word, access);
    seen.write = from_lane(lanes, seen.write, leader);
    seen.write_site = __shfl_sync(lanes, seen.write_site, static_cast<int>(leader));
    for (uint32_t e = 0; e < kGlobalEntries; ++e) {
      if (!reads_view(view_of_entry(e), access)) continue;
      seen.entries[e] = from_lane(lanes, seen.entries[e], leader);
      seen.entry_sites[e] = __shfl_sync(lanes, seen.entry_sites[e], static_cast<int>(leader));
    }
    // The lanes' view entries before and after, in place in `seen` (one shadow word less on the stack,
    // which every thread of an instrumented launch reserves), then `seen` as it was.
    const uint64_t before[2] = {seen.entries[first], seen.entries[first + 1]};
    const uint32_t before_sites[2] = {seen.entry_sites[first], seen.entry_sites[first + 1]};
    apply_global_lanes(seen, access, lanes, warp_base, layout);
    const uint64_t after[2] = {seen.entries[first], seen.entries[first + 1]};
    const uint32_t after_sites[2] = {seen.entry_sites[first], seen.entry_sites[first + 1]};
    for (uint32_t r = 0; r < 2; ++r) {
      seen.entries[first + r] = before[r];
      seen.entry_sites[first + r] = before_sites[r];
    }
    bool applied = true;
    if (lane == leader) {
      bool entered = false;
      for (uint32_t r = 0; r < 2 && applied; ++r) {
        if (after[r] == before[r]) continue;
        entered = true;
        applied = cas(&word->entries[first + r], before[r], after[r]) == before[r];
        if (applied) store_relaxed_u32(&word->entry_sites[first + r], after_sites[r]);
      }
      if (applied && entered) __threadfence();
    }
    if (!__shfl_sync(lanes, applied, static_cast<int>(leader))) continue;
    send_global_races(launch, check, word, access, seen, false, site_id, size_log2, word_address);
    const uint64_t me = pack_global_stamp(access.stamp, layout);
    for (uint32_t r = 0; r < 2; ++r) {
      if (after[r] != me || before[r] == me) continue;
      check_global_after(launch, check, word, access, first + r, me, seen, site_id, size_log2, word_address);
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
  // An atomic is a strong write, a relaxed load a strong read (global_access_strong).
  const bool write = op != RecordOp::kLoad;
  const bool strong = global_access_strong(op, space_sem);
  const uint32_t size_log2 = access_info_size_log2(access_info);
  const uint32_t bytes = 1u << size_log2;
  const uint32_t lane = group.lane;
  const CheckedLanes lanes = checked_lanes(checked, lane, address,
                                           op == RecordOp::kStore && (access_info & kAccessHasValue) != 0, value, bytes);
  const SharedLaneRole& role = lanes.role;
  const uint32_t interval = global_interval(check);
  // Loads or atomics of one word by several lanes in one interval: checked together (`op` is the
  // instruction's, the same in every lane).
  const uint32_t together = op == RecordOp::kStore ? 0
                                                   : __match_any_sync(checked, address & ~uint64_t{3}) &
                                                         __match_any_sync(checked, interval);
  if (role.checks) {
    const uint32_t thread = thread_in_block();
    const uint32_t warp_base = thread - lane;
    const GlobalAccess access{{check->tag, linear_block_id(), interval, thread, strong},
                              site_id,
                              write,
                              warp_base + role.last_writer_lane,
                              lanes.uniform,
                              static_cast<uint32_t>(value),
                              role.same_instruction_lanes};
    auto* shadow = reinterpret_cast<GlobalShadowWord*>(range->shadow);
    // Sub-word loads check the word they lie in (stores and atomics are 4 bytes or more in checked
    // kernels).
    const uint64_t first = address & ~uint64_t{3};
    for (uint64_t word = first; word < address + bytes && word < range->end; word += 4) {
      if (__popc(together) > 1) {
        check_global_word_lanes(launch, check, &shadow[(word - range->begin) / 4], access, together, site_id,
                                size_log2, word);
      } else {
        check_global_word(launch, check, &shadow[(word - range->begin) / 4], access, site_id, size_log2, word);
      }
    }
  }
  return checked;
}
