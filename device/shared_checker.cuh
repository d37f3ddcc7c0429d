// Device checking of a block's shared memory (barracuda/shared_check.h: the rule; shared_check_pool.h:
// the shadow pool). Part of the device runtime's translation unit: runtime.cu includes it inside its
// anonymous namespace, after the queue helpers it sends races with, so the runtime stays one
// relocatable PTX with one register budget.
//
// Per launch with checking on (QueueProducerHeader::shared_pool_rows != 0), in kernels the
// instrumentation found barrier-only (their entry/exit call __barracuda_shared_check_begin/end, their
// shared and generic loads and stores carry kAccessDeviceShared):
//   begin   the warp finds or claims its block's slot in its SM's row and starts its threads' epochs at
//           the block's first;
//   barrier each lane counts the block barrier it is about to wait at (barrier records still go to the host);
//   access  each shared lane is checked against the slot's shadow, word by word; races go to the host
//           as kSharedRace records, each site pair once per launch (the pool's race filter);
//   end     the warp that counts the block's last thread out frees the slot.

__device__ __forceinline__ uint32_t hardware_warp_id() {
  uint32_t warp;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(warp));
  return warp;
}

__device__ __forceinline__ uint32_t total_shared_bytes() {
  uint32_t bytes;
  asm("mov.u32 %0, %%total_smem_size;" : "=r"(bytes));
  return bytes;
}

__device__ __forceinline__ uint32_t thread_in_block() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

// Written by other warps of the SM (under the row lock): read from L2, never from a stale L1 line.
__device__ __forceinline__ uint64_t load_cg(const uint64_t* address) {
  return __ldcg(reinterpret_cast<const unsigned long long*>(address));
}
__device__ __forceinline__ uint32_t load_cg(const uint32_t* address) { return __ldcg(address); }
__device__ __forceinline__ uint64_t cas(uint64_t* address, uint64_t expected, uint64_t desired) {
  return atomicCAS(reinterpret_cast<unsigned long long*>(address), expected, desired);
}

// The value a uniform store left beside a stamp it swapped in just before (lags_written_value):
// waits a moment for a value tagged `tag` (the interval's epoch, the launch's tag), as site_of does for
// a site. A write that stores none (not uniform), or a value not seen in time, leaves `seen`, which the
// rule then takes for a different value: a race is never made a warning by a value it could not see.
__device__ __noinline__ uint64_t await_written_value(const uint64_t* value_field, uint32_t tag, uint64_t seen) {
  for (uint32_t attempt = 0; !same_epoch(seen, tag) && attempt < 1000; ++attempt) {
    __nanosleep(64);
    seen = load_relaxed_gpu(value_field);
  }
  return seen;
}

// The SM's row of the pool; null when checking is off in this launch or the SM id is past the rows.
__device__ SharedPoolRow* shared_pool_row(const LaunchSlot* launch) {
  const uint32_t sm = sm_id();
  if (launch->shared_pool_rows == 0 || sm >= launch->shared_pool_rows) return nullptr;
  return reinterpret_cast<SharedPoolRow*>(launch->shared_pool + shared_pool_rows_offset() +
                                          sm * launch->shared_pool_row_bytes);
}

// A block's place in its row, and its shadow when the row holds one for it.
struct SharedSlot {
  SharedPoolRow* row = nullptr;
  uint32_t index = 0;
  uint32_t* epochs = nullptr;  // by block-linear thread: the block's first epoch plus the barriers it passed
  SharedShadowWord* words = nullptr;
  uint32_t word_count = 0;
  __device__ bool has_shadow() const { return words != nullptr; }
};
__device__ __forceinline__ uint32_t padded_block_threads() {
  return (blockDim.x * blockDim.y * blockDim.z + kWarpSize - 1) / kWarpSize * kWarpSize;
}
__device__ __forceinline__ uint32_t shadowed_window_bytes() { return total_shared_bytes() + kSharedWindowSlackBytes; }

__device__ __forceinline__ uint64_t launch_slot_bytes() {
  return shared_slot_bytes(padded_block_threads(), shadowed_window_bytes());
}

// The slot at `index` of `row` as its claimer laid it out for this launch.
__device__ SharedSlot slot_at(const LaunchSlot* launch, SharedPoolRow* row, uint32_t index) {
  SharedSlot slot;
  slot.row = row;
  slot.index = index;
  if (index >= kSharedSlotsPerRow) return slot;
  const uint64_t offset = shared_slot_offset(launch->shared_pool_row_bytes, launch_slot_bytes(), index);
  if (offset == 0) return slot;
  char* base = reinterpret_cast<char*>(row) + offset;
  slot.epochs = reinterpret_cast<uint32_t*>(base);
  slot.words = reinterpret_cast<SharedShadowWord*>(base + shared_slot_bytes(padded_block_threads(), 0));
  slot.word_count = shadowed_window_bytes() / 4;
  return slot;
}

// The calling warp's block's slot, as __barracuda_shared_check_begin recorded it; row null when the
// block is not checked here.
__device__ SharedSlot block_slot(const LaunchSlot* launch) {
  SharedPoolRow* row = shared_pool_row(launch);
  if (row == nullptr) return {};
  const uint64_t entry = load_cg(&row->warp_slot[hardware_warp_id()]);
  if ((entry & kSharedBlockKeyMask) != shared_block_key(launch->launch_id, linear_block_id())) return {};
  return slot_at(launch, row, static_cast<uint32_t>(entry >> 48) & 0x3f);
}

// The slot another warp of the block claimed already, or kSharedSlotsPerRow. Needs no lock: a claim
// publishes the owner last (after a fence), and the key names one block of one launch.
__device__ uint32_t find_slot(SharedPoolRow* row, uint64_t key) {
  for (uint32_t i = 0; i < kSharedSlotsPerRow; ++i) {
    if (load_cg(&row->owner[i]) == key) {
      __threadfence();  // the slot's fields, written before its owner
      return i;
    }
  }
  return kSharedSlotsPerRow;
}

// Leader only, holding the row lock: the block's slot, claimed when its first warp arrives. A row
// serves one SM, which holds at most kSharedSlotsPerRow blocks, and every block frees its slot. Slots
// are of one size for this launch's blocks (shared_slot_offset): as many as the row holds, the rest
// host-checked.
__device__ uint32_t claim_slot(SharedPoolRow* row, uint64_t key) {
  uint32_t free_slot = kSharedSlotsPerRow;
  for (uint32_t i = 0; i < kSharedSlotsPerRow; ++i) {
    const uint64_t owner = load_cg(&row->owner[i]);
    if (owner == key) return i;
    if (owner == 0 && free_slot == kSharedSlotsPerRow) free_slot = i;
  }
  if (free_slot == kSharedSlotsPerRow) return free_slot;  // not expected: the block is checked on the host
  __threadfence();  // a freeing warp moved the clock before the owner it found empty
  const uint32_t clock = load_cg(&row->epoch_clock);
  row->first_epoch[free_slot] = clock == 0 ? 1 : clock;
  row->exited_threads[free_slot] = 0;
  row->last_interval[free_slot] = 0;
  __threadfence();  // find_slot reads the fields once it sees the owner
  row->owner[free_slot] = key;
  return free_slot;
}

// ---- races ----------------------------------------------------------------------------------------

// Whether the launch has not sent this pair yet (a full neighbourhood of the filter sends it again).
__device__ bool first_report(const LaunchSlot* launch, uint64_t key) {
  auto* filter = reinterpret_cast<uint64_t*>(launch->shared_pool);
  const uint32_t home = static_cast<uint32_t>((key * 0x9E3779B97F4A7C15ull) >> 52);
  for (uint32_t probe = 0; probe < 8; ++probe) {
    const uint64_t seen = cas(&filter[(home + probe) % kSharedRaceFilterEntries], 0, key);
    if (seen == 0) return true;
    if (seen == key) return false;
  }
  return true;
}

// The calling lane alone sends a race its access formed (rare: not inlined into the checks).
__device__ __noinline__ void send_race(const Launch& launch, uint32_t site_id, uint32_t size_log2, uint32_t offset,
                          const SharedAccess& access, const SharedRace& race) {
  const bool intra_warp = race.first.thread / kWarpSize == access.stamp.thread / kWarpSize;
  if (!first_report(launch.slot, shared_race_filter_key(race.first.site, site_id, race.hazard, intra_warp, race.same_value))) return;
  const WarpGroup alone = lane_alone();
  RecordHeader header = make_header(launch, RecordOp::kSharedRace, alone.mask, site_id);
  header.flags = race_record_flags(race.hazard, race.first_op, access_op(access.write, access.stamp.atomic));
  header.space_sem = pack_space_sem(MemorySpace::kShared, MemorySemantics::kWeak, MemoryScope::kCta);
  header.size_mode = pack_size_mode(size_log2, AddressMode::kAffine);
  header.stride = static_cast<int32_t>(race.first.site);
  header.base = pack_shared_race_base(
      {offset, race.first.thread, race.first.site, race.hazard, race.same_value, race.same_value ? access.value : 0});
  log_header_only(launch, alone, header);
}

// ---- one lane's access to one word -----------------------------------------------------------------

// The word's shadow as one lane sees it: what the rule reads for this access (the value
// only for a plain write; the other fields stay 0).
__device__ __forceinline__ SharedShadowWord load_shared_word(const SharedShadowWord* word, bool plain_write) {
  SharedShadowWord seen{};
  seen.write = load_relaxed_gpu(&word->write);
  seen.readers[0] = load_relaxed_gpu(&word->readers[0]);
  seen.readers[1] = load_relaxed_gpu(&word->readers[1]);
  seen.atomics[0] = load_relaxed_gpu(&word->atomics[0]);
  seen.atomics[1] = load_relaxed_gpu(&word->atomics[1]);
  if (plain_write) seen.value = load_relaxed_gpu(&word->value);
  return seen;
}

// A kept access of another thread in this interval that was not in `seen_entries` when the rule
// looked (it came after), as the first access of a race with `access` (`hazard`).
__device__ void send_late_races(const Launch& launch, uint64_t* entries, const uint64_t (&seen_entries)[2],
                                const SharedAccess& access, Hazard hazard, bool clear, uint32_t site_id,
                                uint32_t size_log2, uint32_t offset) {
  const uint32_t epoch = access.stamp.epoch;
  for (uint32_t r = 0; r < 2; ++r) {
    uint64_t* entry = entries + r;
    const uint64_t kept = load_relaxed_gpu(entry);
    if (!same_epoch(kept, epoch)) continue;
    const bool late = kept != seen_entries[0] && kept != seen_entries[1];
    if (late && unpack_stamp(kept).thread != access.stamp.thread) {
      const SharedStamp first = unpack_stamp(kept);  // a read or an atomic
      send_race(launch, site_id, size_log2, offset, access,
                {hazard, first, false, first.atomic ? AccessOp::kAtomic : AccessOp::kRead});
    }
    if (clear) cas(entry, kept, 0);
  }
}

// Applies the rule (for_each_shared_race, apply_shared_access) to the word with atomics: the field the access changes is swapped in
// only if it still holds what the rule saw, else the rule runs again. Conflicting accesses of two
// threads on one word in one interval race whatever the order, so each access kept re-reads, after its
// own update and a fence, the fields it conflicts with: of two concurrent accesses at least one sees
// the other. A read or an atomic its view does not keep (two other threads hold it) changes nothing
// and looks no further: a concurrent access it conflicts with finds one of those two.
__device__ __noinline__ void check_shared_word(const Launch& launch, SharedShadowWord* word, const SharedAccess& access,
                           uint32_t site_id, uint32_t size_log2, uint32_t offset) {
  const bool atomic = access.stamp.atomic;
  const bool plain_write = access.write && !atomic;
  for (;;) {
    SharedShadowWord seen = load_shared_word(word, plain_write);
    const uint32_t epoch = access.stamp.epoch;
    if (plain_write) {
      if (lags_written_value(seen, access)) seen.value = await_written_value(&word->value, epoch, seen.value);
      if (cas(&word->write, seen.write, shared_write_stamp(access)) != seen.write) continue;
      const uint64_t value = shared_write_value(access);
      if (value != seen.value) atomicExch(reinterpret_cast<unsigned long long*>(&word->value), value);
      __threadfence();
      // The write forgets the reads and atomics of its interval (those of earlier ones are stale
      // already). One that slipped in after the rule looked is a race too; one that comes after this
      // clears finds the write when it re-reads it.
      send_late_races(launch, word->readers, seen.readers, access, Hazard::kWriteAfterRead, true, site_id, size_log2,
                      offset);
      send_late_races(launch, word->atomics, seen.atomics, access, Hazard::kAtomicPlain, true, site_id, size_log2,
                      offset);
    } else {
      uint64_t* entries = atomic ? word->atomics : word->readers;
      const uint64_t(&seen_entries)[2] = atomic ? seen.atomics : seen.readers;
      uint64_t next_entries[2] = {seen_entries[0], seen_entries[1]};
      join_view(next_entries, seen_entries, pack_stamp(access.stamp), epoch, access.stamp.thread);
      const uint32_t changed = next_entries[0] != seen_entries[0] ? 0 : 1;
      if (next_entries[changed] != seen_entries[changed]) {
        if (cas(&entries[changed], seen_entries[changed], next_entries[changed]) != seen_entries[changed]) continue;
        if (changed == 0 && next_entries[1] != seen_entries[1]) cas(&entries[1], seen_entries[1], 0);
        __threadfence();
        const uint64_t write = load_relaxed_gpu(&word->write);
        if (write != seen.write && same_epoch(write, epoch) && unpack_stamp(write).thread != access.stamp.thread) {
          send_race(launch, site_id, size_log2, offset, access,
                    {hazard_between(true, false, atomic, atomic), unpack_stamp(write), false, AccessOp::kWrite});
        }
        // A read looks for atomics kept after it looked, an atomic for reads.
        send_late_races(launch, atomic ? word->readers : word->atomics, atomic ? seen.readers : seen.atomics, access,
                        Hazard::kAtomicPlain, false, site_id, size_log2, offset);
      }
    }
    for_each_shared_race(seen, access,
                         [&](const SharedRace& race) { send_race(launch, site_id, size_log2, offset, access, race); });
    return;
  }
}

__device__ __forceinline__ uint64_t from_lane(uint32_t lanes, uint64_t value, uint32_t lane) {
  return __shfl_sync(lanes, static_cast<unsigned long long>(value), static_cast<int>(lane));
}

// Every lane of `lanes` (the warp's lanes reading this word in one instruction and one interval,
// more than one): as check_word, but the lowest lane reads and updates the shadow once for all of
// them (apply_shared_read_lanes), where lane by lane they would all contend for the same entries (a
// tile row a warp reads: three rounds of 32 compare-and-swaps on one address). Each lane sends its own
// races with the last write and the atomics; the lanes entered as readers look for a write or atomics
// that came after.
__device__ __noinline__ void check_shared_read_lanes(const Launch& launch, SharedShadowWord* word, const SharedAccess& access,
                                      uint32_t lanes, uint32_t site_id, uint32_t size_log2, uint32_t offset) {
  const uint32_t leader = lowest_lane(lanes);
  const uint32_t lane = lane_id();
  const uint32_t warp_base = access.stamp.thread - lane;
  for (;;) {
    SharedShadowWord seen{};
    if (lane == leader) seen = load_shared_word(word, false);
    seen.write = from_lane(lanes, seen.write, leader);
    for (uint32_t r = 0; r < 2; ++r) {
      seen.readers[r] = from_lane(lanes, seen.readers[r], leader);
      seen.atomics[r] = from_lane(lanes, seen.atomics[r], leader);
    }
    const SharedShadowWord next = apply_shared_read_lanes(seen, access, lanes, warp_base);
    bool applied = true;
    uint64_t write_after = seen.write;
    uint64_t atomics_after[2] = {seen.atomics[0], seen.atomics[1]};
    if (lane == leader) {
      const bool changed = next.readers[0] != seen.readers[0] || next.readers[1] != seen.readers[1];
      for (uint32_t r = 0; r < 2 && applied; ++r) {
        if (next.readers[r] == seen.readers[r]) continue;
        applied = cas(&word->readers[r], seen.readers[r], next.readers[r]) == seen.readers[r];
      }
      if (applied && changed) {
        __threadfence();
        write_after = load_relaxed_gpu(&word->write);
        for (uint32_t r = 0; r < 2; ++r) atomics_after[r] = load_relaxed_gpu(&word->atomics[r]);
      }
    }
    if (!__shfl_sync(lanes, applied, static_cast<int>(leader))) continue;
    write_after = from_lane(lanes, write_after, leader);
    const uint64_t me = pack_stamp(access.stamp);
    const bool entered =
        (next.readers[0] == me && seen.readers[0] != me) || (next.readers[1] == me && seen.readers[1] != me);
    const uint32_t epoch = access.stamp.epoch;
    const uint32_t thread = access.stamp.thread;
    // A lane entered as a reader reports what came after its leader looked: a plain write, atomics.
    if (entered && write_after != seen.write && current_other(write_after, epoch, thread)) {
      send_race(launch, site_id, size_log2, offset, access,
                {Hazard::kReadAfterWrite, unpack_stamp(write_after), false, AccessOp::kWrite});
    }
    for (uint32_t r = 0; r < 2; ++r) {
      const uint64_t kept = from_lane(lanes, atomics_after[r], leader);
      const bool late = kept != seen.atomics[0] && kept != seen.atomics[1];
      if (entered && late && current_other(kept, epoch, thread)) {
        send_race(launch, site_id, size_log2, offset, access,
                  {Hazard::kAtomicPlain, unpack_stamp(kept), false, AccessOp::kAtomic});
      }
    }
    for_each_shared_race(seen, access,
                         [&](const SharedRace& race) { send_race(launch, site_id, size_log2, offset, access, race); });
    return;
  }
}

// What the lanes a device check takes over would have told the host in their record: as
// conflict_flags (runtime.cu) and the uniform-value test of __barracuda_log_access, over `checked`.
struct CheckedLanes {
  uint32_t same_address;  // the checked lanes at this lane's address
  bool same_value_store;  // kFlagSameValue: lanes at one address stored one value
  bool uniform;           // kFlagUniformValue: every checked lane stored one value to one address
  SharedLaneRole role;
};
__device__ CheckedLanes checked_lanes(uint32_t checked, uint32_t lane, uint64_t address, bool store_with_value,
                                      uint64_t value, uint32_t bytes) {
  CheckedLanes lanes;
  lanes.same_address = __match_any_sync(checked, address);
  const uint32_t same_value_lanes = store_with_value ? __match_any_sync(checked, value) & lanes.same_address : 0;
  lanes.same_value_store = store_with_value && __all_sync(checked, same_value_lanes == lanes.same_address);
  lanes.uniform = lanes.same_value_store && lanes.same_address == checked && bytes <= 4;
  lanes.role = shared_lane_role(lanes.same_value_store, checked, lanes.same_address, lane);
  return lanes;
}

// Every lane of `group` (`enabled` the same in all): checks the shared lanes of a kAccessDeviceShared
// access on the device when its block has a shadow here. Returns the lanes checked (same in every
// lane); the others are logged. Not inlined: its registers would otherwise weigh on every logged access
// (spills of the caller).
__device__ __noinline__ uint32_t check_shared_lanes(bool enabled, const Launch& launch, const WarpGroup& group,
                                                    uint64_t address, uint8_t space_sem, uint32_t access_info,
                                                    uint64_t value, uint32_t site_id) {
  if (!enabled) return 0;
  const SharedSlot slot = block_slot(launch.slot);  // one answer for the whole warp
  if (!slot.has_shadow()) return 0;
  const bool shared = space_of(space_sem) == MemorySpace::kShared;
  const uint32_t checked = __ballot_sync(group.mask, shared);
  if (!shared) return checked;
  const RecordOp op = access_info_op(access_info);
  // A shared atomic (atom/red without ordering semantics: shared_checkable_kernels.h) is a write.
  const bool atomic = op == RecordOp::kAtomic || op == RecordOp::kReduction;
  const bool write = op == RecordOp::kStore || atomic;
  const uint32_t size_log2 = access_info_size_log2(access_info);
  const uint32_t bytes = 1u << size_log2;
  const uint32_t lane = group.lane;
  const bool has_value = op == RecordOp::kStore && (access_info & kAccessHasValue) != 0;
  const CheckedLanes lanes = checked_lanes(checked, lane, address, has_value, value, bytes);
  const SharedLaneRole& role = lanes.role;
  const bool uniform = lanes.uniform;
  const uint32_t thread = thread_in_block();
  const uint32_t epoch = slot.epochs[thread];
  // In a cluster launch the block's rank may sit above bit 24 of its shared::cta addresses (as the
  // engine's worker.cpp masks it).
  const uint64_t first = address & ((uint64_t{1} << 24) - 1);
  // Plain loads of one word by several lanes in one interval: checked together (`write` and `atomic`
  // are the instruction's, the same in every lane).
  const uint32_t read_together = write ? 0 : __match_any_sync(checked, first << 32 | epoch);
  if (role.checks) {
    const uint32_t warp_base = thread - lane;
    // A uniform store is of 4 bytes (shared accesses of checked kernels are 4, 8 or 16 bytes).
    const SharedAccess access{{epoch, thread, site_id, atomic}, write, warp_base + role.last_writer_lane, uniform,
                              static_cast<uint32_t>(value), role.same_instruction_lanes};
    for (uint32_t word = 0; word < (bytes + 3) / 4; ++word) {
      const uint64_t offset = first + 4 * word;
      // Past the window: the access faults on the GPU anyway (the same for every lane of one address).
      if (offset / 4 >= slot.word_count) continue;
      if (__popc(read_together) > 1) {
        check_shared_read_lanes(launch, &slot.words[offset / 4], access, read_together, site_id, size_log2,
                              static_cast<uint32_t>(offset));
      } else {
        check_shared_word(launch, &slot.words[offset / 4], access, site_id, size_log2, static_cast<uint32_t>(offset));
      }
    }
  }
  return checked;
}

// Every lane of a block barrier's group, before it waits: one more barrier interval.
__device__ __forceinline__ void count_block_barrier(const LaunchSlot* launch) {
  const SharedSlot slot = block_slot(launch);
  if (slot.has_shadow()) ++slot.epochs[thread_in_block()];
}
