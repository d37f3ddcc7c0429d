#pragma once
// The event record the instrumented GPU code writes into a device queue and the host engine reads.
// Shared by device/ (CUDA C++) and src/ (host C++): plain fixed-width fields, no pointers, no
// constructors, so the same header compiles under nvcc and g++/clang and the layout is identical.
//
// A queue is an array of 32-byte slots. Every record starts with one RecordHeader slot; the
// address payload that follows depends on AddressMode:
//   kAffine   : no extra slot. lane i (set in active_mask) accessed base + i * stride.
//               Coalesced and uniform warp accesses (the common case) cost 32 bytes per warp access.
//   kDelta32  : 4 extra slots = 32 x int32 offsets from base (one per lane, inactive lanes 0).
//   kFull64   : 8 extra slots = 32 x uint64 absolute addresses (inactive lanes 0).
// Non-memory events (barriers, fences, branches, entry/exit) use the header alone; `base` and
// `stride` then carry operation-specific payload documented next to each RecordOp.

#include <stddef.h>
#include <stdint.h>

namespace barracuda {

inline constexpr uint32_t kWarpSize = 32;
inline constexpr uint32_t kSlotBytes = 32;

enum class RecordOp : uint8_t {
  kInvalid = 0,  // a zeroed slot: the producer has reserved but not yet written it
  // Memory accesses: base/stride/mode describe the addresses, size_log2 the access width per lane.
  kLoad = 1,
  kStore = 2,
  kAtomic = 3,     // read-modify-write (atom.*)
  kReduction = 4,  // write-only atomic (red.*)
  kAsyncCopy = 5,  // cp.async / bulk copies: base = destination, the source is logged as a kLoad
  // Synchronisation. base = payload below.
  kFence = 16,            // fence/membar; scope in `scope`, sem in `sem` (sc or acq_rel)
  kBarrier = 17,          // bar.sync / barrier.sync: base = barrier id (0-15), stride = expected thread count (0: all)
  kBarrierArrive = 18,    // bar.arrive: same payload as kBarrier
  kWarpSync = 19,         // bar.warp.sync: base = member mask (one record per distinct mask)
  kClusterBarrier = 20,   // barrier.cluster.arrive/wait: base = ClusterBarrierPayload bits
  kMbarrierArrive = 21,   // mbarrier.arrive*: base = mbarrier address
  kMbarrierWait = 22,     // successful mbarrier.test_wait/try_wait: base = mbarrier address
  // Causal order across queues: base = the launch's next sync ticket (0, 1, 2, ... per launch), taken
  // by one device-wide atomic. Written in the same reservation immediately before the record it
  // orders (same block, warp, site and lanes); that record is one takes_sync_ticket() accepts.
  // Whenever an operation B observed an operation A on the GPU, A's ticket is smaller than B's (see
  // SyncRole), so the engine applies ticketed records in ticket order. Traces written before
  // tickets existed simply lack them.
  kSyncTicket = 23,
  // Control flow for the lockstep warp model (immediate post-dominator reconvergence).
  kBranchIf = 32,    // active_mask = lanes taking the branch; base = mask of lanes before the branch
  kBranchElse = 33,  // active_mask = lanes of the other side
  kBranchFi = 34,    // reconvergence: active_mask = lanes reunited
  // Lifetime.
  kWarpEntry = 48,  // first record of a warp: active_mask = lanes that exist
  kWarpExit = 49,   // last record of a warp: after it the warp logs nothing more
};

enum class MemorySpace : uint8_t {
  kGlobal = 0,
  kShared = 1,   // shared memory of the issuing block (addresses are offsets in the CTA window)
  kCluster = 2,  // distributed shared memory of another block of the cluster
  kOther = 3,    // local/const/param: never reported, kept so the engine can count them
};

// PTX memory-model qualifiers (PTX ISA "Memory Consistency Model").
enum class MemorySemantics : uint8_t {
  kWeak = 0,  // plain ld/st: no qualifier
  kRelaxed = 1,
  kAcquire = 2,
  kRelease = 3,
  kAcqRel = 4,
  kSeqCst = 5,    // fence.sc
  kVolatile = 6,  // ld/st.volatile: treated as relaxed.sys by the PTX model
  kLegacy = 7,    // atom/red without .sem (legacy atomics: relaxed), membar.* (fence.sc)
};

enum class MemoryScope : uint8_t {
  kCta = 0,
  kCluster = 1,
  kGpu = 2,
  kSystem = 3,
};

enum class AddressMode : uint8_t {
  kAffine = 0,
  kDelta32 = 1,
  kFull64 = 2,
};

// RecordHeader::base of a kClusterBarrier record: 0 is barrier.cluster.arrive (release).
enum ClusterBarrierPayload : uint8_t {
  kClusterBarrierWait = 1u << 0,     // barrier.cluster.wait (acquire)
  kClusterBarrierRelaxed = 1u << 1,  // barrier.cluster.arrive.relaxed: orders no memory
};

// Bit flags in RecordHeader::flags.
enum RecordFlag : uint8_t {
  kFlagSameValue = 1u << 0,       // lanes writing the same address wrote the same value (match.any on GPU)
  kFlagIntraWarpConflict = 1u << 1,  // two active lanes touched the same address (match.any on GPU)
  // A kAffine store whose lanes all stored one value (at most 4 bytes) to one address: the lanes'
  // stride is 0, and `stride` carries that value instead (zero-extended to 32 bits). The engine learns
  // from it which stores always write the same constant (a flag set by many threads).
  kFlagUniformValue = 1u << 2,
};

struct RecordHeader {
  uint8_t op;          // RecordOp
  uint8_t space_sem;   // bits 0-1 MemorySpace, bits 2-4 MemorySemantics, bits 5-6 MemoryScope
  uint8_t size_mode;   // bits 0-2 log2(bytes per lane access: 0..4), bits 3-4 AddressMode
  uint8_t flags;       // RecordFlag bits
  uint32_t active_mask;  // lanes that executed the instruction
  uint32_t site_id;      // index into the module's site table (offset by the module's site base)
  uint32_t block_id;     // linear block index: x + y * gridDim.x + z * gridDim.x * gridDim.y
  uint16_t warp_id;      // warp index within the block (threadIdx linearised / 32)
  uint16_t launch_id;    // host-assigned per kernel launch, wraps at 65536 (pairs with queue epochs)
  int32_t stride;        // kAffine: byte stride between consecutive lanes
  uint64_t base;         // lowest lane's address (kAffine), base for kDelta32, or op payload
};
static_assert(sizeof(RecordHeader) == kSlotBytes, "one record header is exactly one queue slot");
static_assert(alignof(RecordHeader) == 8, "slots are 8-byte aligned");
static_assert(offsetof(RecordHeader, active_mask) == 4 && offsetof(RecordHeader, site_id) == 8 &&
                  offsetof(RecordHeader, block_id) == 12 && offsetof(RecordHeader, warp_id) == 16 &&
                  offsetof(RecordHeader, launch_id) == 18 && offsetof(RecordHeader, stride) == 20 &&
                  offsetof(RecordHeader, base) == 24,
              "layout is shared with device code and trace files: change it only with kRecordFormatVersion");

inline constexpr uint32_t kRecordFormatVersion = 1;

// Helpers that pack and unpack the bitfields; constexpr so device and host share them.
constexpr uint8_t pack_space_sem(MemorySpace space, MemorySemantics sem, MemoryScope scope) {
  return static_cast<uint8_t>(static_cast<uint32_t>(space) | (static_cast<uint32_t>(sem) << 2) |
                              (static_cast<uint32_t>(scope) << 5));
}
constexpr MemorySpace record_space(const RecordHeader& h) { return static_cast<MemorySpace>(h.space_sem & 0x3u); }
constexpr MemorySemantics record_semantics(const RecordHeader& h) {
  return static_cast<MemorySemantics>((h.space_sem >> 2) & 0x7u);
}
constexpr MemoryScope record_scope(const RecordHeader& h) { return static_cast<MemoryScope>((h.space_sem >> 5) & 0x3u); }

constexpr uint8_t pack_size_mode(uint32_t size_log2, AddressMode mode) {
  return static_cast<uint8_t>((size_log2 & 0x7u) | (static_cast<uint32_t>(mode) << 3));
}
constexpr uint32_t record_access_bytes(const RecordHeader& h) { return 1u << (h.size_mode & 0x7u); }
constexpr AddressMode record_address_mode(const RecordHeader& h) {
  return static_cast<AddressMode>((h.size_mode >> 3) & 0x3u);
}

// How an operation can take part in synchronisation, which decides where the instrumentation logs
// it relative to the instruction so that records (and sync tickets) follow the GPU's causal order:
//   kRelease: logged BEFORE the instruction executes: a later observer of its write logs (and takes
//             its ticket) after observing it, hence later. Strong writes of every kind: any of them
//             can complete a fence's release pattern ("fence; write").
//   kAcquire: logged AFTER the instruction (its read has completed): any write it observed was
//             logged before that write executed. Fences are kAcquire too: after the fence, prior
//             reads are complete and following writes have not executed yet. atom.acq_rel/acquire
//             is kAcquire (one record per instruction: the acquire side wins).
enum class SyncRole : uint8_t { kNone, kRelease, kAcquire };

constexpr SyncRole sync_role(RecordOp op, uint8_t space_sem) {
  const auto sem = static_cast<MemorySemantics>((space_sem >> 2) & 0x7u);
  const bool acquiring = sem == MemorySemantics::kAcquire || sem == MemorySemantics::kAcqRel ||
                         sem == MemorySemantics::kSeqCst;
  switch (op) {
    case RecordOp::kFence: return SyncRole::kAcquire;
    case RecordOp::kLoad: return acquiring ? SyncRole::kAcquire : SyncRole::kNone;
    case RecordOp::kAtomic:
      if (acquiring) return SyncRole::kAcquire;
      [[fallthrough]];
    case RecordOp::kStore:
    case RecordOp::kReduction: return sem == MemorySemantics::kWeak ? SyncRole::kNone : SyncRole::kRelease;
    default: return SyncRole::kNone;
  }
}

// Records that can synchronise across blocks carry a sync ticket (RecordOp::kSyncTicket): every
// synchronising operation outside the issuing block's shared memory, whatever its scope (a
// block-scoped release observed by another block is a scoped race, and classifying it needs the
// order too). Shared-memory atomics, hot in histogram-like kernels, stay ticket-free: queue order
// within the block already orders them.
constexpr bool takes_sync_ticket(RecordOp op, uint8_t space_sem) {
  const auto space = static_cast<MemorySpace>(space_sem & 0x3u);
  return space != MemorySpace::kShared && sync_role(op, space_sem) != SyncRole::kNone;
}

// The byte stride between consecutive lanes of a kAffine record (kFlagUniformValue: 0, one address).
constexpr int32_t record_affine_stride(const RecordHeader& h) {
  return (h.flags & kFlagUniformValue) != 0 ? 0 : h.stride;
}
// The value every lane stored, for a record with kFlagUniformValue.
constexpr uint32_t record_uniform_value(const RecordHeader& h) { return static_cast<uint32_t>(h.stride); }

// Slots a record occupies, header included.
constexpr uint32_t record_slots(AddressMode mode) {
  return mode == AddressMode::kAffine ? 1u : mode == AddressMode::kDelta32 ? 1u + 4u : 1u + 8u;
}

}  // namespace barracuda
