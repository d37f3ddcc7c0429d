// Block barriers counted on the device instead of logged (LaunchSlot flag kLaunchCountsBarriers; the
// rule and why in barracuda/barrier_count.h). Part of the device runtime's translation unit: runtime.cu
// includes it inside its anonymous namespace, after global_checker.cuh, whose per-thread barrier words
// it reads (a launch counts its barriers only when the device checks its global memory).
//
//   barrier  (__barracuda_log_block_event, kArrive: LogSync logs no kBarrier) each lane's word counts
//            the barrier (count_global_barrier); the group's leader adds the group to its block's word
//            and the group sends kBarrierDivergence where the engine would have reported one. Right
//            after the barrier (kPass) the group finds the barrier completed, or it was let through:
//            what the engine finds at the group's next record.
//   exit     (kExit) the group's lanes leave the block's live threads, the same way.
//   access   a group about to log an access the engine orders first logs kBarriersPassed, once per
//            barrier interval of each lane (kGlobalBarrierToldBit in the lane's word).

__device__ __forceinline__ bool counts_barriers(const Launch& launch) {
  return (launch.slot->flags & kLaunchCountsBarriers) != 0;
}

__device__ __forceinline__ uint64_t* block_barrier_words(const GlobalCheckLaunch* check) {
  return reinterpret_cast<uint64_t*>(check->block_barriers) + uint64_t{kBlockBarrierWords} * linear_block_id();
}

__device__ __forceinline__ BarrierStep block_step(BlockBarrierState state, uint32_t passed, uint32_t lanes,
                                                  BlockEvent event) {
  return event == BlockEvent::kArrive ? arrive_at_block_barrier(state, passed, lanes)
         : event == BlockEvent::kExit ? exit_block_lanes(state, passed, lanes)
                                      : settle_let_through(state, passed);
}

// Every lane of the group (inlined, and a loop only where another warp of the block swapped first: the
// logging entry points call nothing, keep to caller-saved convergence barriers and run no loop on the
// path most calls take, docs/device.md): applies `event` of the group's lanes, which passed `passed`
// barriers at most, to the block's word; the leader swaps, the group follows its result. A divergence
// found is sent naming the pending barrier's site when its first arrival has stored it. Returns the
// step's arrived_at.
__device__ __forceinline__ uint32_t update_block_barriers(const Launch& launch, const WarpGroup& group,
                                                          uint32_t site_id, uint32_t passed, BlockEvent event) {
  const GlobalCheckLaunch* check = global_check_of(launch.slot);
  uint64_t* words = block_barrier_words(check);
  const uint32_t block_threads = blockDim.x * blockDim.y * blockDim.z;
  const uint32_t lanes = __popc(group.mask);
  uint64_t seen = group.is_leader() ? load_relaxed_gpu(&words[0]) : 0;
  seen = from_leader(group, seen);
  BlockBarrierState before = unpack_block_barrier_state(seen, check->tag, block_threads);
  BarrierStep step = block_step(before, passed, lanes, event);
  if (event == BlockEvent::kPass && step.divergence == BarrierDivergence::kNone) return 0;  // nothing changes
  uint64_t swapped = group.is_leader() ? cas(&words[0], seen, pack_block_barrier_state(check->tag, step.state)) : 0;
  swapped = from_leader(group, swapped);
  while (swapped != seen) {  // another warp of the block swapped first: again, as one group
    seen = swapped;
    before = unpack_block_barrier_state(seen, check->tag, block_threads);
    step = block_step(before, passed, lanes, event);
    if (event == BlockEvent::kPass && step.divergence == BarrierDivergence::kNone) return 0;
    swapped = group.is_leader() ? cas(&words[0], seen, pack_block_barrier_state(check->tag, step.state)) : 0;
    swapped = from_leader(group, swapped);
  }
  if (group.is_leader() && event == BlockEvent::kArrive && step.state.waiting != 0 && step.state.waiting == lanes) {
    // This group's lanes are the first to wait at the block's next barrier.
    atomicExch(reinterpret_cast<unsigned long long*>(&words[1]),
               pack_pending_barrier_site(check->tag, step.state.completed, site_id));
  }
  if (__any_sync(group.mask, step.divergence != BarrierDivergence::kNone)) {  // rare
    uint64_t pending = group.is_leader() ? load_relaxed_gpu(&words[1]) : 0;
    pending = from_leader(group, pending);
    const bool named = pending_barrier_site_is(pending, check->tag, before.completed);
    RecordHeader header =
        make_header(launch, RecordOp::kBarrierDivergence, group.mask, named ? static_cast<uint32_t>(pending) : site_id);
    header.base = static_cast<uint64_t>(step.divergence);
    log_header_only(launch, group, header);
  }
  return step.arrived_at;
}

// Every lane of a group at a block barrier (kArrive, before it waits: `passed` counts the barriers
// before this one, its word already this one too), just past one (kPass: the barrier is counted in
// `passed`; lanes the hardware let through before the block's last live thread arrived find it not
// completed), or exiting (kExit). An arrival moves the count of lanes behind the block up to the
// barrier they wait at (count_after_arrival), as the engine has every thread wait at the pending one.
__device__ __forceinline__ void count_block_event(const Launch& launch, const WarpGroup& group, uint32_t site_id,
                                                  uint32_t passed, BlockEvent event) {
  const uint32_t arrived_at = update_block_barriers(launch, group, site_id, group_max(group, passed), event);
  if (event != BlockEvent::kArrive) return;
  const GlobalCheckLaunch* check = global_check_of(launch.slot);
  const uint32_t counted = global_barriers_passed(check);
  const uint32_t count = count_after_arrival(counted, arrived_at);
  if (count != counted) *barrier_word(check) = uint64_t{check->tag} << kGlobalBarrierCountBits | count;
}

// Every lane of a group about to log a record the engine orders: tells the host the barriers its lanes
// passed, unless each already did in its current interval.
__device__ __forceinline__ void tell_barriers_passed(const Launch& launch, const WarpGroup& group, uint32_t site_id) {
  const GlobalCheckLaunch* check = global_check_of(launch.slot);
  uint64_t* word = barrier_word(check);
  const uint64_t mine = *word;
  const uint32_t passed = barriers_passed_in(check, mine);
  const bool untold = passed != 0 && (mine & kGlobalBarrierToldBit) == 0;
  if (!__any_sync(group.mask, untold)) return;
  RecordHeader header = make_header(launch, RecordOp::kBarriersPassed, group.mask, site_id);
  header.base = group_max(group, passed);
  log_header_only(launch, group, header);
  if (untold) *word = mine | kGlobalBarrierToldBit;
}
