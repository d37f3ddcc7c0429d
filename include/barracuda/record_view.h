#pragma once
// The one decoder of the event record (record.h): which ops exist and what kind each is, how many
// slots a record takes, its lanes' addresses, its access size, space, semantics and scope, and
// whether a header can start a record at all. The engine, the queue drain and `barracuda replay
// --dump` read records only through it, and the instrumentation and the device runtime take their
// synchronisation rules from it, so the format is interpreted in one place.
//
// Header-only and compiled by nvcc too (device code includes it through queue.h): no exceptions, no
// allocation, no std:: types; constexpr where the language allows (the device runtime is built with
// --expt-relaxed-constexpr, which makes those callable on the GPU).
#include <string.h>

#include "barracuda/device_launch.h"
#include "barracuda/record.h"

#if defined(__CUDACC__)
#define BARRACUDA_HOST_DEVICE __host__ __device__
#else
#define BARRACUDA_HOST_DEVICE
#endif

namespace barracuda {

// The kind column of record_ops.inc.
enum class RecordOpKind : uint8_t {
  kUnknown,      // no op of record_ops.inc: RecordOp::kInvalid, or a byte of torn or foreign memory
  kMemory,       // an access to memory: the only kind whose records carry lane addresses
  kSync,         // synchronisation between threads (fences, barriers, mbarriers)
  kSyncTicket,   // the place in the launch's cross-queue order of the record that follows it
  kControlFlow,  // divergence and reconvergence, for the lockstep warp model
  kLifetime,     // a warp's first and last record
  kFinding,      // a race the device found itself (its payload names both accesses)
};

constexpr RecordOpKind record_op_kind(RecordOp op) {
  switch (op) {
#define BARRACUDA_RECORD_OP(enumerator, value, name, kind) \
  case RecordOp::enumerator:                               \
    return RecordOpKind::kind;
#include "barracuda/record_ops.inc"
#undef BARRACUDA_RECORD_OP
    case RecordOp::kInvalid:
      break;
  }
  return RecordOpKind::kUnknown;
}

// The op's spelling in dumps and diagnostics; null for a byte that names no op.
constexpr const char* record_op_name(RecordOp op) {
  switch (op) {
#define BARRACUDA_RECORD_OP(enumerator, value, name, kind) \
  case RecordOp::enumerator:                               \
    return name;
#include "barracuda/record_ops.inc"
#undef BARRACUDA_RECORD_OP
    case RecordOp::kInvalid:
      break;
  }
  return nullptr;
}

// Whether the op byte of a header names an op of record_ops.inc. kSyncTicket is one: the queue
// protocol (queue.h) publishes it as a header-only record of its own, framed and drained like any
// other; pairing it with the record it orders is the engine's business (Worker::consume).
constexpr bool is_known_op(uint8_t op) { return record_op_kind(static_cast<RecordOp>(op)) != RecordOpKind::kUnknown; }

constexpr bool is_memory_op(RecordOp op) { return record_op_kind(op) == RecordOpKind::kMemory; }

// Spellings of the space_sem fields in dumps, reports and the report's JSON schema (report/names.h:
// changing one is a schema change, bump kReportSchemaVersion).
// Every value the field's bits can hold is an enumerator, numbered from 0.
inline constexpr uint32_t kMemorySpaceCount = 4;
inline constexpr uint32_t kMemorySemanticsCount = 8;
inline constexpr uint32_t kMemoryScopeCount = 4;

constexpr const char* memory_space_name(MemorySpace space) {
  switch (space) {
    case MemorySpace::kGlobal: return "global";
    case MemorySpace::kShared: return "shared";
    case MemorySpace::kCluster: return "cluster";
    case MemorySpace::kOther: return "other";
  }
  return "unknown";
}

constexpr const char* memory_semantics_name(MemorySemantics sem) {
  switch (sem) {
    case MemorySemantics::kWeak: return "weak";
    case MemorySemantics::kRelaxed: return "relaxed";
    case MemorySemantics::kAcquire: return "acquire";
    case MemorySemantics::kRelease: return "release";
    case MemorySemantics::kAcqRel: return "acq_rel";
    case MemorySemantics::kSeqCst: return "sc";
    case MemorySemantics::kVolatile: return "volatile";
    case MemorySemantics::kLegacy: return "legacy";
  }
  return "unknown";
}

constexpr const char* memory_scope_name(MemoryScope scope) {
  switch (scope) {
    case MemoryScope::kCta: return "cta";
    case MemoryScope::kCluster: return "cluster";
    case MemoryScope::kGpu: return "gpu";
    case MemoryScope::kSystem: return "sys";
  }
  return "unknown";
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
  const MemorySemantics sem = semantics_of(space_sem);
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

// Records that can synchronise across blocks carry a sync ticket (RecordOp::kSyncTicket) of a location
// bucket (sync_bucket.h): every synchronising operation outside the issuing block's shared memory,
// whatever its scope (a block-scoped release observed by another block is a scoped race, and
// classifying it needs the order too). A memory operation takes its own location's bucket; a fence
// the bucket of its thread's last read, the location its acquire pattern ("read; fence") acquires
// from (the instrumentation keeps that address in a register and passes it to the fence's call).
// Shared-memory atomics, hot in histogram-like kernels, stay ticket-free: queue order within the
// block already orders them.
// The dynamic-parallelism records (kDeviceLaunch, kChildEntry, kChildExit) always take one, in
// kDeviceLaunchBucket (device_launch.h).
constexpr bool takes_sync_ticket(RecordOp op, uint8_t space_sem) {
  if (op == RecordOp::kDeviceLaunch || op == RecordOp::kChildEntry || op == RecordOp::kChildExit) return true;
  return space_of(space_sem) != MemorySpace::kShared && sync_role(op, space_sem) != SyncRole::kNone;
}

// Ops other than memory accesses whose records carry a kDelta32 payload of words.
constexpr bool has_word_payload(RecordOp op) { return op == RecordOp::kGlobalRace || op == RecordOp::kChildEntry; }

// Why a header cannot start a record (RecordView::defect()).
enum class RecordDefect : uint8_t {
  kNone,
  kUnknownAddressMode,           // the record cannot even be framed: slot_count() means nothing
  kReservedSizeModeBits,
  kUnknownOp,
  kAddressPayloadWithoutAccess,  // a non-memory op whose address mode claims payload slots
  kFindingWithoutPayload,        // a kGlobalRace or kChildEntry record without its kDelta32 payload
  kAccessSizeAbove16Bytes,
};

constexpr const char* record_defect_text(RecordDefect defect) {
  switch (defect) {
    case RecordDefect::kNone: return "well-formed";
    case RecordDefect::kUnknownAddressMode: return "unknown address mode";
    case RecordDefect::kReservedSizeModeBits: return "reserved size_mode bits set";
    case RecordDefect::kUnknownOp: return "unknown record op";
    case RecordDefect::kAddressPayloadWithoutAccess: return "non-memory record op with an address payload";
    case RecordDefect::kFindingWithoutPayload: return "device global race or child-grid entry record without its payload";
    case RecordDefect::kAccessSizeAbove16Bytes: return "access size above 16 bytes";
  }
  return "unknown defect";
}

// One record: its header slot and, for kDelta32/kFull64, the payload slots that follow it. A view:
// the slots must outlive it.
class RecordView {
 public:
  // `payload`: the record_slots() - 1 slots after the header (unused, and may be null, for kAffine).
  constexpr explicit RecordView(const RecordHeader& header, const RecordHeader* payload = nullptr)
      : header_(&header), payload_(payload) {}

  constexpr const RecordHeader& header() const { return *header_; }
  constexpr RecordOp op() const { return static_cast<RecordOp>(header_->op); }
  constexpr RecordOpKind kind() const { return record_op_kind(op()); }
  constexpr bool is_memory_access() const { return kind() == RecordOpKind::kMemory; }

  // The first thing wrong with the header, the framing first; kNone when it can start a record.
  // Guards every consumer against torn or foreign memory: an unknown op or address mode would
  // otherwise mis-frame every record after it.
  constexpr RecordDefect defect() const {
    if (address_mode_bits_of(header_->size_mode) > static_cast<uint32_t>(AddressMode::kFull64)) {
      return RecordDefect::kUnknownAddressMode;
    }
    if (reserved_bits_of(header_->size_mode) != 0) return RecordDefect::kReservedSizeModeBits;
    if (!is_known_op(header_->op)) return RecordDefect::kUnknownOp;
    if (!is_memory_access() && !has_word_payload(op()) && address_mode() != AddressMode::kAffine &&
        !(op() == RecordOp::kSyncTicket && address_mode() == AddressMode::kFull64)) {
      return RecordDefect::kAddressPayloadWithoutAccess;
    }
    if (has_word_payload(op()) && address_mode() != AddressMode::kDelta32) {
      return RecordDefect::kFindingWithoutPayload;
    }
    if (size_log2_of(header_->size_mode) > 4) return RecordDefect::kAccessSizeAbove16Bytes;
    return RecordDefect::kNone;
  }

  // Meaningful unless defect() is kUnknownAddressMode.
  constexpr AddressMode address_mode() const {
    return static_cast<AddressMode>(address_mode_bits_of(header_->size_mode));
  }
  constexpr uint32_t slot_count() const { return record_slots(address_mode()); }

  constexpr MemorySpace space() const { return space_of(header_->space_sem); }
  constexpr MemorySemantics semantics() const { return semantics_of(header_->space_sem); }
  constexpr MemoryScope scope() const { return scope_of(header_->space_sem); }
  constexpr uint32_t access_bytes() const { return 1u << size_log2_of(header_->size_mode); }

  // A kAffine store of one value by every lane to one address (kFlagUniformValue).
  constexpr bool has_uniform_value() const { return (header_->flags & kFlagUniformValue) != 0; }
  // The value those lanes stored: `stride` carries it, since their stride is 0.
  constexpr uint32_t uniform_value() const { return static_cast<uint32_t>(header_->stride); }
  // The byte stride between consecutive lanes of a kAffine record.
  constexpr int32_t affine_stride() const { return has_uniform_value() ? 0 : header_->stride; }

  // The payload of a kSharedRace record (record_ops.inc).
  // Of a device race record's atomic-plain pair: which access was the atomic, whether the plain one wrote.
  constexpr AtomicPlainSides atomic_plain_sides() const {
    return {(header_->flags & kFlagRaceAtomicFirst) != 0, (header_->flags & kFlagRacePlainWrite) != 0};
  }
  constexpr SharedRacePayload shared_race() const {
    const uint64_t base = header_->base;
    SharedRacePayload payload{};
    payload.offset = static_cast<uint32_t>(base & ((1u << kSharedRaceOffsetBits) - 1));
    payload.first_thread = static_cast<uint32_t>((base >> 18) & ((1u << kSharedRaceThreadBits) - 1));
    payload.first_site = static_cast<uint32_t>(header_->stride);
    payload.hazard = static_cast<Hazard>((base >> 28) & 0x3u);
    payload.same_value = ((base >> 30) & 1u) != 0;
    payload.value = static_cast<uint32_t>(base >> 32);
    payload.sides = atomic_plain_sides();
    return payload;
  }

  // The payload of a kGlobalRace record (record_ops.inc); needs its payload slots.
  GlobalRacePayload global_race() const {
    GlobalRacePayload payload{};
    payload.first_block = payload_word(kGlobalRaceFirstBlock);
    payload.first_thread = payload_word(kGlobalRaceFirstThread);
    payload.first_site = payload_word(kGlobalRaceFirstSite);
    const uint32_t hazard = payload_word(kGlobalRaceHazard);
    payload.hazard = static_cast<Hazard>(hazard & 0x3u);
    payload.same_value = (hazard >> 2 & 1u) != 0;
    payload.value = payload_word(kGlobalRaceValue);
    payload.sides = atomic_plain_sides();
    return payload;
  }

  // The payload of a kChildEntry record (record_ops.inc); needs its payload slots.
  ChildGridShape child_grid() const {
    ChildGridShape shape{};
    shape.first_block = payload_word(kChildGridFirstBlock);
    for (uint32_t d = 0; d < 3; ++d) {
      shape.grid[d] = payload_word(kChildGridDimX + d);
      shape.block[d] = payload_word(kChildBlockDimX + d);
    }
    return shape;
  }

  // The address `lane` accessed; meaningful for the active lanes of a memory access.
  BARRACUDA_HOST_DEVICE uint64_t lane_address(uint32_t lane) const {
    const auto* payload = reinterpret_cast<const unsigned char*>(payload_);
    switch (address_mode()) {
      case AddressMode::kAffine:
        return header_->base + static_cast<uint64_t>(static_cast<int64_t>(affine_stride()) * lane);
      case AddressMode::kDelta32: {
        int32_t delta;
        memcpy(&delta, payload + lane * sizeof(int32_t), sizeof delta);
        return header_->base + static_cast<uint64_t>(static_cast<int64_t>(delta));
      }
      case AddressMode::kFull64: {
        uint64_t address;
        memcpy(&address, payload + lane * sizeof(uint64_t), sizeof address);
        return address;
      }
    }
    return 0;
  }

 private:
  // Word `index` of a kDelta32 payload, as an unsigned value.
  uint32_t payload_word(uint32_t index) const {
    uint32_t word = 0;
    memcpy(&word, reinterpret_cast<const unsigned char*>(payload_) + index * sizeof(uint32_t), sizeof word);
    return word;
  }

  const RecordHeader* header_;
  const RecordHeader* payload_;
};

}  // namespace barracuda
