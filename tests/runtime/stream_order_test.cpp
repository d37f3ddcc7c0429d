// CUDA stream semantics as launch ordering: streams, events, legacy default stream, host waits.
#include <gtest/gtest.h>

#include <vector>

#include "runtime/stream_order.h"

namespace barracuda::runtime {
namespace {

using engine::LaunchSeq;
using Seqs = std::vector<LaunchSeq>;

const StreamRef kLegacy{};
const StreamRef kA{0xa, 0, StreamKind::kNonBlocking};
const StreamRef kB{0xb, 0, StreamKind::kNonBlocking};
const StreamRef kBlocking{0xc, 0, StreamKind::kBlocking};
StreamRef per_thread(uint64_t thread) { return {0x2, thread, StreamKind::kBlocking}; }

TEST(StreamOrder, TwoNonBlockingStreamsAreConcurrent) {
  StreamOrder order;
  const engine::LaunchOrder first = order.launch(kA);
  EXPECT_EQ(first.sequence, LaunchSeq{1});
  EXPECT_TRUE(first.concurrent_with.empty());
  EXPECT_TRUE(first.may_overlap_later);
  const engine::LaunchOrder second = order.launch(kB);
  EXPECT_EQ(second.concurrent_with, Seqs{LaunchSeq{1}});
  EXPECT_EQ(second.still_open, Seqs{LaunchSeq{1}});
}

TEST(StreamOrder, OneStreamIsOrderedButStaysOpenForOthers) {
  StreamOrder order;
  order.launch(kA);
  const engine::LaunchOrder second = order.launch(kA);
  EXPECT_TRUE(second.concurrent_with.empty());
  EXPECT_EQ(second.still_open, Seqs{LaunchSeq{1}});
  const engine::LaunchOrder third = order.launch(kB);
  EXPECT_EQ(third.concurrent_with, (Seqs{LaunchSeq{1}, LaunchSeq{2}}));
}

TEST(StreamOrder, EventWaitOrdersStreams) {
  StreamOrder order;
  order.launch(kA);
  order.record_event(0xe, kA);
  order.wait_event(kB, 0xe);
  EXPECT_TRUE(order.launch(kB).concurrent_with.empty());
  order.launch(kA);  // after the record: not covered by the event
  order.wait_event(kB, 0xe);
  EXPECT_EQ(order.launch(kB).concurrent_with, Seqs{LaunchSeq{3}});
}

TEST(StreamOrder, WaitOnAnUnrecordedEventOrdersNothing) {
  StreamOrder order;
  order.launch(kA);
  order.wait_event(kB, 0xe);
  EXPECT_EQ(order.launch(kB).concurrent_with, Seqs{LaunchSeq{1}});
}

TEST(StreamOrder, HostWaitsCloseLaunches) {
  StreamOrder order;
  order.launch(kA);
  order.host_waits_stream(kA);
  const engine::LaunchOrder after_sync = order.launch(kB);
  EXPECT_TRUE(after_sync.concurrent_with.empty());
  EXPECT_TRUE(after_sync.still_open.empty());
  order.record_event(0xe, kB);
  order.host_waits_event(0xe);
  EXPECT_TRUE(order.launch(kA).still_open.empty());
  order.host_waits_device();
  EXPECT_TRUE(order.launch(kB).still_open.empty());
}

TEST(StreamOrder, SynchronisingOneStreamLeavesAnotherOpen) {
  StreamOrder order;
  order.launch(kA);
  order.launch(kB);
  order.host_waits_stream(kA);
  const engine::LaunchOrder next = order.launch(kA);
  EXPECT_EQ(next.concurrent_with, Seqs{LaunchSeq{2}});
  EXPECT_EQ(next.still_open, Seqs{LaunchSeq{2}});
}

TEST(StreamOrder, LegacyStreamOrdersBlockingStreamsOnly) {
  StreamOrder order;
  order.launch(kBlocking);
  order.launch(kA);
  // The legacy stream waits for the blocking stream, not for the non-blocking one.
  EXPECT_EQ(order.launch(kLegacy).concurrent_with, Seqs{LaunchSeq{2}});
  // And the blocking stream then waits for the legacy launch.
  EXPECT_EQ(order.launch(kBlocking).concurrent_with, Seqs{LaunchSeq{2}});
}

TEST(StreamOrder, LegacyOnlyApplicationRemembersNothing) {
  StreamOrder order;
  for (int i = 0; i < 3; ++i) {
    const engine::LaunchOrder launch = order.launch(kLegacy);
    EXPECT_FALSE(launch.may_overlap_later);
    EXPECT_TRUE(launch.still_open.empty());
  }
}

TEST(StreamOrder, PerThreadDefaultStreamsAreConcurrentWithEachOther) {
  StreamOrder order;
  order.launch(per_thread(1));
  EXPECT_EQ(order.launch(per_thread(2)).concurrent_with, Seqs{LaunchSeq{1}});
  EXPECT_EQ(order.launch(per_thread(1)).concurrent_with, Seqs{LaunchSeq{2}});
}

}  // namespace
}  // namespace barracuda::runtime
