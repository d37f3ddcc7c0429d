// The device logging runtime: compiled to relocatable PTX at build time, embedded into the host
// library as text, and linked by nvJitLink with every instrumented module. The queue protocol and
// arena layout are specified in barracuda/queue.h; the record format in barracuda/record.h.
#include "barracuda/barrier_count.h"
#include "barracuda/device_launch.h"
#include "barracuda/queue.h"
#include "barracuda/global_check_launch.h"
#include "barracuda/shared_check_pool.h"
#include "barracuda/warp_lanes.h"
#include "entry_points.cuh"

using namespace barracuda;

// Set by the host (cuModuleGetGlobal + copy) after the instrumented module is loaded: the producer
// block in device memory.
extern "C" __device__ QueueProducerHeader* __barracuda_queues;
__device__ QueueProducerHeader* __barracuda_queues = nullptr;

namespace {

// A full ring's waiters poll the host's read_head over the bus: backing off keeps thousands of them
// from saturating it while the host drains.
constexpr uint32_t kBackPressureSleepNs = 200;
constexpr uint32_t kMaxBackPressureSleepNs = 4096;

// The lanes that execute one entry point together and share one record.
struct WarpGroup {
  uint32_t mask;
  uint32_t lane;
  uint32_t leader;
  __device__ bool is_leader() const { return lane == leader; }
};

__device__ __forceinline__ uint32_t lane_id() {
  uint32_t lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

__device__ __forceinline__ uint32_t sm_id() {
  uint32_t sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  return sm;
}

// Lanes arriving together at different call sites (possible under independent thread scheduling
// only if the compiler merges calls) still get one record per site.
__device__ __forceinline__ WarpGroup form_group(uint32_t site_id) {
  WarpGroup group;
  group.mask = __match_any_sync(__activemask(), site_id);
  group.lane = lane_id();
  group.leader = __ffs(group.mask) - 1;
  return group;
}

// The calling lane as a group of its own: how a device check sends a race only that lane found.
__device__ __forceinline__ WarpGroup lane_alone() {
  WarpGroup group;
  group.lane = lane_id();
  group.mask = 1u << group.lane;
  group.leader = group.lane;
  return group;
}

__device__ __forceinline__ uint32_t linear_block_id() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

__device__ __forceinline__ uint16_t warp_in_block() {
  uint32_t thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  return static_cast<uint16_t>(thread / kWarpSize);
}

// The rings are host memory the CPU reads while the kernel runs: the CPU is a system-scope observer,
// so the read of its read_head and the publishing fence must be .sys (a .gpu fence does not order
// writes to host memory as the CPU sees them).
__device__ __forceinline__ uint64_t load_acquire_system(const uint64_t* address) {
  uint64_t value;
  asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(value) : "l"(address) : "memory");
  return value;
}

// read_head_cache is shared by the warps of one GPU: .gpu scope keeps the host's zeroing of the
// slots (ordered before its read_head store, which a waiting warp acquired) before our writes.
__device__ __forceinline__ uint64_t load_acquire_gpu(const uint64_t* address) {
  uint64_t value;
  asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(value) : "l"(address) : "memory");
  return value;
}

__device__ __forceinline__ void raise_release_gpu(uint64_t* address, uint64_t value) {
  asm volatile("red.release.gpu.global.max.u64 [%0], %1;" ::"l"(address), "l"(value) : "memory");
}

// The queue this block logs into: fixed for the block's lifetime (a block never changes SM).
struct Queue {
  QueueProducerLine* producer;  // device memory
  const QueueControl* control;  // host memory
  RecordHeader* ring;           // host memory
  uint64_t capacity;

  __device__ RecordHeader* slot(uint64_t position) const { return ring + (position & (capacity - 1)); }
};

__device__ __forceinline__ Queue block_queue(QueueProducerHeader* producers) {
  uint32_t queue_index = (sm_id() * producers->queues_per_sm + linear_block_id() % producers->queues_per_sm) %
                         producers->queue_count;
  auto* host = reinterpret_cast<char*>(producers->host_arena);
  Queue queue;
  queue.capacity = producers->capacity;
  queue.producer = reinterpret_cast<QueueProducerLine*>(reinterpret_cast<char*>(producers) +
                                                        producer_line_offset(queue_index));
  queue.control = reinterpret_cast<const QueueControl*>(host + arena_control_offset(queue_index));
  queue.ring = reinterpret_cast<RecordHeader*>(
      host + arena_ring_offset(producers->queue_count, queue.capacity, queue_index));
  return queue;
}

// ---- The launch a call belongs to ---------------------------------------------------------------

__device__ __forceinline__ uint64_t grid_id() {
  uint64_t grid;
  asm volatile("mov.u64 %0, %%gridid;" : "=l"(grid));
  return grid;
}

__device__ __forceinline__ uint64_t* grid_table(QueueProducerHeader* producers) {
  return reinterpret_cast<uint64_t*>(reinterpret_cast<char*>(producers) + grid_table_offset(producers->queue_count));
}

// Relaxed at .gpu scope: an entry another SM wrote must not be missed through a stale L1 line.
__device__ __forceinline__ uint64_t load_relaxed_gpu(const uint64_t* address) {
  uint64_t value;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(value) : "l"(address) : "memory");
  return value;
}
__device__ __forceinline__ uint32_t load_relaxed_gpu_u32(const uint32_t* address) {
  uint32_t value;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(value) : "l"(address) : "memory");
  return value;
}

// What a call logs into: the queues, and the slot of the launch its grid registered at entry.
struct Launch {
  QueueProducerHeader* producers;
  LaunchSlot* slot;      // null: the grid is not checked (or not registered): log nothing
  uint32_t table_index;  // the grid's entry in the grid table
  // The id of its block 0 in the launch's numbering: 0 for a host-launched grid, above its blocks for a
  // child grid launched from the device (barracuda/device_launch.h). No field more: the SASS back end's
  // callbacks run on the patched kernel's stack (cuBLAS's gemm faulted with 8 bytes more).
  uint32_t first_block;

  __device__ bool child() const { return first_block != 0; }
};

__device__ __forceinline__ LaunchSlot* slot_at(QueueProducerHeader* producers, uint32_t slot) {
  return reinterpret_cast<LaunchSlot*>(reinterpret_cast<char*>(producers) +
                                       launch_slot_offset(producers->queue_count, slot));
}

__device__ __forceinline__ GridChild* grid_child(QueueProducerHeader* producers, uint32_t table_index) {
  return reinterpret_cast<GridChild*>(reinterpret_cast<char*>(producers) + grid_children_offset(producers->queue_count)) +
         table_index;
}

// The launch an entry names; a child grid's first block id is beside it (written at its entry).
__device__ __forceinline__ Launch launch_of_entry(QueueProducerHeader* producers, uint64_t entry, uint32_t index) {
  Launch launch{producers, slot_at(producers, grid_table_slot(entry)), index, 0};
  if (grid_table_is_child(entry)) launch.first_block = load_relaxed_gpu_u32(&grid_child(producers, index)->first_block);
  return launch;
}

// Every lane (the same loads, so one transaction): the launch this grid registered.
__device__ Launch find_launch(QueueProducerHeader* producers) {
  Launch launch{producers, nullptr, 0, 0};
  if (producers == nullptr) return launch;
  const uint64_t grid = grid_id();
  const uint64_t key = grid_table_key(grid);
  uint64_t* table = grid_table(producers);
  // The home entry first, outside the probe loop: a loop is a point where ptxas lets the warp's other
  // lanes, waiting to reconverge with ours, go on without us (see reserve()), and this runs on every call.
  const uint32_t home = grid_table_home(grid) & (kGridTableEntries - 1);
  const uint64_t home_entry = load_relaxed_gpu(&table[home]);
  if (home_entry >> 8 == key) return launch_of_entry(producers, home_entry, home);
  if (home_entry == 0) return launch;
  for (uint32_t probe = 1; probe < kGridTableEntries; ++probe) {
    const uint32_t index = (grid_table_home(grid) + probe) & (kGridTableEntries - 1);
    const uint64_t entry = load_relaxed_gpu(&table[index]);
    if (entry == 0) break;
    if (entry >> 8 == key) return launch_of_entry(producers, entry, index);
  }
  return launch;
}

// Leader at kernel entry: registers this grid with `slot` (its kernel's launch-slot global), once
// per grid however many warps race to it. The grid's first registration decides its slot: once the
// host has seen the grid's first record, it may let a launch of the same kernel in another stream
// name its own slot in the global while this grid's later blocks are still starting. A full table
// leaves the grid unlogged.
// `child_flag`: kGridChildFlag for a child grid launched from the device.
__device__ Launch register_launch(QueueProducerHeader* producers, uint32_t slot, uint32_t child_flag = 0) {
  Launch launch{producers, nullptr, 0, 0};
  if (producers == nullptr) return launch;
  const uint64_t grid = grid_id();
  const uint64_t key = grid_table_key(grid);
  uint64_t* table = grid_table(producers);
  for (uint32_t probe = 0; probe < kGridTableEntries;) {
    const uint32_t index = (grid_table_home(grid) + probe) & (kGridTableEntries - 1);
    uint64_t entry = load_relaxed_gpu(&table[index]);
    if (entry >> 8 != key) {
      if (entry != 0 && entry != kGridDeleted) {
        ++probe;
        continue;
      }
      if (slot >= kLaunchSlots) return launch;  // not registered, and the global names no launch
      const auto seen = static_cast<uint64_t>(atomicCAS(reinterpret_cast<unsigned long long*>(&table[index]), entry,
                                                        grid_table_entry(grid, slot | child_flag)));
      if (seen != entry && seen >> 8 != key) continue;  // another grid took it: look at it again
      entry = seen == entry ? grid_table_entry(grid, slot | child_flag) : seen;
    }
    launch.slot = slot_at(producers, grid_table_slot(entry));
    launch.table_index = index;
    return launch;
  }
  return launch;
}

// The leader's value of a 64-bit word, for every lane of the group.
__device__ __forceinline__ uint64_t from_leader(const WarpGroup& group, uint64_t value) {
  return __shfl_sync(group.mask, value, group.leader);
}

// The most of the group's values (ptxas refuses redux in a tools patch, whose callbacks run one lane at
// a time: shuffles there).
__device__ __forceinline__ uint32_t group_max(const WarpGroup& group, uint32_t value) {
#ifdef BARRACUDA_TOOLS_PATCH
  uint32_t most = value;
  for (uint32_t m = group.mask; m != 0; m &= m - 1) most = max(most, __shfl_sync(group.mask, value, __ffs(m) - 1));
  return most;
#else
  return __reduce_max_sync(group.mask, value);
#endif
}

// The warp's lanes that exist (the block's last warp may have fewer than 32).
__device__ __forceinline__ uint32_t existing_lanes() {
  return existing_lanes_of_warp(blockDim.x * blockDim.y * blockDim.z, warp_in_block());
}

// Every lane of the group: the leader reserves `slots` slots, then the group waits together until
// the host has freed them (back-pressure: the producer never overwrites unread slots and never
// drops). Only a ring that looks full costs a read over the bus.
//
// Waiting is a loop, and a loop is where ptxas lets the warp's other lanes, parked at the
// reconvergence point of the application branch our call sits in, go on without us (ptxas puts a
// YIELD in every loop). ptxas compiled what follows for a converged warp: CUB's radix ranking then
// shuffles the leaders' `atomicAdd` results before the leaders have them, and a `barrier.sync` sees
// the warp arrive twice. Measured on the H200: CUB's onesweep sort of 2^25 pairs came out wrong, and
// (tests/gpu/barrier/cg_sync_unrolled_loop, H100, 1 MiB queues) warps ran barriers ahead. So a group
// that is not its whole warp (an application branch's lanes) does not wait while it fits the ring:
// whole warps wait once the ring is three quarters full, leaving the last quarter to such groups.
// The group waits as one, never the leader alone, for the same reason.
__device__ uint64_t reserve(const WarpGroup& group, const Queue& queue, uint32_t slots) {
  const uint64_t limit = back_pressure_limit(queue.capacity, slots, group.mask == existing_lanes());
  uint64_t position = 0;
  uint64_t read_head = 0;
  if (group.is_leader()) {
    position = atomicAdd(reinterpret_cast<unsigned long long*>(&queue.producer->write_head), slots);
    read_head = load_acquire_gpu(&queue.producer->read_head_cache);
  }
  position = from_leader(group, position);
  const uint64_t end = position + slots;
  if (end <= from_leader(group, read_head) + limit) return position;
  for (uint32_t sleep_ns = kBackPressureSleepNs;; sleep_ns = min(2 * sleep_ns, kMaxBackPressureSleepNs)) {
    if (group.is_leader()) read_head = load_acquire_system(&queue.control->read_head);
    read_head = from_leader(group, read_head);
    if (end <= read_head + limit) {
      if (group.is_leader()) raise_release_gpu(&queue.producer->read_head_cache, read_head);
      // Orders the leader's acquire of the freed slots before the other lanes' payload writes.
      __syncwarp(group.mask);
      return position;
    }
    __nanosleep(sleep_ns);
    // Another waiter may have seen the host's progress meanwhile: that costs no bus read.
    if (group.is_leader()) read_head = load_acquire_gpu(&queue.producer->read_head_cache);
    if (end <= from_leader(group, read_head) + limit) {
      __syncwarp(group.mask);
      return position;
    }
  }
}

__device__ __forceinline__ RecordHeader make_header(const Launch& launch, RecordOp op, uint32_t active_mask,
                                                    uint32_t site_id) {
  RecordHeader header{};
  header.op = static_cast<uint8_t>(op);
  header.active_mask = active_mask;
  header.site_id = site_id;
#ifndef BARRACUDA_TOOLS_PATCH
  header.block_id = launch.first_block + linear_block_id();
#else
  header.block_id = linear_block_id();  // no child grids in modules without PTX
#endif
  header.warp_id = warp_in_block();
  header.launch_id = static_cast<uint16_t>(launch.slot->launch_id);
  return header;
}

// Under independent thread scheduling the other lanes would otherwise return while the leader still
// publishes, and the app instruction after the call would then run (and be logged) in pieces.
// Rejoining the group before returning keeps one warp instruction one record. This adds no ordering
// the engine sees: the lanes were converged when they entered.
__device__ __forceinline__ void rejoin(const WarpGroup& group) { __syncwarp(group.mask); }

// Leader only: the next sync ticket of location bucket `bucket` in this launch (record_ops.inc,
// RecordOp::kSyncTicket; sync_bucket.h). acq_rel keeps the ticket causal with the instruction it
// orders: the acquire half keeps a following write (release role, logged before) after it; the
// release half keeps a preceding read (acquire role, logged after) before it.
__device__ __forceinline__ uint64_t take_sync_ticket(LaunchSlot* launch, uint32_t bucket) {
  uint64_t ticket;
  asm volatile("atom.acq_rel.gpu.global.add.u64 %0, [%1], 1;"
               : "=l"(ticket)
               : "l"(launch->sync_buckets + uint64_t{bucket} * sizeof(uint64_t))
               : "memory");
  return ticket;
}

// Lane `lane`'s payload word: kDelta32 packs 8 int32 per slot, kFull64 4 uint64 per slot.
template <typename Word>
__device__ __forceinline__ Word* payload_word(const Queue& queue, uint64_t position, uint32_t lane) {
  constexpr uint32_t kWordsPerSlot = kSlotBytes / sizeof(Word);
  return reinterpret_cast<Word*>(queue.slot(position + 1 + lane / kWordsPerSlot)) + lane % kWordsPerSlot;
}

template <typename Word>
__device__ void write_payload(const Queue& queue, const WarpGroup& group, uint64_t position, Word word) {
  *payload_word<Word>(queue, position, group.lane) = word;
  if (group.is_leader()) {
    for (uint32_t idle = ~group.mask; idle != 0; idle &= idle - 1) {
      *payload_word<Word>(queue, position, __ffs(idle) - 1) = 0;
    }
  }
}

// A record's sync tickets (record_ops.inc, RecordOp::kSyncTicket): every lane of a ticketed group
// takes one for its location bucket, one atomic per bucket the lanes reach (by the bucket's first lane).
struct Tickets {
  bool taken;       // false: the record carries none
  bool per_lane;    // the lanes' buckets differ: the ticket record has a kFull64 payload of lane words
  uint32_t bucket;  // this lane's
  uint64_t ticket;  // this lane's, in its bucket
};

// Every lane of the group; `ticketed` is the same in every lane.
__device__ Tickets take_tickets(const Launch& launch, const WarpGroup& group, bool ticketed, uint32_t bucket) {
  Tickets tickets{};
  if (!ticketed) return tickets;
  const uint32_t peers = __match_any_sync(group.mask, bucket);
  const uint32_t first = __ffs(peers) - 1;
  uint64_t ticket = 0;
  if (group.lane == first) ticket = take_sync_ticket(launch.slot, bucket);
  tickets.taken = true;
  tickets.per_lane = peers != group.mask;
  tickets.bucket = bucket;
  tickets.ticket = __shfl_sync(group.mask, ticket, first);
  return tickets;
}

// A record's reservation: its own header at `record`, its sync ticket (if any) in the `ticket_slots`
// slots before.
struct Reservation {
  uint64_t record;  // the record's header slot
  bool has_ticket;
  uint32_t ticket_slots;
  RecordHeader ticket;
};

// Every lane of the group: reserves the record's slots, plus the ticket's in front when `tickets` were
// taken, and writes this lane's ticket word when they differ by lane. `record` is the same in every
// lane; the ticket header is the leader's alone.
__device__ Reservation reserve_record(const Launch& launch, const WarpGroup& group, const Queue& queue,
                                      uint32_t slots, const RecordHeader& header, const Tickets& tickets) {
  Reservation reservation{};
  if (!tickets.taken) {
    reservation.record = reserve(group, queue, slots);
    return reservation;
  }
  reservation.has_ticket = true;
  reservation.ticket_slots = tickets.per_lane ? record_slots(AddressMode::kFull64) : 1;
  if (group.is_leader()) {
    reservation.ticket = header;
    reservation.ticket.op = static_cast<uint8_t>(RecordOp::kSyncTicket);
    reservation.ticket.space_sem = 0;
    reservation.ticket.size_mode = tickets.per_lane ? pack_size_mode(3, AddressMode::kFull64) : 0;
    reservation.ticket.flags = 0;
    reservation.ticket.stride = tickets.per_lane ? 0 : static_cast<int32_t>(tickets.bucket);
    reservation.ticket.base = tickets.per_lane ? 0 : tickets.ticket;
  }
  reservation.record = reserve(group, queue, slots + reservation.ticket_slots) + reservation.ticket_slots;
  if (tickets.per_lane) {
    write_payload<uint64_t>(queue, group, reservation.record - reservation.ticket_slots,
                            lane_ticket_word(tickets.bucket, tickets.ticket));
  }
  return reservation;
}

// Words 1-3 of a header: everything but the word that publishes it.
__device__ __forceinline__ void write_header_tail(RecordHeader* slot, const RecordHeader& header) {
  const auto* words = reinterpret_cast<const uint64_t*>(&header);
  auto* slot_words = reinterpret_cast<uint64_t*>(slot);
  for (int word = 1; word < 4; ++word) slot_words[word] = words[word];
}

// Leader only, after the group's payload writes are ordered before it (__syncwarp): writes the
// reservation header-last. Word 0 of its first slot (the ticket, else the record) is stored after a
// system fence: once the host sees it non-zero, every byte of the reservation is visible.
__device__ void publish(const Queue& queue, const Reservation& reservation, const RecordHeader& header) {
  RecordHeader* record = queue.slot(reservation.record);
  write_header_tail(record, header);
  const RecordHeader* first = &header;
  RecordHeader* first_slot = record;
  if (reservation.has_ticket) {
    *reinterpret_cast<uint64_t*>(record) = *reinterpret_cast<const uint64_t*>(&header);
    first = &reservation.ticket;
    first_slot = queue.slot(reservation.record - reservation.ticket_slots);
    write_header_tail(first_slot, *first);
  }
  __threadfence_system();
  *reinterpret_cast<volatile uint64_t*>(first_slot) = *reinterpret_cast<const uint64_t*>(first);
}

// Logs a header-only record (everything but memory accesses) from the group's leader, behind its
// sync tickets if `tickets` were taken.
__device__ void log_header_only(const Launch& launch, const WarpGroup& group, const RecordHeader& header,
                                const Tickets& tickets = {}) {
  Queue queue = block_queue(launch.producers);
  Reservation reservation = reserve_record(launch, group, queue, 1, header, tickets);
  if (tickets.per_lane) __syncwarp(group.mask);  // the lanes' ticket words before the header
  if (group.is_leader()) publish(queue, reservation, header);
  rejoin(group);
}

// ---- Memory accesses ----------------------------------------------------------------------------

struct AddressEncoding {
  AddressMode mode;
  int32_t stride;
  uint64_t base;
};

// Picks the most compact encoding every lane of the group agrees on: affine (base + lane * stride),
// 32-bit deltas from the leader's address, or full addresses.
__device__ AddressEncoding encode_addresses(const WarpGroup& group, uint64_t address) {
  uint64_t leader_address = __shfl_sync(group.mask, address, group.leader);
  uint32_t others = group.mask & ~(1u << group.leader);
  int64_t stride = 0;
  if (others != 0) {
    uint32_t second = __ffs(others) - 1;
    int64_t distance = static_cast<int64_t>(__shfl_sync(group.mask, address, second) - leader_address);
    // 32-bit division only: a 64-bit one is a call (__cuda_sm20_rem_s64), and the runtime may call
    // nothing (tests/device/runtime_convergence_barrier_test.cpp says why). A stride that only 64 bits
    // hold does not fit the affine encoding anyway.
    const int32_t lanes_apart = static_cast<int32_t>(second - group.leader);
    const auto narrow = static_cast<int32_t>(distance);
    if (lanes_apart == 1) {
      stride = distance;
    } else if (narrow == distance) {
      stride = narrow % lanes_apart == 0 ? narrow / lanes_apart : INT64_MAX;
    } else {
      stride = INT64_MAX;
    }
  }
  int64_t my_delta = static_cast<int64_t>(address - leader_address);
  bool stride_fits = stride >= INT32_MIN && stride <= INT32_MAX;
  bool on_line = stride_fits && my_delta == stride * (static_cast<int64_t>(group.lane) - group.leader);
  if (__all_sync(group.mask, on_line)) {
    return {AddressMode::kAffine, static_cast<int32_t>(stride),
            leader_address - static_cast<uint64_t>(stride * group.leader)};
  }
  if (__all_sync(group.mask, my_delta >= INT32_MIN && my_delta <= INT32_MAX)) {
    return {AddressMode::kDelta32, 0, leader_address};
  }
  return {AddressMode::kFull64, 0, 0};
}

// Lanes sharing an address: intra-warp conflict, and whether every such lane stored the same value.
__device__ uint8_t conflict_flags(const WarpGroup& group, uint64_t address, bool has_value, uint64_t value) {
  uint32_t same_address = __match_any_sync(group.mask, address);
  uint8_t flags = 0;
  if (__any_sync(group.mask, __popc(same_address) > 1)) flags |= kFlagIntraWarpConflict;
  if (has_value) {
    uint32_t same_value = __match_any_sync(group.mask, value) & same_address;
    if (__all_sync(group.mask, same_value == same_address)) flags |= kFlagSameValue;
  }
  return flags;
}

// Generic addresses: the state space decides which shadow memory the engine uses.
__device__ MemorySpace classify_generic(uint64_t* address) {
  uint32_t is_shared_cta, is_shared_cluster, is_global;
  asm("{ .reg .pred p;\n"
      "  isspacep.shared::cta p, %3;   selp.u32 %0, 1, 0, p;\n"
      "  isspacep.shared::cluster p, %3; selp.u32 %1, 1, 0, p;\n"
      "  isspacep.global p, %3;        selp.u32 %2, 1, 0, p; }"
      : "=r"(is_shared_cta), "=r"(is_shared_cluster), "=r"(is_global)
      : "l"(*address));
  if (is_shared_cta) {
    *address = static_cast<uint64_t>(__cvta_generic_to_shared(reinterpret_cast<const void*>(*address)));
    return MemorySpace::kShared;
  }
  if (is_shared_cluster) return MemorySpace::kCluster;  // kept generic: names the owning block
  return is_global ? MemorySpace::kGlobal : MemorySpace::kOther;
}

// Every lane of `group`: logs its access as one record, behind sync tickets when `ticketed` (the same
// in every lane).
__device__ void log_access_record(const Launch& launch, const WarpGroup& group, uint64_t address,
                                  uint32_t site_id, uint32_t access_info, uint8_t space_sem, uint64_t value,
                                  bool ticketed) {
  AddressEncoding encoding = encode_addresses(group, address);
  uint8_t flags = conflict_flags(group, address, (access_info & kAccessHasValue) != 0, value);
  uint32_t slots = record_slots(encoding.mode);

  Queue queue = block_queue(launch.producers);
  RecordHeader header = make_header(launch, access_info_op(access_info), group.mask, site_id);
  header.space_sem = space_sem;
  header.size_mode = pack_size_mode(access_info_size_log2(access_info), encoding.mode);
  header.flags = flags;
  if (access_info & kAccessSpinRead) header.flags |= kFlagSpinRead;
  header.stride = encoding.stride;
  header.base = encoding.base;
  // One address, one value (a flag many threads set): the value travels in `stride` (record.h).
  const uint32_t access_bytes = 1u << access_info_size_log2(access_info);
  if (access_info_op(access_info) == RecordOp::kStore && encoding.mode == AddressMode::kAffine &&
      encoding.stride == 0 && (flags & kFlagSameValue) != 0 && access_bytes <= 4) {
    const uint64_t value_mask = access_bytes == 4 ? 0xffffffffull : (1ull << (8 * access_bytes)) - 1;
    header.flags |= kFlagUniformValue;
    header.stride = static_cast<int32_t>(static_cast<uint32_t>(value & value_mask));
  }
  const Tickets tickets = take_tickets(launch, group, ticketed, sync_bucket(address));
  Reservation reservation = reserve_record(launch, group, queue, slots, header, tickets);
  const uint64_t position = reservation.record;
  if (encoding.mode == AddressMode::kDelta32) {
    write_payload<int32_t>(queue, group, position, static_cast<int32_t>(address - encoding.base));
  } else if (encoding.mode == AddressMode::kFull64) {
    write_payload<uint64_t>(queue, group, position, address);
  }
  __syncwarp(group.mask);
  if (group.is_leader()) publish(queue, reservation, header);
}

#include "shared_checker.cuh"
#include "global_checker.cuh"
#include "barrier_counter.cuh"

}  // namespace

extern "C" __device__ __noinline__ void __barracuda_log_access(uint64_t address, uint32_t site_id,
                                                               uint32_t access_info, uint64_t value) {
  const Launch launch = find_launch(__barracuda_queues);
  // One launch for the whole grid: a vote, so that ptxas sees a branch every lane takes alike (it
  // would otherwise hold the rest of the function, calls included, in a reconvergence region).
  if (__all_sync(__activemask(), launch.slot == nullptr)) return;
  // A load through a read-only parameter inside that parameter's allocation cannot race (the host
  // allows it only where no other argument points there and no launch runs beside); one past it may.
  bool logged = launch.slot != nullptr;
  if (logged && (access_info & kAccessReadOnlyParameter) && (launch.slot->flags & kLaunchSkipsReadOnlyParameterLoads)) {
    const uint32_t parameter = access_info_parameter(access_info);
    logged = address < launch.slot->read_only_begin[parameter] || address >= launch.slot->read_only_end[parameter];
  }
  WarpGroup group = form_group(site_id);
  const uint32_t arrived = group.mask;
  group.mask = __ballot_sync(arrived, logged);
  group.leader = __ffs(group.mask) - 1;

  uint8_t space_sem = access_info_space_sem(access_info);
  if (access_info & kAccessGeneric) {
    space_sem = with_space(space_sem, classify_generic(&address));
  }
  // The device checks are called only behind a vote (a branch ptxas sees every lane take alike), by
  // every lane, each deciding inside whether it applies: a call inside a divergent branch of ours would
  // make ptxas keep that branch's convergence barrier in a callee-saved register, and saving one
  // releases the application's lanes waiting on it (tests/device/runtime_convergence_barrier_test.cpp).
  // Shared lanes of a kernel whose shared memory the device checks: checked there, not logged.
  const bool shared_checked = logged && (access_info & kAccessDeviceShared) && launch.slot->shared_pool_rows != 0;
  if (__any_sync(__activemask(), shared_checked)) {
    group.mask &= ~check_shared_lanes(shared_checked, launch, group, address, space_sem, access_info, value, site_id);
    group.leader = __ffs(group.mask) - 1;
  }
  // Global lanes of a barrier-only kernel in a launch the host gave ranges: checked there, not logged.
  const bool global_checked = logged && (access_info & kAccessDeviceGlobal) && launch.slot->global_check != 0;
  if (__any_sync(__activemask(), global_checked)) {
    group.mask &= ~check_global_lanes(global_checked, launch, group, address, space_sem, access_info, value, site_id);
    group.leader = __ffs(group.mask) - 1;
  }
  if (group.mask >> group.lane & 1u) {
    // kAccessNoSyncTicket: nothing in this launch can make the access synchronise (queue.h).
    const bool ticketed = (access_info & kAccessNoSyncTicket) == 0 &&
                          takes_sync_ticket(access_info_op(access_info), space_sem);
    // A generic access may reach shared memory in some lanes only: those lanes, unticketed, log apart.
    if (__any_sync(group.mask, ticketed) && !__all_sync(group.mask, ticketed)) {
      group.mask = __match_any_sync(group.mask, ticketed ? 1u : 0u);
      group.leader = __ffs(group.mask) - 1;
    }
    if (counts_barriers(launch)) tell_barriers_passed(launch, group, site_id);
    log_access_record(launch, group, address, site_id, access_info, space_sem, value, ticketed);
  }
  rejoin({arrived, group.lane, group.leader});
}

extern "C" __device__ __noinline__ void __barracuda_log_sync(uint32_t site_id, uint32_t op, uint32_t space_sem,
                                                             uint64_t payload, uint32_t count) {
  const Launch launch = find_launch(__barracuda_queues);
  if (launch.slot == nullptr) return;
  WarpGroup group = form_group(site_id);
  if (static_cast<RecordOp>(op) == RecordOp::kWarpSync) {
    // Lanes of one bar.warp.sync may name different member masks (__syncwarp(0x0000ffff) in one half,
    // 0xffff0000 in the other, cooperative-groups tiles): one record per mask, or the leader's mask
    // would stand for lanes it does not cover.
    group.mask = __match_any_sync(group.mask, payload);
    group.leader = __ffs(group.mask) - 1;
  }
  // Full-block barriers are the only ones in kernels whose shared memory the device checks.
  if (static_cast<RecordOp>(op) == RecordOp::kBarrier && launch.slot->shared_pool_rows != 0) {
    count_block_barrier(launch.slot);
  }
  if (static_cast<RecordOp>(op) == RecordOp::kBarrier && launch.slot->global_check != 0) {
    // A launch that counts its barriers counts them in __barracuda_log_block_event and logs none.
    if (counts_barriers(launch)) {
      rejoin(group);
      return;
    }
    count_global_barrier(launch.slot);
  }
  // A fence's tickets order it in the bucket of its thread's last read (`payload`, 0 when the function
  // read nothing yet): the location its acquire pattern acquires from (record_view.h). A read of the
  // block's own shared memory needs none (queue order): such lanes log apart.
  bool ticketed = false;
  if (static_cast<RecordOp>(op) == RecordOp::kFence && takes_sync_ticket(RecordOp::kFence, space_sem)) {
    uint64_t last_read = payload;
    const MemorySpace space = last_read == 0 ? MemorySpace::kOther : classify_generic(&last_read);
    ticketed = space == MemorySpace::kGlobal || space == MemorySpace::kCluster;
    group.mask = __match_any_sync(group.mask, ticketed ? 1u : 0u);
    group.leader = __ffs(group.mask) - 1;
  }
  RecordHeader header = make_header(launch, static_cast<RecordOp>(op), group.mask, site_id);
  header.space_sem = static_cast<uint8_t>(space_sem);
  header.base = payload;
  header.stride = static_cast<int32_t>(count);
  log_header_only(launch, group, header, take_tickets(launch, group, ticketed, sync_bucket(payload)));
}

extern "C" __device__ __noinline__ void __barracuda_log_branch(uint32_t site_id, uint32_t taken) {
  const Launch launch = find_launch(__barracuda_queues);
  if (launch.slot == nullptr || !(launch.slot->flags & kLaunchLogsEveryRecord)) return;
  WarpGroup group = form_group(site_id);
  RecordHeader header = make_header(launch, RecordOp::kBranchIf, __ballot_sync(group.mask, taken != 0), site_id);
  header.base = group.mask;
  log_header_only(launch, group, header);
}

extern "C" __device__ __noinline__ void __barracuda_log_reconverge(uint32_t site_id) {
  const Launch launch = find_launch(__barracuda_queues);
  if (launch.slot == nullptr || !(launch.slot->flags & kLaunchLogsEveryRecord)) return;
  WarpGroup group = form_group(site_id);
  log_header_only(launch, group, make_header(launch, RecordOp::kBranchFi, group.mask, site_id));
}

extern "C" __device__ __noinline__ void __barracuda_log_entry(uint32_t site_id, uint32_t launch_slot) {
  WarpGroup group = form_group(site_id);
  Launch launch{};
  if (group.is_leader()) launch = register_launch(__barracuda_queues, launch_slot);
  launch.slot = reinterpret_cast<LaunchSlot*>(from_leader(group, reinterpret_cast<uint64_t>(launch.slot)));
  if (launch.slot == nullptr) {
    rejoin(group);
    return;
  }
  launch.producers = __barracuda_queues;
  if (!(launch.slot->flags & kLaunchLogsEveryRecord)) {
    rejoin(group);
    return;
  }
  log_header_only(launch, group, make_header(launch, RecordOp::kWarpEntry, group.mask, site_id));
}

// Releases to the grids launched after this one into its stream, and those its grid tail-launched
// (ticketed: before they start). Inlined: a logging entry point calls nothing (tests/device/
// runtime_convergence_barrier_test.cpp says why); left out of the SASS back end's patch (sass_patch.cu),
// whose callbacks run on the patched kernel's stack and never get here.
__device__ __forceinline__ void log_child_exit(QueueProducerHeader* producers, LaunchSlot* slot, uint32_t table_index,
                                            uint32_t first_block, uint32_t site_id) {
  const Launch launch{producers, slot, table_index, first_block};
  const WarpGroup group = form_group(site_id);
  log_header_only(launch, group, make_header(launch, RecordOp::kChildExit, group.mask, site_id),
                  take_tickets(launch, group, true, kDeviceLaunchBucket));
}

extern "C" __device__ __noinline__ void __barracuda_log_exit(uint32_t site_id) {
  const Launch launch = find_launch(__barracuda_queues);
  if (launch.slot == nullptr) return;
#ifndef BARRACUDA_TOOLS_PATCH  // modules without PTX have no launches from the device
  if (launch.child() || (launch.slot->flags & kLaunchHasChildGrids)) {
    log_child_exit(launch.producers, launch.slot, launch.table_index, launch.first_block, site_id);
  }
#endif
  WarpGroup group = form_group(site_id);
  // A launch that counts its barriers told the block's word of the exit (LogBlockEvent): with no barrier
  // records, the engine learns nothing from exit records (barrier_counter.cuh).
  if (!counts_barriers(launch)) log_header_only(launch, group, make_header(launch, RecordOp::kWarpExit, group.mask, site_id));
  if (group.is_leader()) {
    // The grid's last thread frees its table entry: no call of the grid looks it up after that. A
    // child grid counts its own threads (its launch slot counts the host-launched grid's), and its
    // last thread zeroes the count for the next grid of the entry.
    const uint64_t threads = uint64_t{gridDim.x} * gridDim.y * gridDim.z * blockDim.x * blockDim.y * blockDim.z;
    const uint32_t lanes = __popc(group.mask);
#ifndef BARRACUDA_TOOLS_PATCH
    uint32_t* child_exited = launch.child() ? &grid_child(launch.producers, launch.table_index)->threads_exited : nullptr;
#else
    uint32_t* const child_exited = nullptr;  // not a stack byte more for the SASS back end's callbacks
#endif
    const uint64_t before =
        child_exited != nullptr
            ? atomicAdd(child_exited, lanes)
            : static_cast<uint64_t>(atomicAdd(reinterpret_cast<unsigned long long*>(&launch.slot->threads_exited), lanes));
    if (before + lanes == threads) {
      if (child_exited != nullptr) atomicExch(child_exited, 0u);
      atomicExch(reinterpret_cast<unsigned long long*>(&grid_table(launch.producers)[launch.table_index]),
                 kGridDeleted);
    }
  }
}

// Kernels whose global memory the device may check, at each block barrier (kArrive after its LogSync,
// kPass right after the barrier) and before each exit: where the launch counts its barriers
// (device/barrier_counter.cuh), the block's word follows the group.
extern "C" __device__ __noinline__ void __barracuda_log_block_event(uint32_t site_id, uint32_t event) {
  const Launch launch = find_launch(__barracuda_queues);
  if (launch.slot == nullptr || !counts_barriers(launch)) return;  // one launch per grid: every lane alike
  const WarpGroup group = form_group(site_id);
  const auto block_event = static_cast<BlockEvent>(event);
  const uint32_t passed = global_barriers_passed(global_check_of(launch.slot));
  if (block_event == BlockEvent::kArrive) count_global_barrier(launch.slot);
  count_block_event(launch, group, site_id, passed, block_event);
  rejoin(group);
}

extern "C" __device__ __noinline__ void __barracuda_grid_sync_arrival(uint32_t) {
  const Launch launch = find_launch(__barracuda_queues);
  if (launch.slot == nullptr || launch.slot->global_check == 0) return;
  note_grid_sync_arrival(global_check_of(launch.slot));
}

// ---- Dynamic parallelism (barracuda/device_launch.h) ------------------------------------------------

__device__ __forceinline__ uint32_t slot_index(const Launch& launch) {
  return static_cast<uint32_t>(launch.slot - slot_at(launch.producers, 0));
}

// Each calling lane on its own: lanes of a warp launch children of their own.
extern "C" __device__ __noinline__ void __barracuda_claim_child_token(uint64_t buffer, uint32_t token_offset, uint32_t grid_x,
                                                                uint32_t grid_y, uint32_t grid_z) {
  if (buffer == 0) return;  // the device runtime had no buffer: nothing is launched
  const Launch launch = find_launch(__barracuda_queues);
  uint64_t token = 0;  // the parent logs nothing: neither does its child
  if (launch.slot != nullptr) {
    const uint64_t blocks = uint64_t{grid_x} * grid_y * grid_z;
    uint32_t first = kUncheckedChildGrid;
    // Ids are claimed only below the limit, so the counter cannot wrap.
    if (blocks <= kChildBlockIdLimit && load_relaxed_gpu_u32(&launch.slot->next_block) < kChildBlockIdLimit) {
      first = atomicAdd(&launch.slot->next_block, static_cast<uint32_t>(blocks));
      if (first > kChildBlockIdLimit - blocks) first = kUncheckedChildGrid;
    }
    token = child_token(slot_index(launch), first);
  }
  *reinterpret_cast<uint64_t*>(buffer + token_offset) = token;
}

extern "C" __device__ __noinline__ void __barracuda_log_device_launch(uint32_t site_id, uint64_t buffer, uint32_t token_offset,
                                                                  uint64_t stream) {
  const WarpGroup group = form_group(site_id);
  const Launch launch = find_launch(__barracuda_queues);
  const uint64_t token = buffer != 0 ? *reinterpret_cast<const uint64_t*>(buffer + token_offset) : 0;
  if (launch.slot != nullptr && is_child_token(token)) {
    // One record per launching lane, in the order of the launches (its ticket).
    const WarpGroup alone = lane_alone();
    RecordHeader header = make_header(launch, RecordOp::kDeviceLaunch, alone.mask, site_id);
    header.base = stream;
    header.stride = static_cast<int32_t>(child_token_first_block(token));
    log_header_only(launch, alone, header, take_tickets(launch, alone, true, kDeviceLaunchBucket));
  }
  rejoin(group);
}

extern "C" __device__ __noinline__ void __barracuda_log_child_entry(uint32_t site_id, uint64_t token) {
  const WarpGroup group = form_group(site_id);
  const uint32_t first_block = child_token_first_block(token);
  if (!is_child_token(token) || first_block == kUncheckedChildGrid || __barracuda_queues == nullptr) {
    rejoin(group);
    return;
  }
  Launch launch{};
  if (group.is_leader()) {
    launch = register_launch(__barracuda_queues, child_token_slot(token), kGridChildFlag);
    // Every warp of the grid writes the same value before its own first lookup.
    if (launch.slot != nullptr) grid_child(__barracuda_queues, launch.table_index)->first_block = first_block;
  }
  launch.slot = reinterpret_cast<LaunchSlot*>(from_leader(group, reinterpret_cast<uint64_t>(launch.slot)));
  launch.table_index = static_cast<uint32_t>(from_leader(group, launch.table_index));
  if (launch.slot == nullptr) {
    rejoin(group);
    return;
  }
  launch.producers = __barracuda_queues;
  launch.first_block = first_block;
  RecordHeader header = make_header(launch, RecordOp::kChildEntry, group.mask, site_id);
  header.size_mode = pack_size_mode(0, AddressMode::kDelta32);
  const Tickets tickets = take_tickets(launch, group, true, kDeviceLaunchBucket);
  Queue queue = block_queue(launch.producers);
  const uint32_t slots = record_slots(AddressMode::kDelta32);
  Reservation reservation = reserve_record(launch, group, queue, slots, header, tickets);
  if (group.is_leader()) {
    const uint32_t words[kChildGridWords] = {first_block, gridDim.x, gridDim.y, gridDim.z, blockDim.x, blockDim.y, blockDim.z};
    // Payload slots may hold an older lap's bytes: every word is written.
    for (uint32_t slot = 0; slot < slots - 1; ++slot) {
      auto* slot_words = reinterpret_cast<uint32_t*>(queue.slot(reservation.record + 1 + slot));
      for (uint32_t w = 0; w < kSlotBytes / 4; ++w) {
        const uint32_t index = slot * (kSlotBytes / 4) + w;
        slot_words[w] = index < kChildGridWords ? words[index] : 0;
      }
    }
    publish(queue, reservation, header);
  }
  rejoin(group);
}

extern "C" __device__ __noinline__ void __barracuda_shared_check_begin() {
  const Launch launch = find_launch(__barracuda_queues);
  if (launch.slot == nullptr) return;
  SharedPoolRow* row = shared_pool_row(launch.slot);
  if (row == nullptr) return;
  WarpGroup group = form_group(0);
  const uint64_t key = shared_block_key(launch.slot->launch_id, linear_block_id());
  // Every warp but the block's first finds the slot claimed; only a claim takes the row lock.
  uint32_t index = group.is_leader() ? find_slot(row, key) : 0;
  if (__shfl_sync(group.mask, index, group.leader) == kSharedSlotsPerRow) {
    // The group waits for the row lock as one (see reserve() for why never the leader alone).
    for (uint32_t sleep_ns = kBackPressureSleepNs;; sleep_ns = min(2 * sleep_ns, kMaxBackPressureSleepNs)) {
      uint32_t locked = 0;
      if (group.is_leader()) locked = atomicCAS(&row->lock, 0u, 1u) == 0;
      if (__shfl_sync(group.mask, locked, group.leader)) break;
      __nanosleep(sleep_ns);
    }
    if (group.is_leader()) {
      __threadfence();
      index = claim_slot(row, key);
      __threadfence();
      atomicExch(&row->lock, 0u);
    }
  }
  if (group.is_leader()) row->warp_slot[hardware_warp_id()] = key | uint64_t{index} << 48;
  index = __shfl_sync(group.mask, index, group.leader);
  const SharedSlot slot = slot_at(launch.slot, row, index);
  // The thread's epoch starts at the block's first: the checks read it with one load that stays in the
  // SM (the thread alone writes its word), not two, one of them from L2.
  if (slot.has_shadow()) slot.epochs[thread_in_block()] = load_cg(&row->first_epoch[index]);
  rejoin(group);
}

extern "C" __device__ __noinline__ void __barracuda_shared_check_end() {
  const Launch launch = find_launch(__barracuda_queues);
  if (launch.slot == nullptr) return;
  const SharedSlot slot = block_slot(launch.slot);
  if (slot.row == nullptr || slot.index >= kSharedSlotsPerRow) return;  // the block held no slot
  WarpGroup group = form_group(0);
  const uint32_t passed =
      slot.has_shadow() ? slot.epochs[thread_in_block()] - load_cg(&slot.row->first_epoch[slot.index]) : 0;
  const uint32_t most = group_max(group, passed);
  if (group.is_leader()) {
    atomicMax(&slot.row->last_interval[slot.index], most);
    __threadfence();
    const uint32_t threads = blockDim.x * blockDim.y * blockDim.z;
    const uint32_t lanes = __popc(group.mask);
    if (atomicAdd(&slot.row->exited_threads[slot.index], lanes) + lanes == threads) {
      // The block's last thread: blocks claiming later start past every epoch it used.
      __threadfence();  // after every other group's atomicMax, as their counts were after it
      atomicMax(&slot.row->epoch_clock,
                load_cg(&slot.row->first_epoch[slot.index]) + load_cg(&slot.row->last_interval[slot.index]) + 1);
      __threadfence();
      atomicExch(reinterpret_cast<unsigned long long*>(&slot.row->owner[slot.index]), 0ull);
    }
  }
  rejoin(group);
}
