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
// `stride` then carry operation-specific payload documented next to each op in record_ops.inc.
// This header defines the layout and packs its fields; RecordView (record_view.h) is the one decoder.

#include <stddef.h>
#include <stdint.h>

namespace barracuda {

inline constexpr uint32_t kWarpSize = 32;
inline constexpr uint32_t kSlotBytes = 32;

// Generated from record_ops.inc, which documents each op's payload; record_view.h answers which
// ops exist and what kind each is.
enum class RecordOp : uint8_t {
  kInvalid = 0,  // a zeroed slot: the producer has reserved but not yet written it
#define BARRACUDA_RECORD_OP(enumerator, value, name, kind) enumerator = value,
#include "barracuda/record_ops.inc"
#undef BARRACUDA_RECORD_OP
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

// The hazard two conflicting accesses form, named from the earlier access to the later one: what the
// host engine reports and what a device race record carries (barracuda/race_rule.h decides it).
enum class Hazard : uint8_t {
  kReadAfterWrite = 0,
  kWriteAfterRead = 1,
  kWriteAfterWrite = 2,
  kAtomicPlain = 3,  // an atomic (atom/red) and a non-atomic access
};

// Of an atomic-plain pair, what its hazard does not name: whether the earlier access was the atomic,
// and whether the plain access wrote (barracuda/race_rule.h: atomic_plain_sides). A device race record
// carries them in its flags (kFlagRaceAtomicFirst, kFlagRacePlainWrite).
struct AtomicPlainSides {
  bool atomic_first;
  bool plain_write;
};

// What a kSharedRace record carries in `base` and `stride` (record_ops.inc); the header itself names
// the second access.
struct SharedRacePayload {
  uint32_t offset;        // shared offset of the 4-byte word both accesses touched (below 2^18)
  uint32_t first_thread;  // block-linear thread of the first access (below 1024)
  uint32_t first_site;
  Hazard hazard;
  bool same_value;  // both were stores of one value to one address by a whole warp group (`value`)
  uint32_t value;
  AtomicPlainSides sides;  // from the header's flags
};

inline constexpr uint32_t kSharedRaceOffsetBits = 18;  // 256 KiB: past any block's shared memory
inline constexpr uint32_t kSharedRaceThreadBits = 10;  // 1024 threads a block

constexpr uint64_t pack_shared_race_base(const SharedRacePayload& payload) {
  return (payload.offset & ((1u << kSharedRaceOffsetBits) - 1)) |
         (uint64_t{payload.first_thread & ((1u << kSharedRaceThreadBits) - 1)} << 18) |
         (uint64_t{static_cast<uint8_t>(payload.hazard) & 0x3u} << 28) | (uint64_t{payload.same_value} << 30) |
         (uint64_t{payload.value} << 32);
}

// What a kGlobalRace record carries in its payload (record_ops.inc): int32 words of its kDelta32
// payload slots, by index. The header names the second access and `base` the 4-byte word's address.
struct GlobalRacePayload {
  uint32_t first_block;   // linear block of the first access
  uint32_t first_thread;  // its block-linear thread (below 1024)
  uint32_t first_site;    // kGlobalUnknownSite (global_check.h) when the device could not tell
  Hazard hazard;
  bool same_value;  // both were stores of one value to one address by a whole warp group (`value`)
  uint32_t value;
  AtomicPlainSides sides;  // from the header's flags
};
enum GlobalRacePayloadWord : uint32_t {
  kGlobalRaceFirstBlock = 0,
  kGlobalRaceFirstThread = 1,
  kGlobalRaceFirstSite = 2,
  kGlobalRaceHazard = 3,  // Hazard | same_value << 2
  kGlobalRaceValue = 4,
};

// Bit flags in RecordHeader::flags.
enum RecordFlag : uint8_t {
  kFlagSameValue = 1u << 0,       // lanes writing the same address wrote the same value (match.any on GPU)
  kFlagIntraWarpConflict = 1u << 1,  // two active lanes touched the same address (match.any on GPU)
  // A kAffine store whose lanes all stored one value (at most 4 bytes) to one address: the lanes'
  // stride is 0, and `stride` carries that value instead (zero-extended to 32 bits). The engine learns
  // from it which stores always write the same constant (a flag set by many threads).
  kFlagUniformValue = 1u << 2,
  // A volatile load whose loaded value decides whether a loop containing it iterates again (a spin
  // read: `while (*flag == 0);`, CUB's decoupled look-back), as the instrumentation found it in the PTX
  // (kAccessSpinRead, barracuda/queue.h). A volatile store and a volatile load of the same location are
  // a morally strong pair exactly when the load carries this flag (docs/engine.md, "volatile is not
  // atomic").
  kFlagSpinRead = 1u << 3,
  // On a device race record (kSharedRace, kGlobalRace) of an atomic-plain pair: AtomicPlainSides.
  kFlagRaceAtomicFirst = 1u << 4,
  kFlagRacePlainWrite = 1u << 5,
};

constexpr uint8_t pack_atomic_plain_sides(AtomicPlainSides sides) {
  return static_cast<uint8_t>((sides.atomic_first ? static_cast<unsigned>(kFlagRaceAtomicFirst) : 0u) |
                              (sides.plain_write ? static_cast<unsigned>(kFlagRacePlainWrite) : 0u));
}

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

// The packed fields of RecordHeader::space_sem and ::size_mode, written by the producers and read
// back (through RecordView, record_view.h) by every consumer; constexpr so device and host share them.
constexpr uint8_t pack_space_sem(MemorySpace space, MemorySemantics sem, MemoryScope scope) {
  return static_cast<uint8_t>(static_cast<uint32_t>(space) | (static_cast<uint32_t>(sem) << 2) |
                              (static_cast<uint32_t>(scope) << 5));
}
constexpr MemorySpace space_of(uint8_t space_sem) { return static_cast<MemorySpace>(space_sem & 0x3u); }
constexpr MemorySemantics semantics_of(uint8_t space_sem) {
  return static_cast<MemorySemantics>((space_sem >> 2) & 0x7u);
}
constexpr MemoryScope scope_of(uint8_t space_sem) { return static_cast<MemoryScope>((space_sem >> 5) & 0x3u); }
// `space_sem` with its space replaced (the device runtime classifies generic addresses at run time).
constexpr uint8_t with_space(uint8_t space_sem, MemorySpace space) {
  return static_cast<uint8_t>((space_sem & ~0x3u) | static_cast<uint32_t>(space));
}

constexpr uint8_t pack_size_mode(uint32_t size_log2, AddressMode mode) {
  return static_cast<uint8_t>((size_log2 & 0x7u) | (static_cast<uint32_t>(mode) << 3));
}
constexpr uint32_t size_log2_of(uint8_t size_mode) { return size_mode & 0x7u; }
// The raw address-mode bits: values above AddressMode::kFull64 are malformed (RecordView::defect()).
constexpr uint32_t address_mode_bits_of(uint8_t size_mode) { return (size_mode >> 3) & 0x3u; }
// Bits of size_mode above the address mode: zero in every well-formed record.
constexpr uint32_t reserved_bits_of(uint8_t size_mode) { return size_mode >> 5; }

// Slots a record occupies, header included.
constexpr uint32_t record_slots(AddressMode mode) {
  return mode == AddressMode::kAffine ? 1u : mode == AddressMode::kDelta32 ? 1u + 4u : 1u + 8u;
}

}  // namespace barracuda
