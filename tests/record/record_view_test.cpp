// The record decoder (barracuda/record_view.h): the op table, the fields, lane addresses and the
// validation every consumer of records shares.
#include "barracuda/queue.h"
#include "barracuda/record_view.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <string>

#include "record_view_device_ptx.h"

namespace barracuda {
namespace {

struct TableEntry {
  RecordOp op;
  uint8_t value;
  const char* name;
  RecordOpKind kind;
};

constexpr TableEntry kTable[] = {
#define BARRACUDA_RECORD_OP(enumerator, value, name, kind) {RecordOp::enumerator, value, name, RecordOpKind::kind},
#include "barracuda/record_ops.inc"
#undef BARRACUDA_RECORD_OP
};

TEST(RecordView, EveryOpOfTheTableRoundTripsItsNameAndKind) {
  std::set<std::string> names;
  for (const TableEntry& entry : kTable) {
    SCOPED_TRACE(entry.name);
    EXPECT_EQ(static_cast<uint8_t>(entry.op), entry.value);
    EXPECT_TRUE(is_known_op(entry.value));
    EXPECT_STREQ(record_op_name(entry.op), entry.name);
    EXPECT_EQ(record_op_kind(entry.op), entry.kind);
    EXPECT_NE(entry.kind, RecordOpKind::kUnknown);
    EXPECT_TRUE(names.insert(entry.name).second) << "two ops spelled alike: the dump could not be read back";
  }
  // Every other byte names no op: a dump prints it raw and every consumer rejects it.
  for (uint32_t value = 0; value < 256; ++value) {
    const bool listed = std::any_of(std::begin(kTable), std::end(kTable),
                                    [&](const TableEntry& entry) { return entry.value == value; });
    EXPECT_EQ(is_known_op(static_cast<uint8_t>(value)), listed) << value;
    if (!listed) {
      EXPECT_EQ(record_op_name(static_cast<RecordOp>(value)), nullptr) << value;
    }
  }
}

TEST(RecordView, KindsGroupTheOpsAsTheEngineTreatsThem) {
  for (RecordOp op :
       {RecordOp::kLoad, RecordOp::kStore, RecordOp::kAtomic, RecordOp::kReduction, RecordOp::kAsyncCopy}) {
    EXPECT_TRUE(is_memory_op(op)) << record_op_name(op);
  }
  for (RecordOp op : {RecordOp::kFence, RecordOp::kBarrier, RecordOp::kBarrierArrive, RecordOp::kWarpSync,
                      RecordOp::kClusterBarrier, RecordOp::kMbarrierArrive, RecordOp::kMbarrierWait}) {
    EXPECT_EQ(record_op_kind(op), RecordOpKind::kSync) << record_op_name(op);
  }
  EXPECT_EQ(record_op_kind(RecordOp::kSyncTicket), RecordOpKind::kSyncTicket);
  EXPECT_EQ(record_op_kind(RecordOp::kBranchFi), RecordOpKind::kControlFlow);
  EXPECT_EQ(record_op_kind(RecordOp::kWarpExit), RecordOpKind::kLifetime);
  EXPECT_EQ(record_op_kind(RecordOp::kInvalid), RecordOpKind::kUnknown);
  EXPECT_FALSE(is_memory_op(RecordOp::kFence));
}

RecordHeader access(RecordOp op, AddressMode mode, uint32_t size_log2 = 2) {
  RecordHeader header{};
  header.op = static_cast<uint8_t>(op);
  header.size_mode = pack_size_mode(size_log2, mode);
  header.active_mask = 0xffffffffu;
  return header;
}

TEST(RecordView, FieldsReadBackWhatTheProducerPacked) {
  for (uint32_t space = 0; space < kMemorySpaceCount; ++space) {
    for (uint32_t sem = 0; sem < kMemorySemanticsCount; ++sem) {
      for (uint32_t scope = 0; scope < kMemoryScopeCount; ++scope) {
        RecordHeader header = access(RecordOp::kStore, AddressMode::kAffine);
        header.space_sem = pack_space_sem(static_cast<MemorySpace>(space), static_cast<MemorySemantics>(sem),
                                          static_cast<MemoryScope>(scope));
        const RecordView record(header);
        EXPECT_EQ(record.space(), static_cast<MemorySpace>(space));
        EXPECT_EQ(record.semantics(), static_cast<MemorySemantics>(sem));
        EXPECT_EQ(record.scope(), static_cast<MemoryScope>(scope));
        EXPECT_EQ(with_space(header.space_sem, MemorySpace::kCluster),
                  pack_space_sem(MemorySpace::kCluster, record.semantics(), record.scope()));
      }
    }
  }
  for (uint32_t size_log2 = 0; size_log2 <= 4; ++size_log2) {
    RecordHeader header = access(RecordOp::kLoad, AddressMode::kDelta32, size_log2);
    EXPECT_EQ(RecordView(header).access_bytes(), 1u << size_log2);
    EXPECT_EQ(RecordView(header).address_mode(), AddressMode::kDelta32);
  }
  EXPECT_EQ(RecordView(access(RecordOp::kLoad, AddressMode::kAffine)).slot_count(), 1u);
  EXPECT_EQ(RecordView(access(RecordOp::kLoad, AddressMode::kDelta32)).slot_count(), 5u);
  EXPECT_EQ(RecordView(access(RecordOp::kLoad, AddressMode::kFull64)).slot_count(), 9u);
}

TEST(RecordView, FieldNamesAreTheOnesReportsAndDumpsUse) {
  EXPECT_STREQ(memory_space_name(MemorySpace::kCluster), "cluster");
  EXPECT_STREQ(memory_semantics_name(MemorySemantics::kAcqRel), "acq_rel");
  EXPECT_STREQ(memory_semantics_name(MemorySemantics::kSeqCst), "sc");
  EXPECT_STREQ(memory_scope_name(MemoryScope::kSystem), "sys");
}

TEST(RecordView, AffineLanesAreBasePlusLaneTimesStride) {
  RecordHeader header = access(RecordOp::kLoad, AddressMode::kAffine);
  header.base = 0x1000;
  header.stride = -8;
  const RecordView record(header);
  EXPECT_EQ(record.affine_stride(), -8);
  EXPECT_EQ(record.lane_address(0), 0x1000u);
  EXPECT_EQ(record.lane_address(31), 0x1000u - 31 * 8);
}

TEST(RecordView, UniformValueStoresAllHitTheBaseAndCarryTheValueInStride) {
  RecordHeader header = access(RecordOp::kStore, AddressMode::kAffine);
  header.flags = kFlagSameValue | kFlagUniformValue;
  header.base = 0x2000;
  header.stride = -1;  // the value 0xffffffff, not a stride
  const RecordView record(header);
  EXPECT_TRUE(record.has_uniform_value());
  EXPECT_EQ(record.uniform_value(), 0xffffffffu);
  EXPECT_EQ(record.affine_stride(), 0);
  EXPECT_EQ(record.lane_address(17), 0x2000u);
}

TEST(RecordView, Delta32LanesAddSignedOffsetsToTheBase) {
  RecordHeader slots[record_slots(AddressMode::kDelta32)]{};
  slots[0] = access(RecordOp::kLoad, AddressMode::kDelta32);
  slots[0].base = 0x10'0000;
  int32_t deltas[kWarpSize];
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) deltas[lane] = (lane % 2 ? -1 : 1) * int32_t(lane * 4096);
  std::memcpy(&slots[1], deltas, sizeof deltas);
  const RecordView record(slots[0], &slots[1]);
  EXPECT_EQ(record.lane_address(2), 0x10'0000u + 2 * 4096);
  EXPECT_EQ(record.lane_address(3), 0x10'0000u - 3 * 4096);
  EXPECT_EQ(record.lane_address(31), 0x10'0000u - 31 * 4096);
}

TEST(RecordView, Full64LanesAreAbsoluteAddresses) {
  RecordHeader slots[record_slots(AddressMode::kFull64)]{};
  slots[0] = access(RecordOp::kAtomic, AddressMode::kFull64, 3);
  uint64_t addresses[kWarpSize];
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) addresses[lane] = (uint64_t{lane} << 40) | 0x123;
  std::memcpy(&slots[1], addresses, sizeof addresses);
  const RecordView record(slots[0], &slots[1]);
  EXPECT_EQ(record.lane_address(0), 0x123u);
  EXPECT_EQ(record.lane_address(17), (uint64_t{17} << 40) | 0x123);
  EXPECT_EQ(record.lane_address(31), (uint64_t{31} << 40) | 0x123);
}

RecordDefect defect_of(const RecordHeader& header) { return RecordView(header).defect(); }

TEST(RecordView, MalformedHeadersAreRejected) {
  EXPECT_EQ(defect_of(access(RecordOp::kLoad, AddressMode::kFull64, 4)), RecordDefect::kNone);
  RecordHeader header = access(RecordOp::kLoad, AddressMode::kAffine);
  header.op = 0;  // a zeroed slot
  EXPECT_EQ(defect_of(header), RecordDefect::kUnknownOp);
  header.op = 99;
  EXPECT_EQ(defect_of(header), RecordDefect::kUnknownOp);
  for (uint32_t size_log2 = 5; size_log2 <= 7; ++size_log2) {
    EXPECT_EQ(defect_of(access(RecordOp::kStore, AddressMode::kAffine, size_log2)),
              RecordDefect::kAccessSizeAbove16Bytes);
  }
  header = access(RecordOp::kLoad, AddressMode::kAffine);
  header.size_mode = 3u << 3;
  EXPECT_EQ(defect_of(header), RecordDefect::kUnknownAddressMode);
  header.op = 99;  // the framing is reported first: it decides whether any later record can be read
  EXPECT_EQ(defect_of(header), RecordDefect::kUnknownAddressMode);
  header = access(RecordOp::kLoad, AddressMode::kAffine);
  header.size_mode |= 1u << 5;
  EXPECT_EQ(defect_of(header), RecordDefect::kReservedSizeModeBits);
  EXPECT_EQ(defect_of(access(RecordOp::kBarrier, AddressMode::kDelta32, 0)),
            RecordDefect::kAddressPayloadWithoutAccess);
}

// The queue protocol publishes a ticket as a header of its own: the drain must frame it as one.
TEST(RecordView, SyncTicketIsAWellFormedHeaderOnlyRecord) {
  RecordHeader ticket{};
  ticket.op = static_cast<uint8_t>(RecordOp::kSyncTicket);
  ticket.base = 12345;
  EXPECT_EQ(defect_of(ticket), RecordDefect::kNone);
  EXPECT_EQ(RecordView(ticket).slot_count(), 1u);
  ticket.size_mode = pack_size_mode(0, AddressMode::kDelta32);
  EXPECT_EQ(defect_of(ticket), RecordDefect::kAddressPayloadWithoutAccess);
}

uint8_t space_sem(MemorySpace space, MemorySemantics sem, MemoryScope scope) {
  return pack_space_sem(space, sem, scope);
}

// The rule the device runtime (ticket or not) and the passes (log before or after) share.
TEST(RecordView, SyncTicketsGoToWhatCanSynchroniseAcrossBlocks) {
  using enum MemorySemantics;
  constexpr auto kGlobal = MemorySpace::kGlobal;
  constexpr auto kGpu = MemoryScope::kGpu;
  EXPECT_EQ(sync_role(RecordOp::kLoad, space_sem(kGlobal, kAcquire, kGpu)), SyncRole::kAcquire);
  EXPECT_EQ(sync_role(RecordOp::kAtomic, space_sem(kGlobal, kAcqRel, kGpu)), SyncRole::kAcquire);
  EXPECT_EQ(sync_role(RecordOp::kFence, space_sem(kGlobal, kLegacy, kGpu)), SyncRole::kAcquire);
  EXPECT_EQ(sync_role(RecordOp::kStore, space_sem(kGlobal, kRelease, kGpu)), SyncRole::kRelease);
  EXPECT_EQ(sync_role(RecordOp::kStore, space_sem(kGlobal, kVolatile, MemoryScope::kSystem)), SyncRole::kRelease);
  EXPECT_EQ(sync_role(RecordOp::kAtomic, space_sem(kGlobal, kLegacy, kGpu)), SyncRole::kRelease);
  EXPECT_EQ(sync_role(RecordOp::kReduction, space_sem(kGlobal, kRelaxed, kGpu)), SyncRole::kRelease);
  EXPECT_EQ(sync_role(RecordOp::kLoad, space_sem(kGlobal, kRelaxed, kGpu)), SyncRole::kNone);
  EXPECT_EQ(sync_role(RecordOp::kLoad, space_sem(kGlobal, kVolatile, MemoryScope::kSystem)), SyncRole::kNone);
  EXPECT_EQ(sync_role(RecordOp::kStore, space_sem(kGlobal, kWeak, MemoryScope::kCta)), SyncRole::kNone);
  EXPECT_EQ(sync_role(RecordOp::kBarrier, 0), SyncRole::kNone);
  EXPECT_TRUE(takes_sync_ticket(RecordOp::kFence, space_sem(kGlobal, kLegacy, MemoryScope::kCta)));
  EXPECT_TRUE(takes_sync_ticket(RecordOp::kAtomic, space_sem(MemorySpace::kCluster, kLegacy, kGpu)));
  EXPECT_FALSE(takes_sync_ticket(RecordOp::kAtomic, space_sem(MemorySpace::kShared, kLegacy, kGpu)));
  EXPECT_FALSE(takes_sync_ticket(RecordOp::kLoad, space_sem(kGlobal, kWeak, kGpu)));
}

// record_view_device.cu decodes records in a kernel: nvcc (the device runtime's flags) compiled it.
// Accesses of different sizes to one location share its bucket; the buckets spread lock words.
TEST(RecordView, SyncBucketsHoldWholeSixteenByteGranules) {
  EXPECT_EQ(sync_bucket(0x7f0000001000), sync_bucket(0x7f0000001004));
  EXPECT_EQ(sync_bucket(0x7f0000001008), sync_bucket(0x7f000000100f));
  std::set<uint32_t> buckets;
  for (uint64_t lock = 0; lock < 256; ++lock) buckets.insert(sync_bucket(0x7f0000002000 + 16 * lock));
  EXPECT_GT(buckets.size(), 200u);
  for (const uint32_t bucket : buckets) EXPECT_LT(bucket, kSyncBuckets);
}

TEST(RecordView, CompilesForTheDevice) {
  EXPECT_NE(record_view_device_ptx().find(".entry decode_records"), std::string_view::npos);
}

TEST(RecordView, DeviceRacePayloadRoundTrips) {
  EXPECT_EQ(record_op_kind(RecordOp::kSharedRace), RecordOpKind::kFinding);
  RecordHeader h{};
  h.op = static_cast<uint8_t>(RecordOp::kSharedRace);
  h.size_mode = pack_size_mode(3, AddressMode::kAffine);
  const SharedRacePayload sent{0x3fffc, 1023, 0x3fffff, Hazard::kWriteAfterRead, true, 0xdeadbeef};
  h.base = pack_shared_race_base(sent);
  h.stride = static_cast<int32_t>(sent.first_site);
  const RecordView record(h);
  EXPECT_EQ(record.defect(), RecordDefect::kNone);
  const SharedRacePayload got = record.shared_race();
  EXPECT_EQ(got.offset, sent.offset);
  EXPECT_EQ(got.first_thread, sent.first_thread);
  EXPECT_EQ(got.first_site, sent.first_site);
  EXPECT_EQ(got.hazard, sent.hazard);
  EXPECT_EQ(got.same_value, sent.same_value);
  EXPECT_EQ(got.value, sent.value);
  EXPECT_EQ(record.access_bytes(), 8u);
}

}  // namespace
}  // namespace barracuda
