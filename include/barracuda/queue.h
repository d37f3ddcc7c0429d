#pragma once
// The event queues: rings of 32-byte slots the instrumented kernels log into and the host drains.
// Shared by device/ (CUDA C++) and src/runtime (host C++), like record.h: plain fixed-width fields.
//
// Two allocations, so that the atomics and reads of every record stay on the GPU (only the record's
// own writes, posted, and one system fence cross the bus):
//
// * The producer block, in DEVICE memory (the host writes its address into the instrumented module's
//   `.global .u64 __barracuda_queues` after loading it, so kernels need no extra parameter):
//     offset 0               QueueProducerHeader        (128 bytes: constants)
//     offset 128 + 128 * q   QueueProducerLine of queue q  (write_head, read_head_cache)
//     launch_slot_offset(n, s)   LaunchSlot s of kLaunchSlots (launch id, shared check, ...)
//     grid_table_offset(n)       the grid table: kGridTableEntries words, %gridid -> launch slot
//     sync_buckets_offset(n, s)  launch slot s's sync-ticket counters, one per bucket (sync_bucket.h)
// * The host arena, page-locked HOST memory mapped into the GPU (QueueProducerHeader::host_arena):
//     offset 0                      QueueArenaHeader            (128 bytes)
//     offset 128 + 128 * q          QueueControl of queue q     (read_head, written by the host)
//     arena_ring_offset(n, capacity, q)   the ring of `capacity` 32-byte slots of queue q
//
// Protocol of one queue (positions are monotonic 64-bit slot counters; slot = position & (capacity-1)):
//   1. reserve: one leader lane per warp does write_head += n (an L2 atomic in device memory) for its
//      whole reservation: the record, plus a kSyncTicket slot in front when takes_sync_ticket();
//   2. back-pressure: while position + n > read_head_cache + back_pressure_limit() the leader re-reads the host's
//      read_head (acquire, system scope), raises read_head_cache to it and sleeps, with the rest of
//      its warp group waiting in the same loop (never at a convergence point: device/runtime.cu says
//      why); nothing unread is overwritten and nothing is dropped: the GPU waits for the host. A
//      whole warp stops a quarter of the ring short, leaving it to branch lanes, which should not wait;
//   3. fill: every active lane writes its payload slots; records may wrap around the end of the ring;
//   4. publish, header-last: after __syncwarp the leader writes every header word of the reservation
//      except word 0 of its first slot, fences at system scope, then stores that word. A slot whose
//      word 0 is non-zero (op != kInvalid) starts a reservation whose bytes are all visible.
//      Reservations are published independently: no warp waits for another.
// The host drains from read_head while the slot there has op != 0: it validates the header, copies the
// record's slots out, ZEROES them (so op == 0 means "not yet written" the next time round), then
// stores read_head (release). A malformed header discards the queue: the host frees its whole ring
// on every pass from then on, so the GPU never blocks on it.
// A record that takes_sync_ticket() accepts is preceded, in the same reservation, by a kSyncTicket
// header carrying its location bucket's counter++ (record_ops.inc): the order of synchronisation
// across queues, per location bucket.
//
// Launches in flight at once: several kernels log into the same queues, each record naming its
// launch (RecordHeader::launch_id). Before a checked launch the host picks a free LaunchSlot, writes
// it (launch id, zeroed sync-ticket counters, shared checking), and a stream-ordered memset in the
// launch's own stream stores the slot's index into the kernel's `__barracuda_launch_of_<kernel>`
// global; after the kernel, in the same stream, device/launch_slot_release.cu puts kNoLaunchSlot back
// unless a later launch of the kernel named its own slot meanwhile. At entry each warp registers its
// grid (%gridid) in the grid table; the grid's first registration decides its slot (so a launch of the
// same kernel in another stream may name its slot once the host has seen this grid's first record),
// and every later call, from any function, finds its launch there by %gridid. A grid whose kernel global holds kNoLaunchSlot (not checked: a graph, a launch the filters
// left out) logs nothing. The last thread to exit marks the grid's entry deleted (kGridDeleted).
// The host knows a launch ended from an event recorded after it; a drain pass started after that
// yields every record of the launch.

#include <stddef.h>
#include <stdint.h>

#include "barracuda/record_view.h"
#include "barracuda/sync_bucket.h"

namespace barracuda {

inline constexpr uint32_t kQueueArenaMagic = 0xBA7AC0DAu;
// 3: producer block in device memory, header-last publication, no commit index
// 4: the producer header points at the shadow pool of device shared-memory checking
// 5: launch slots and the grid table replace the header's launch fields (launches run concurrently)
// 6: LaunchSlot::flags (loads through read-only parameters)
// 8: sync tickets per location bucket (LaunchSlot::sync_buckets) instead of one counter per launch
// 9: 2^14 sync-ticket buckets per launch slot (2^11 before)
// 10: child grids (dynamic parallelism): LaunchSlot::next_block, grid-table child entries, GridChild
inline constexpr uint32_t kQueueFormatVersion = 10;
inline constexpr uint32_t kQueueLineBytes = 128;  // fields written by different sides never share a line

// Names the instrumentation passes and the host use to reach the device runtime (device/runtime.cu).
#define BARRACUDA_QUEUES_SYMBOL "__barracuda_queues"
// The seed of the schedule perturbation (option perturb; ptx/passes/schedule_perturbation.h): a weak
// .global .u32 the pass defines in modules it perturbs and the host sets after loading them.
#define BARRACUDA_PERTURB_SEED_SYMBOL "__barracuda_perturb_seed"
// Prefix of each instrumented kernel's launch-slot global (.u32): the prefix and the kernel's name.
#define BARRACUDA_LAUNCH_SLOT_PREFIX "__barracuda_launch_of_"

inline constexpr uint32_t kLaunchSlots = 64;  // checked launches whose kernels may run at once
inline constexpr uint32_t kNoLaunchSlot = 0xffffffffu;  // a kernel global's value: log nothing

// Host memory: what the host owns and the GPU reads rarely.
struct QueueArenaHeader {
  uint32_t magic;           // kQueueArenaMagic
  uint32_t version;         // kQueueFormatVersion
  uint32_t queue_count;     // number of QueueControl blocks and rings
  uint32_t queues_per_sm;   // as in QueueProducerHeader
  uint64_t capacity;        // slots per ring, a power of two >= kMaxRecordSlots
  uint8_t padding[kQueueLineBytes - 24];
};
static_assert(sizeof(QueueArenaHeader) == kQueueLineBytes, "the arena header fills one line");
static_assert(offsetof(QueueArenaHeader, capacity) == 16,
              "layout is shared with device code: change it only with kQueueFormatVersion");

struct QueueControl {
  uint64_t read_head;  // slots the host has consumed (and zeroed); written only by the host
  uint8_t padding[kQueueLineBytes - 8];
};
static_assert(sizeof(QueueControl) == kQueueLineBytes, "one control block per line");

// Device memory: everything the producers touch on every record.
struct QueueProducerHeader {
  uint32_t magic;          // kQueueArenaMagic
  uint32_t version;        // kQueueFormatVersion
  uint32_t queue_count;    // number of QueueProducerLines (and of rings in the host arena)
  uint32_t queues_per_sm;  // a block logs into queue (smid * queues_per_sm + block % queues_per_sm) % queue_count
  uint64_t capacity;       // slots per ring
  uint64_t host_arena;     // device address of the mapped host arena (QueueArenaHeader)
  uint8_t padding[kQueueLineBytes - 32];
};
static_assert(sizeof(QueueProducerHeader) == kQueueLineBytes, "the producer header fills one line");
static_assert(offsetof(QueueProducerHeader, host_arena) == 24,
              "layout is shared with device code: change it only with kQueueFormatVersion");

// One launch in flight, in device memory. The host writes the fields before the launch (and zeroes
// the slot's sync-ticket counters); the device only increments.
// Parameters 0-3 of a kernel may have their loads left unlogged (two bits of access_info say which).
inline constexpr uint32_t kReadOnlyParameterRanges = 4;

// LaunchSlot::flags.
enum LaunchFlag : uint32_t {
  // Loads marked kAccessReadOnlyParameter are not logged: the host found that no other pointer
  // argument of the launch points into the same allocation and that no other launch can run beside it.
  kLaunchSkipsReadOnlyParameterLoads = 1u << 0,
  // Branch, reconvergence and warp-entry records are logged. Only the lockstep warp model uses the
  // first two, and the engine starts every warp with its existing lanes live without the third; a
  // recorded trace keeps all of them for a replay under either model. Without them, kernels whose
  // accesses the device checks send little more than their barriers and exits.
  kLaunchLogsEveryRecord = 1u << 1,
  // The kernel may launch child grids from the device (barracuda/device_launch.h): its warps log
  // kChildExit before they exit, for the grids tail-launched after it.
  kLaunchHasChildGrids = 1u << 2,
  // Block barriers are counted on the device, not logged (barracuda/barrier_count.h): set with
  // LaunchSlot::global_check when no record is kept for a replay. The host receives kBarriersPassed
  // before the records the engine orders, and kBarrierDivergence where a barrier diverged.
  kLaunchCountsBarriers = 1u << 3,
};

struct LaunchSlot {
  uint32_t launch_id;  // RecordHeader::launch_id of the launch's records
  // Device checking of shared memory (barracuda/shared_check_pool.h) in this launch: the pool's rows
  // (one per SM id below it), 0 when off.
  uint32_t shared_pool_rows;
  uint64_t sync_buckets;      // device address of kSyncBuckets counters: each bucket's next ticket
  uint64_t shared_pool;       // device address of the shadow pool
  uint64_t shared_pool_row_bytes;
  uint64_t threads_exited;    // device-incremented: threads past their kWarpExit record
  uint32_t flags;             // LaunchFlag bits
  // The next free block id for a child grid launched from the device (barracuda/device_launch.h): the
  // host sets it to the grid's block count, launching threads claim ids from it.
  uint32_t next_block;
  // With kLaunchSkipsReadOnlyParameterLoads: the allocation [begin, end) each read-only parameter
  // below kReadOnlyParameterRanges points into; an empty range for the others.
  uint64_t read_only_begin[kReadOnlyParameterRanges];
  uint64_t read_only_end[kReadOnlyParameterRanges];
  // Device address of the launch's GlobalCheckLaunch (barracuda/global_check_launch.h) when the device
  // checks global memory in it; 0 when not.
  uint64_t global_check;
  uint8_t padding[kQueueLineBytes - 56 - 16 * kReadOnlyParameterRanges];
};
static_assert(sizeof(LaunchSlot) == kQueueLineBytes && offsetof(LaunchSlot, sync_buckets) == 8 &&
                  offsetof(LaunchSlot, threads_exited) == 32 && offsetof(LaunchSlot, flags) == 40 &&
                  offsetof(LaunchSlot, read_only_begin) == 48 && offsetof(LaunchSlot, global_check) == 112,
              "layout is shared with device code: change it only with kQueueFormatVersion");

// The grid table: open addressing from grid_table_home(%gridid), linear probing. An entry is 0
// (never used: a lookup stops there), kGridDeleted (its grid ended: skipped, and reusable), or
// grid_table_entry(grid, slot).
inline constexpr uint32_t kGridTableEntries = 1024;  // a power of two, well above kLaunchSlots
inline constexpr uint64_t kGridDeleted = 1;
// The entry's low byte: the slot, and kGridChildFlag for a child grid launched from the device, whose
// first block id and exit count are in the GridChild of the same index.
inline constexpr uint32_t kGridChildFlag = 0x80;
constexpr uint64_t grid_table_key(uint64_t grid_id) { return (grid_id & 0xffffffffffffull) + 1; }  // never 0
constexpr uint64_t grid_table_entry(uint64_t grid_id, uint32_t slot) { return grid_table_key(grid_id) << 8 | slot; }
constexpr uint32_t grid_table_slot(uint64_t entry) { return static_cast<uint32_t>(entry & (kGridChildFlag - 1)); }
constexpr bool grid_table_is_child(uint64_t entry) { return (entry & kGridChildFlag) != 0; }

// Beside each grid-table entry: a child grid's first block id (written by each of its warps at entry,
// the same value) and its threads past their exit record (the last one zeroes it for the next grid).
struct GridChild {
  uint32_t first_block;
  uint32_t threads_exited;
};
static_assert(sizeof(GridChild) == 8, "layout is shared with device code: change it only with kQueueFormatVersion");
constexpr uint32_t grid_table_home(uint64_t grid_id) {
  return static_cast<uint32_t>((grid_id * 0x9E3779B97F4A7C15ull) >> 32) & (kGridTableEntries - 1);
}
static_assert((kGridTableEntries & (kGridTableEntries - 1)) == 0 && kLaunchSlots < kGridChildFlag,
              "the slot index fits the entry's low byte");

struct QueueProducerLine {
  uint64_t write_head;       // slots reserved so far
  uint64_t read_head_cache;  // a lower bound of the host's read_head, raised by waiting producers
  uint8_t padding[kQueueLineBytes - 16];
};
static_assert(sizeof(QueueProducerLine) == kQueueLineBytes, "one producer line per queue");

constexpr uint64_t producer_line_offset(uint32_t queue) {
  return sizeof(QueueProducerHeader) + uint64_t{queue} * sizeof(QueueProducerLine);
}
constexpr uint64_t launch_slot_offset(uint32_t queue_count, uint32_t slot) {
  return producer_line_offset(queue_count) + uint64_t{slot} * sizeof(LaunchSlot);
}
constexpr uint64_t grid_table_offset(uint32_t queue_count) { return launch_slot_offset(queue_count, kLaunchSlots); }
constexpr uint64_t grid_children_offset(uint32_t queue_count) {
  return grid_table_offset(queue_count) + uint64_t{kGridTableEntries} * sizeof(uint64_t);
}
// The grid table and its GridChild array, cleared together.
constexpr uint64_t grid_table_bytes() { return uint64_t{kGridTableEntries} * (sizeof(uint64_t) + sizeof(GridChild)); }
constexpr uint64_t sync_buckets_offset(uint32_t queue_count, uint32_t slot) {
  return grid_table_offset(queue_count) + grid_table_bytes() + uint64_t{slot} * kSyncBuckets * sizeof(uint64_t);
}
constexpr uint64_t producer_block_bytes(uint32_t queue_count) { return sync_buckets_offset(queue_count, kLaunchSlots); }

// The longest record (header + 32 absolute addresses); a ring must hold at least one.
inline constexpr uint32_t kMaxRecordSlots = record_slots(AddressMode::kFull64);

// Back-pressure (protocol step 2): how far past the host's read_head a reservation of `slots` may end
// before its group waits. A group that is not its whole warp (lanes of an application branch) should
// not wait at all: its loop would let the warp's other lanes past the branch's reconvergence point
// (device/runtime.cu, reserve()). So whole warps leave it the last quarter of the ring, never so much
// that their own record could not fit.
#if defined(__CUDACC__)
__host__ __device__
#endif
constexpr uint64_t back_pressure_limit(uint64_t capacity, uint32_t slots, bool whole_warp) {
  const uint64_t spare = slots < capacity ? capacity - slots : 0;  // what the record leaves of the ring
  const uint64_t headroom = whole_warp ? capacity / 4 : 0;
  return capacity - (headroom < spare ? headroom : spare);
}

constexpr uint64_t arena_control_offset(uint32_t queue) {
  return sizeof(QueueArenaHeader) + uint64_t{queue} * sizeof(QueueControl);
}
constexpr uint64_t arena_slots_offset(uint32_t queue_count) { return arena_control_offset(queue_count); }
constexpr uint64_t arena_ring_offset(uint32_t queue_count, uint64_t capacity, uint32_t queue) {
  return arena_slots_offset(queue_count) + uint64_t{queue} * capacity * kSlotBytes;
}
constexpr uint64_t arena_bytes(uint32_t queue_count, uint64_t capacity) {
  return arena_ring_offset(queue_count, capacity, queue_count);
}
constexpr bool valid_queue_capacity(uint64_t capacity) {
  return capacity >= kMaxRecordSlots && (capacity & (capacity - 1)) == 0;
}

// Packing of the `access_info` argument of __barracuda_log_access (device-only; the record keeps the
// fields in RecordHeader form):
//   bits 0-7   RecordOp (kLoad, kStore, kAtomic, kReduction, kAsyncCopy)
//   bits 8-15  space_sem as pack_space_sem() packs it
//   bits 16-18 log2(bytes per lane)
//   bit  19    kAccessGeneric: the address is generic; the runtime classifies it (isspacep) and
//              overrides the MemorySpace bits
//   bit  20    kAccessHasValue: `value` holds the stored value (enables the same-value flag)
//   bit  21    kAccessNoSyncTicket: no thread of the launch can execute a fence (the kernel's call
//              closure has none), so this access, one ticket_only_serves_fences() accepts, cannot
//              synchronise: the runtime takes no sync ticket for it (docs/sync_order.md)
//   bit  22    kAccessSpinRead: an ld.volatile whose value decides whether a loop containing it
//              iterates again (src/ptx/passes/spin_reads.h); the runtime sets kFlagSpinRead in the
//              record (barracuda/record.h)
//   bit  23    kAccessDeviceShared: a plain load or store, or a shared atomic, of a kernel whose shared
//              memory the device checks (src/ptx/passes/shared_checkable_kernels.h): when the launch has
//              device checking on and the address is shared (a generic one as classified), the device checks it
//              against the block's shadow and logs nothing (device/shared_checker.cuh)
//   bit  24    kAccessReadOnlyParameter: a load through a kernel parameter the kernel never writes
//              through (src/ptx/passes/read_only_parameters.h): not logged in launches whose slot has
//              kLaunchSkipsReadOnlyParameterLoads when its address lies in the range the slot gives that
//              parameter (its allocation: a load past it is logged)
//   bits 25-26 the index of that parameter (below kReadOnlyParameterRanges)
//   bit  27    kAccessDeviceGlobal: a load, store or atomic of global or generic memory in a kernel
//              whose global memory the device can check (src/ptx/passes/global_checkable_kernels.h):
//              nothing but full-block barriers orders it with other threads' accesses, and its strong
//              accesses are relaxed loads and unordered atomics of .gpu/.sys scope, of a word or more. A
//              generic access may carry kAccessDeviceShared too: the address, as classified, says which
//              applies
inline constexpr uint32_t kAccessGeneric = 1u << 19;
inline constexpr uint32_t kAccessHasValue = 1u << 20;
inline constexpr uint32_t kAccessNoSyncTicket = 1u << 21;
inline constexpr uint32_t kAccessSpinRead = 1u << 22;
inline constexpr uint32_t kAccessDeviceShared = 1u << 23;
inline constexpr uint32_t kAccessReadOnlyParameter = 1u << 24;
inline constexpr uint32_t kAccessParameterShift = 25;
inline constexpr uint32_t kAccessDeviceGlobal = 1u << 27;
constexpr uint32_t access_info_parameter(uint32_t access_info) {
  return (access_info >> kAccessParameterShift) & (kReadOnlyParameterRanges - 1);
}

// Ticketed accesses that synchronise only by completing a fence's release pattern ("fence; write"):
// relaxed, volatile and legacy strong writes and read-modify-writes. Their reads acquire only
// through a following fence, which has its own ticket. Release, acquire, acq_rel and sc accesses
// synchronise by themselves and always keep their ticket.
constexpr bool ticket_only_serves_fences(RecordOp op, uint8_t space_sem) {
  return takes_sync_ticket(op, space_sem) && sync_role(op, space_sem) == SyncRole::kRelease &&
         semantics_of(space_sem) != MemorySemantics::kRelease;
}

constexpr uint32_t pack_access_info(RecordOp op, uint8_t space_sem, uint32_t size_log2, uint32_t extra_bits) {
  return static_cast<uint32_t>(op) | (uint32_t{space_sem} << 8) | ((size_log2 & 0x7u) << 16) | extra_bits;
}
constexpr RecordOp access_info_op(uint32_t access_info) { return static_cast<RecordOp>(access_info & 0xffu); }
constexpr uint8_t access_info_space_sem(uint32_t access_info) { return static_cast<uint8_t>(access_info >> 8); }
constexpr uint32_t access_info_size_log2(uint32_t access_info) { return (access_info >> 16) & 0x7u; }

}  // namespace barracuda
