// Sync tickets (RecordOp::kSyncTicket): blocks log into different queues and the host consumes the
// queues in any order, so the acquiring block's records often reach the engine before the releasing
// block's. Here block 0 (queue 0, consumed first) is always the reader and block 1 (queue 1) the
// writer; the tickets carry the order the GPU saw.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <span>
#include <string>
#include <thread>

#include "scenario.h"

namespace barracuda::engine::test {
namespace {

constexpr uint64_t kData = 0x20000;
constexpr uint64_t kFlag = 0x30000;
constexpr uint64_t kShared = 0x40;
const Dim3 kTwoBlocks{2, 1, 1};
const Dim3 kTwoWarps{64, 1, 1};
constexpr uint32_t kQueues = 2;
constexpr uint32_t kReader = 0, kWriter = 1;
constexpr AccessOptions kVolatile{.sem = MemorySemantics::kVolatile, .scope = MemoryScope::kSystem};
// The volatile load of a spin (while (*flag == 0);), as the instrumentation marks it (kFlagSpinRead).
constexpr AccessOptions kSpin{.sem = MemorySemantics::kVolatile, .scope = MemoryScope::kSystem, .flags = kFlagSpinRead};
constexpr AccessOptions kReleaseGpu{.sem = MemorySemantics::kRelease, .scope = MemoryScope::kGpu};
constexpr AccessOptions kAcquireGpu{.sem = MemorySemantics::kAcquire, .scope = MemoryScope::kGpu};
constexpr AccessOptions kSharedAccess{.space = MemorySpace::kShared};

// The writer's block logs into queue 1, the reader's into queue 0, which is consumed first.
struct TwoQueues {
  Scenario s{kTwoBlocks, kTwoWarps, WarpModel::kIndependent, kQueues};
  WarpScript writer = s.warp(kWriter, 0);
  WarpScript reader = s.warp(kReader, 0);
};

bool has_ordering_diagnostic(const Scenario& s) {
  for (const Diagnostic& d : s.diagnostics()) {
    if (d.kind == DiagnosticKind::kMalformedRecord && d.message.find("sync ticket") != std::string::npos) return true;
  }
  return false;
}

// st.release / ld.acquire message passing. Without tickets the reader's acquire finds nothing
// released yet: that is the false race tickets remove.
TEST(SyncOrder, ReleaseAcquireAcrossQueuesConsumedAcquireFirst) {
  for (bool tickets : {true, false}) {
    TwoQueues q;
    auto& [s, writer, reader] = q;
    const SiteId w = writer.store(lane(0), kData);
    if (tickets) writer.ticket(0, lane(0));
    writer.store(lane(0), kFlag, 4, kReleaseGpu);
    if (tickets) reader.ticket(1, lane(0));
    reader.load(lane(0), kFlag, 4, kAcquireGpu);
    const SiteId r = reader.load(lane(0), kData);
    s.run();
    EXPECT_EQ(s.race(w, r).has_value(), !tickets) << "tickets=" << tickets;
    EXPECT_FALSE(has_ordering_diagnostic(s));
  }
}

// Independent thread scheduling: two diverged groups of the writer's warp each take a ticket and
// then reserve queue slots, so the group with the later ticket (lane 5's, 1) logged first and the
// release (lane 0's, ticket 0) sits behind it in the warp's FIFO. Lanes share no record, so the
// release goes first: measured on the H100 (sync/bucket_locks_per_lane), where waiting for it in
// FIFO order held the warp back until the launch ended, then applied everything in warp order and
// reported the lock's hand-offs as races.
TEST(SyncOrder, DivergedGroupsOfOneWarpMayLogTheirTicketsOutOfOrder) {
  TwoQueues q;
  auto& [s, writer, reader] = q;
  writer.ticket(1, lane(5));
  writer.store(lane(5), kFlag + 0x100, 4, kReleaseGpu);
  const SiteId w = writer.store(lane(0), kData);
  writer.ticket(0, lane(0));
  writer.store(lane(0), kFlag, 4, kReleaseGpu);
  reader.ticket(2, lane(0));
  reader.load(lane(0), kFlag, 4, kAcquireGpu);
  const SiteId r = reader.load(lane(0), kData);
  s.run();
  EXPECT_FALSE(s.race(w, r).has_value());
  EXPECT_FALSE(has_ordering_diagnostic(s));
}

// The same lanes' records never pass each other: lane 0's later release stays behind its own
// unticketed store, which stays behind lane 0's earlier record that waits for its turn.
TEST(SyncOrder, ALanesRecordsKeepTheirOrderWhileAnotherLaneGoesFirst) {
  TwoQueues q;
  auto& [s, writer, reader] = q;
  writer.ticket(2, lane(0) | lane(5));
  writer.store(lane(0) | lane(5), kFlag + 0x100, 4, kReleaseGpu);
  const SiteId w = writer.store(lane(0), kData);
  writer.ticket(0, lane(7));
  writer.store(lane(7), kFlag + 0x200, 4, kReleaseGpu);
  writer.ticket(3, lane(0));
  writer.store(lane(0), kFlag, 4, kReleaseGpu);
  reader.ticket(1, lane(0));
  reader.load(lane(0), kFlag, 4, kAcquireGpu);
  const SiteId r = reader.load(lane(0), kData);
  s.run();
  EXPECT_TRUE(s.race(w, r).has_value()) << "the reader's acquire (ticket 1) came before lane 0's release (ticket 3)";
  EXPECT_FALSE(has_ordering_diagnostic(s));
}

// __threadfence() + legacy atomic flag, volatile spin read + __threadfence(), as the GPU logs them: the
// flag's atomic is ticketed before it executes in the flag's bucket; the reader's fence after it
// completed, in the bucket of its thread's last read (the flag); the writer's fence follows no read
// and carries no ticket. Whether the reader's data read races.
bool fence_message_passing_races(uint64_t write_ticket, uint64_t fence_ticket) {
  auto [s, writer, reader] = TwoQueues();
  const SiteId w = writer.store(lane(0), kData);
  writer.fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
  writer.ticket(write_ticket, lane(0), sync_bucket(kFlag));
  writer.atomic(lane(0), kFlag);
  reader.load(lane(0), kFlag, 4, kSpin);
  reader.ticket(fence_ticket, lane(0), sync_bucket(kFlag));
  reader.fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
  const SiteId r = reader.load(lane(0), kData);
  s.run();
  return s.race(w, r).has_value();
}

TEST(SyncOrder, FenceMessagePassingConsumedReaderFirst) { EXPECT_FALSE(fence_message_passing_races(0, 1)); }

// The reader's fence took its ticket before the flag's write: its read saw the old value, and the
// fence acquires nothing.
TEST(SyncOrder, FenceAfterAReadOfTheOldFlagRaces) { EXPECT_TRUE(fence_message_passing_races(1, 0)); }

// A spin lock as hash_table takes it: atomicCAS (ticketed before it executes, so its ticket may come
// before the unlock it observed), then __threadfence() (ticketed after, in the lock's bucket: after
// the unlock's). The second holder's critical section is ordered after the first's.
TEST(SyncOrder, LockHandOffThroughTheFenceAfterTheCas) {
  constexpr uint64_t kLock = 0x50000;
  auto [s, first, second] = TwoQueues();
  const uint32_t bucket = sync_bucket(kLock);
  first.ticket(0, lane(0), bucket);
  first.atomic(lane(0), kLock);
  first.ticket(1, lane(0), bucket);
  first.fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
  const SiteId w = first.store(lane(0), kData);
  first.fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));  // its last read is still the lock
  second.ticket(2, lane(0), bucket);  // the successful CAS: ticketed before the unlock below
  second.atomic(lane(0), kLock);
  first.ticket(3, lane(0), bucket);
  first.atomic(lane(0), kLock);  // the unlock
  second.ticket(4, lane(0), bucket);
  second.fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
  const SiteId r = second.load(lane(0), kData);
  s.run();
  EXPECT_FALSE(s.race(w, r));
  EXPECT_FALSE(has_ordering_diagnostic(s));
}

// The racy twins keep their races when the order is right.
TEST(SyncOrder, NoFenceStillRaces) {
  auto [s, writer, reader] = TwoQueues();
  const SiteId w = writer.store(lane(0), kData);
  writer.ticket(0, lane(0));
  writer.atomic(lane(0), kFlag);
  reader.load(lane(0), kFlag, 4, kSpin);
  const SiteId r = reader.load(lane(0), kData);
  s.run();
  EXPECT_TRUE(s.race(w, r));
}

TEST(SyncOrder, BlockScopedFencesAcrossBlocksAreScopedRaces) {
  auto [s, writer, reader] = TwoQueues();
  const SiteId w = writer.store(lane(0), kData);
  writer.fence(MemorySemantics::kLegacy, MemoryScope::kCta, lane(0));
  writer.ticket(0, lane(0), sync_bucket(kFlag));
  writer.store(lane(0), kFlag, 4, kVolatile);
  reader.load(lane(0), kFlag, 4, kSpin);
  reader.ticket(1, lane(0), sync_bucket(kFlag));
  reader.fence(MemorySemantics::kLegacy, MemoryScope::kCta, lane(0));
  const SiteId r = reader.load(lane(0), kData);
  s.run();
  ASSERT_TRUE(s.race(w, r));
  EXPECT_EQ(s.race(w, r)->race_class, RaceClass::kScoped);
}

// A reader that tried once and did not wait: its acquire took its ticket before the release did.
TEST(SyncOrder, AcquireTicketedBeforeTheReleaseRaces) {
  auto [s, writer, reader] = TwoQueues();
  reader.ticket(0, lane(0));
  reader.load(lane(0), kFlag, 4, kAcquireGpu);
  const SiteId r = reader.load(lane(0), kData);
  const SiteId w = writer.store(lane(0), kData);
  writer.ticket(1, lane(0));
  writer.store(lane(0), kFlag, 4, kReleaseGpu);
  s.run();
  EXPECT_TRUE(s.race(w, r));
}

// A held-back warp has not reached its block's barrier yet; its block-mate's records after the
// barrier must wait for it, or the barrier would complete early (as divergent) and order nothing.
void expect_held_back_warp_completes(SiteId (*barrier)(WarpScript&)) {
  Scenario s(kTwoBlocks, kTwoWarps, WarpModel::kIndependent, kQueues);
  auto waiting = s.warp(kReader, 0);
  auto mate = s.warp(kReader, 1);
  auto writer = s.warp(kWriter, 0);
  waiting.ticket(1, lane(0));
  waiting.load(lane(0), kFlag, 4, kAcquireGpu);
  const SiteId shared_write = waiting.store(lane(0), kShared, 4, kSharedAccess);
  barrier(mate);
  barrier(waiting);
  const SiteId shared_read = mate.load(lane(0), kShared, 4, kSharedAccess);
  writer.ticket(0, lane(0));
  writer.store(lane(0), kFlag, 4, kReleaseGpu);
  s.run();
  EXPECT_FALSE(s.race(shared_write, shared_read));
  EXPECT_TRUE(s.diagnostics().empty());
}

TEST(SyncOrder, HeldBackWarpStillCompletesTheBlockBarrier) {
  expect_held_back_warp_completes([](WarpScript& w) { return w.barrier(); });
}

TEST(SyncOrder, HeldBackWarpStillCompletesANamedBarrier) {
  expect_held_back_warp_completes([](WarpScript& w) { return w.named_barrier(1, 64); });
}

// The same within one warp (a grid sync: lane 0 spins on the grid's counter while lanes 1-31 already
// wait at the block barrier after it). The warp's access after the barrier must not go for lanes 1-31
// while lane 0, held back, has not arrived: measured on the H200 at 0b22684, where lanes that held
// nothing went at once and every grid-synchronising program got a barrier divergence and races.
void expect_held_back_lane_completes(SiteId (*barrier)(WarpScript&, uint32_t)) {
  Scenario s(kTwoBlocks, kTwoWarps, WarpModel::kIndependent, kQueues);
  auto warp = s.warp(kReader, 0);
  auto mate = s.warp(kReader, 1);
  auto writer = s.warp(kWriter, 0);
  const uint32_t others = kAllLanes & ~lane(0);
  const SiteId shared_write = mate.store(lane(0), kShared, 4, kSharedAccess);
  barrier(mate, kAllLanes);
  barrier(warp, others);
  warp.ticket(1, lane(0));
  warp.load(lane(0), kFlag, 4, kAcquireGpu);
  barrier(warp, lane(0));
  const SiteId shared_read = warp.load(lane(1) | lane(2), kShared, 0, kSharedAccess);
  writer.ticket(0, lane(0));
  writer.store(lane(0), kFlag, 4, kReleaseGpu);
  s.run();
  EXPECT_FALSE(s.race(shared_write, shared_read));
  EXPECT_TRUE(s.diagnostics().empty()) << s.diagnostics().front().message;
}

TEST(SyncOrder, HeldBackLaneStillCompletesTheBlockBarrierForItsWarpMates) {
  expect_held_back_lane_completes([](WarpScript& w, uint32_t mask) { return w.barrier(mask); });
}

TEST(SyncOrder, HeldBackLaneStillCompletesANamedBarrierForItsWarpMates) {
  expect_held_back_lane_completes([](WarpScript& w, uint32_t mask) { return w.named_barrier(1, 64, mask); });
}

// A ticket that never arrives (a broken trace) must not hang the launch: the rest is applied in
// ticket order and the gap is reported.
TEST(SyncOrder, MissingTicketIsReportedAndTheRestApplied) {
  auto [s, writer, reader] = TwoQueues();
  const SiteId w = writer.store(lane(0), kData);
  writer.ticket(3, lane(0));
  writer.store(lane(0), kFlag, 4, kReleaseGpu);
  reader.ticket(5, lane(0));
  reader.load(lane(0), kFlag, 4, kAcquireGpu);
  const SiteId r = reader.load(lane(0), kData);
  s.run();
  EXPECT_FALSE(s.race(w, r));
  EXPECT_TRUE(has_ordering_diagnostic(s));
  EXPECT_EQ(s.stats().records, 4u);
}

// A run stopped by a signal must write its report at once: the launch being checked drops what it
// holds back for tickets (here one that never arrived), keeps the race it found before, and does not
// call the barrier the dropped records would have completed divergent. Without the stop, the same
// launch reports the missing tickets and the divergence.
TEST(SyncOrder, AStoppedRunDropsHeldBackRecordsAndKeepsWhatItFound) {
  for (bool stopped : {false, true}) {
    auto [s, writer, reader] = TwoQueues();
    const SiteId a = writer.store(lane(0), kData + 0x40);
    const SiteId b = reader.store(lane(0), kData + 0x40);
    writer.ticket(3, lane(0));
    writer.store(lane(0), kFlag, 4, kReleaseGpu);
    reader.barrier();
    if (stopped) {
      s.run_stopped();
    } else {
      s.run();
    }
    EXPECT_TRUE(s.race(a, b)) << "stopped=" << stopped;
    EXPECT_EQ(has_ordering_diagnostic(s), !stopped) << "stopped=" << stopped;
    const bool divergence = std::any_of(s.diagnostics().begin(), s.diagnostics().end(),
                                        [](const Diagnostic& d) { return d.kind == DiagnosticKind::kBarrierDivergence; });
    EXPECT_EQ(divergence, !stopped) << "stopped=" << stopped;
  }
}

// A chain of message passing between two blocks, one queue each. Hop i: block i%2 writes data[i] and
// releases flag[i]; the other block acquires flag[i] and reads data[i]; hop i+1's writer is hop i's
// reader. Tickets as the GPU would give them.
LaunchInfo chain_launch() {
  LaunchInfo launch;
  launch.launch_id = 3;
  launch.kernel = "chain";
  launch.grid = kTwoBlocks;
  launch.block = Dim3{32, 1, 1};
  return launch;
}

// `per_bucket`: tickets counted per location bucket, as the GPU gives them now; else one order for
// the launch (traces written before buckets).
std::vector<std::vector<RecordHeader>> ticket_chain(const LaunchInfo& launch, uint64_t hops, bool per_bucket) {
  std::vector<std::vector<RecordHeader>> queues(kQueues);
  auto record = [&](uint32_t block, RecordOp op, MemorySemantics sem, uint64_t address, uint32_t site) {
    RecordHeader h{};
    h.op = static_cast<uint8_t>(op);
    h.active_mask = lane(0);
    h.block_id = block;
    h.launch_id = launch.launch_id;
    h.site_id = site;
    h.space_sem = pack_space_sem(MemorySpace::kGlobal, sem, MemoryScope::kGpu);
    h.size_mode = pack_size_mode(2, AddressMode::kAffine);
    h.base = address;
    queues[block].push_back(h);
  };
  std::map<uint32_t, uint64_t> next_ticket;
  auto ticket = [&](uint32_t block, uint64_t address) {
    RecordHeader h{};
    h.op = static_cast<uint8_t>(RecordOp::kSyncTicket);
    h.active_mask = lane(0);
    h.block_id = block;
    h.launch_id = launch.launch_id;
    const uint32_t bucket = per_bucket ? sync_bucket(address) : 0;
    h.stride = static_cast<int32_t>(bucket);
    h.base = next_ticket[bucket]++;
    queues[block].push_back(h);
  };
  for (uint64_t hop = 0; hop < hops; ++hop) {
    const uint32_t from = hop % 2, to = 1 - from;
    record(from, RecordOp::kStore, MemorySemantics::kWeak, kData + 4 * hop, 1);
    ticket(from, kFlag + 4 * hop);
    record(from, RecordOp::kStore, MemorySemantics::kRelease, kFlag + 4 * hop, 2);
    ticket(to, kFlag + 4 * hop);
    record(to, RecordOp::kLoad, MemorySemantics::kAcquire, kFlag + 4 * hop, 3);
    record(to, RecordOp::kLoad, MemorySemantics::kWeak, kData + 4 * hop, 4);
  }
  return queues;
}

// Workers on their own threads, as the drain threads run them: a chain of message passing in which
// every hop's acquire sits in the other queue. Whatever the interleaving, nothing races.
TEST(SyncOrder, ConcurrentWorkersFollowTheTicketChain) {
  constexpr uint64_t kHops = 200;
  const LaunchInfo launch = chain_launch();
  for (int round = 0; round < 20; ++round) {
    Engine engine(EngineConfig{kQueues});
    engine.begin_launch(launch);
    const std::vector<std::vector<RecordHeader>> queues = ticket_chain(launch, kHops, round % 2 == 0);
    std::vector<std::thread> drains;
    for (uint32_t q = 0; q < kQueues; ++q) {
      drains.emplace_back([&, q] {
        // One record (with its ticket) per call interleaves the two workers.
        const std::span<const RecordHeader> all(queues[q]);
        for (size_t at = 0; at < all.size();) {
          const size_t n = all[at].op == static_cast<uint8_t>(RecordOp::kSyncTicket) ? 2 : 1;
          engine.worker(q).consume(all.subspan(at, n));
          at += n;
        }
      });
    }
    for (std::thread& t : drains) t.join();
    engine.end_launch();
    EXPECT_TRUE(engine.races().empty()) << "round " << round;
    EXPECT_TRUE(engine.diagnostics().empty()) << "round " << round;
  }
}

// Each worker is handed its whole queue at once, as a drain thread hands over a large batch: every
// warp then waits for a turn the other worker gives. catch_up() (what an idle drain thread calls)
// takes exactly the turns that came, and the launch is checked before end_launch.
TEST(SyncOrder, HeldBackWarpsTakeTheirTurnWhenCaughtUp) {
  constexpr uint64_t kHops = 50;
  const LaunchInfo launch = chain_launch();
  Engine engine(EngineConfig{kQueues});
  engine.begin_launch(launch);
  const std::vector<std::vector<RecordHeader>> queues = ticket_chain(launch, kHops, false);
  Worker& first = engine.worker(0);
  Worker& second = engine.worker(1);
  second.consume(queues[1]);
  EXPECT_TRUE(second.has_deferred()) << "ticket 1 waits for ticket 0";
  EXPECT_FALSE(second.catch_up()) << "no turn came";
  first.consume(queues[0]);  // applies ticket 0, then waits for ticket 3
  EXPECT_TRUE(first.has_deferred());
  EXPECT_FALSE(first.catch_up()) << "ticket 1 is the other worker's";
  uint32_t turns = 0;
  while ((first.has_deferred() || second.has_deferred()) && turns < 4 * kHops) {
    EXPECT_TRUE(second.catch_up()) << "turn " << turns;
    ++turns;
    if (!first.has_deferred()) break;
    EXPECT_TRUE(first.catch_up()) << "turn " << turns;
    ++turns;
  }
  EXPECT_FALSE(first.has_deferred());
  EXPECT_FALSE(second.has_deferred());
  EXPECT_EQ(turns, kHops) << "one catch-up per hand-over of the turn";
  engine.end_launch();
  EXPECT_TRUE(engine.races().empty());
  EXPECT_TRUE(engine.diagnostics().empty());
}

// One warp instruction whose lanes reach two buckets carries a ticket per lane: each lane waits for
// its own bucket's turn. Lane 0's acquire of flag A came after A's release; lane 1's acquire of flag B
// before B's release, so only lane 1's read races.
TEST(SyncOrder, LanesOfOneRecordTakeTheirOwnBucketsTurns) {
  constexpr int32_t kApart = 0x100;
  const uint32_t a = sync_bucket(kFlag), b = sync_bucket(kFlag + kApart);
  ASSERT_NE(a, b);
  auto [s, writer, reader] = TwoQueues();
  const SiteId wa = writer.store(lane(0), kData);
  writer.ticket(0, lane(0), a);
  writer.store(lane(0), kFlag, 4, kReleaseGpu);
  const SiteId wb = writer.store(lane(0), kData + kApart);
  writer.ticket(1, lane(0), b);
  writer.store(lane(0), kFlag + kApart, 4, kReleaseGpu);
  reader.lane_tickets(lane(0) | lane(1), {{a, 1}, {b, 0}});
  reader.load(lane(0) | lane(1), kFlag, kApart, kAcquireGpu);
  const SiteId r = reader.load(lane(0) | lane(1), kData, kApart);
  s.run();
  EXPECT_FALSE(s.race(wa, r)) << "lane 0 acquired A after its release";
  EXPECT_TRUE(s.race(wb, r)) << "lane 1 acquired B before its release";
  EXPECT_FALSE(has_ordering_diagnostic(s));
}

// Tickets count per location bucket: a record waiting for a turn in one bucket (here one that never
// comes before the launch ends) holds back nothing of another bucket. Block 1's warp 1 waits in the
// lock's bucket; the flag's message passing between block 1's warp 0 and block 0 goes on meanwhile,
// and the reader is checked before end_launch.
TEST(SyncOrder, BucketsTakeTheirTurnsIndependently) {
  constexpr uint64_t kLock = 0x50000;
  ASSERT_NE(sync_bucket(kLock), sync_bucket(kFlag));
  Scenario s(kTwoBlocks, kTwoWarps, WarpModel::kIndependent, kQueues);
  auto reader = s.warp(kReader, 0);
  auto writer = s.warp(kWriter, 0);
  auto locker = s.warp(kWriter, 1);
  reader.ticket(1, lane(0), sync_bucket(kFlag));
  reader.load(lane(0), kFlag, 4, kAcquireGpu);
  const SiteId r = reader.load(lane(0), kData);
  locker.ticket(1, lane(0), sync_bucket(kLock));
  locker.atomic(lane(0), kLock);
  const SiteId w = writer.store(lane(0), kData);
  writer.ticket(0, lane(0), sync_bucket(kFlag));
  writer.store(lane(0), kFlag, 4, kReleaseGpu);
  s.run_consuming([](Engine& engine, const std::vector<std::vector<RecordHeader>>& queues) {
    engine.worker(kReader).consume(queues[kReader]);
    EXPECT_TRUE(engine.worker(kReader).has_deferred()) << "the acquire waits for the release";
    engine.worker(kWriter).consume(queues[kWriter]);
    EXPECT_TRUE(engine.worker(kWriter).has_deferred()) << "the lock's ticket 0 never came";
    EXPECT_TRUE(engine.worker(kReader).catch_up()) << "the flag's release handed its bucket's turn on";
    EXPECT_FALSE(engine.worker(kReader).has_deferred());
  });
  EXPECT_FALSE(s.race(w, r));
  EXPECT_TRUE(has_ordering_diagnostic(s)) << "the lock's missing ticket is reported";
}

// Lanes that wait for nothing do not wait for their warp-mates' locks: of a plain access that lane 0
// makes while it waits for its flag's turn and lane 1 makes with nothing held, lane 1's part is checked
// at once, lane 0's once its turn came. Lane 0's read is ordered after the writer's lane 0 by the
// acquire; lane 1's races with the writer's lane 1, which released nothing.
TEST(SyncOrder, ALaneWithNothingHeldDoesNotWaitForItsWarpMatesTurn) {
  Scenario s(kTwoBlocks, kTwoWarps, WarpModel::kIndependent, 2);
  auto reader = s.warp(kReader, 0);
  auto writer = s.warp(kWriter, 0);
  reader.ticket(1, lane(0), sync_bucket(kFlag));
  reader.load(lane(0), kFlag, 4, kAcquireGpu);
  const SiteId read = reader.load(lane(0) | lane(1), kData);  // lane l reads kData + 4l
  const SiteId write = writer.store(lane(0) | lane(1), kData);
  writer.ticket(0, lane(0), sync_bucket(kFlag));
  writer.store(lane(0), kFlag, 4, kReleaseGpu);
  s.run_consuming([](Engine& engine, const std::vector<std::vector<RecordHeader>>& queues) {
    Worker& reading = engine.worker(kReader);
    reading.consume(queues[kReader]);
    EXPECT_TRUE(reading.has_deferred()) << "lane 0 waits for the writer's ticket";
    EXPECT_EQ(reading.stats().thread_accesses, 1u) << "lane 1's read went; lane 0's two accesses wait";
    engine.worker(kWriter).consume(queues[kWriter]);
    EXPECT_TRUE(reading.catch_up());
    EXPECT_FALSE(reading.has_deferred());
  });
  ASSERT_EQ(s.races().size(), 1u);
  EXPECT_TRUE(s.race(write, read));
  EXPECT_FALSE(has_ordering_diagnostic(s));
}

// A turn handed on while its record waits behind an earlier record of its own lane is taken as soon as
// that record goes, not left for the launch's end. Reader warp: lane 1 waits for D's turn; lane 0 for
// C's turn, then B's. B's turn comes first, while lane 0 still waits for C; C's comes later, from a
// third block. The writer's warp 1 holds D's turn behind its own ticket of B: until the reader takes
// B's turn nothing moves but the launch's end (hash_table: its kernel over in seconds, then one
// thread applying the backlog for minutes).
TEST(SyncOrder, ATurnThatCameWhileItsRecordWaitedBehindItsLaneIsTakenOnceTheLaneMoves) {
  constexpr uint32_t kLater = 2;  // the third block and queue
  const uint64_t kB = kFlag, kC = kFlag + 0x100;
  uint64_t kD = kC + 0x100;
  while (sync_bucket(kD) == sync_bucket(kB) || sync_bucket(kD) == sync_bucket(kC)) kD += 0x100;
  const uint32_t b = sync_bucket(kB), c = sync_bucket(kC), d = sync_bucket(kD);
  ASSERT_NE(b, c);
  Scenario s(Dim3{3, 1, 1}, kTwoWarps, WarpModel::kIndependent, 3);
  auto reader = s.warp(kReader, 0);
  auto writer = s.warp(kWriter, 0);
  auto locker = s.warp(kWriter, 1);
  auto later = s.warp(kLater, 0);
  reader.ticket(1, lane(1), d);
  reader.load(lane(1), kD, 4, kAcquireGpu);
  reader.ticket(1, lane(0), c);
  reader.load(lane(0), kC, 4, kAcquireGpu);
  reader.ticket(1, lane(0), b);
  reader.load(lane(0), kB, 4, kAcquireGpu);
  writer.ticket(0, lane(0), b);
  writer.store(lane(0), kB, 4, kReleaseGpu);
  locker.ticket(2, lane(0), b);
  locker.atomic(lane(0), kB);
  locker.ticket(0, lane(0), d);
  locker.store(lane(0), kD, 4, kReleaseGpu);
  later.ticket(0, lane(0), c);
  later.store(lane(0), kC, 4, kReleaseGpu);
  s.run_consuming([](Engine& engine, const std::vector<std::vector<RecordHeader>>& queues) {
    Worker& reading = engine.worker(kReader);
    Worker& writing = engine.worker(kWriter);
    reading.consume(queues[kReader]);
    writing.consume(queues[kWriter]);
    EXPECT_TRUE(writing.has_deferred()) << "the lock's ticket 2 of B waits for the reader's ticket 1";
    EXPECT_FALSE(reading.catch_up()) << "B's turn came, behind lane 0's wait for C";
    engine.worker(kLater).consume(queues[kLater]);
    EXPECT_TRUE(reading.catch_up()) << "C's turn came: lane 0 takes it, then B's";
    EXPECT_TRUE(writing.catch_up()) << "the reader took B's turn: the lock goes on, then D's release";
    EXPECT_TRUE(reading.catch_up()) << "D's turn came";
    EXPECT_FALSE(reading.has_deferred());
    EXPECT_FALSE(writing.has_deferred());
  });
  EXPECT_FALSE(has_ordering_diagnostic(s));
  // The reader's three records, then the lock's two, were held back at once.
  EXPECT_EQ(s.stats().peak_held_back_records, 5u);
}

// A branch record no lane took (logged only when recording) names no lane. Held back, it ordered the
// whole warp behind it: here lane 1's release, whose turn has come, behind lane 0's acquire, whose
// turn waits for the writer, whose turn waits for lane 1. Under independent thread scheduling it
// orders nothing.
TEST(SyncOrder, ABranchRecordNamingNoLaneHoldsNoLaneBack) {
  const uint64_t kA = kFlag, kB = kFlag + 0x100;
  const uint32_t a = sync_bucket(kA), b = sync_bucket(kB);
  ASSERT_NE(a, b);
  Scenario s(kTwoBlocks, kTwoWarps, WarpModel::kIndependent, kQueues);
  auto reader = s.warp(kReader, 0);
  auto writer = s.warp(kWriter, 0);
  reader.ticket(1, lane(0), a);
  reader.load(lane(0), kA, 4, kAcquireGpu);
  reader.branch_if(0, lane(1));
  reader.ticket(0, lane(1), b);
  reader.store(lane(1), kB, 4, kReleaseGpu);
  writer.ticket(1, lane(0), b);
  writer.atomic(lane(0), kB);
  writer.ticket(0, lane(0), a);
  writer.store(lane(0), kA, 4, kReleaseGpu);
  s.run_consuming([](Engine& engine, const std::vector<std::vector<RecordHeader>>& queues) {
    Worker& reading = engine.worker(kReader);
    Worker& writing = engine.worker(kWriter);
    reading.consume(queues[kReader]);
    writing.consume(queues[kWriter]);
    EXPECT_FALSE(writing.has_deferred()) << "lane 1's release went before lane 0's acquire";
    EXPECT_TRUE(reading.catch_up()) << "A's turn came";
    EXPECT_FALSE(reading.has_deferred());
  });
  EXPECT_FALSE(has_ordering_diagnostic(s));
}

}  // namespace
}  // namespace barracuda::engine::test
