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
// The lane of node `position` of the instantiated graph 0x9000 (runtime/stream_tracker.cpp).
StreamRef lane(uint32_t position) { return {0x9000, 0, StreamKind::kGraphNode, position + 1}; }

// The default streams of two contexts (two GPUs as cudart uses them), and a blocking stream of the second.
const StreamRef kLegacyGpu0{0, 0, StreamKind::kLegacyDefault, 0, 0xc0};
const StreamRef kLegacyGpu1{0, 0, StreamKind::kLegacyDefault, 0, 0xc1};
const StreamRef kBlockingGpu1{0xd, 0, StreamKind::kBlocking, 0, 0xc1};

TEST(StreamOrder, LegacyStreamsOfTwoContextsAreConcurrentOnceSeveralDevicesAreSeen) {
  StreamOrder order;
  order.several_devices();
  const engine::LaunchOrder first = order.launch(kLegacyGpu0);
  EXPECT_TRUE(first.may_overlap_later);  // remembered: another GPU's legacy stream runs beside it
  EXPECT_EQ(order.launch(kLegacyGpu1).concurrent_with, Seqs{LaunchSeq{1}});
  // A blocking stream waits for its own context's legacy stream only.
  EXPECT_EQ(order.launch(kBlockingGpu1).concurrent_with, Seqs{LaunchSeq{1}});
  // The legacy stream waits for its own context's blocking streams only.
  EXPECT_EQ(order.launch(kLegacyGpu1).concurrent_with, Seqs{LaunchSeq{1}});
}

TEST(StreamOrder, OneDeviceLegacyLaunchesAreNotKept) {
  StreamOrder order;
  EXPECT_FALSE(order.launch(kLegacyGpu0).may_overlap_later);
}

TEST(StreamOrder, SynchronisingOneContextLeavesTheOtherOpen) {
  StreamOrder order;
  order.several_devices();
  order.launch(kLegacyGpu0);
  order.launch(kLegacyGpu1);
  order.host_waits_context(0xc1);  // cudaSetDevice(1); cudaDeviceSynchronize()
  EXPECT_EQ(order.launch(kLegacyGpu1).concurrent_with, Seqs{LaunchSeq{1}});
  order.host_waits_context(0xc0);
  const engine::LaunchOrder after = order.launch(kLegacyGpu1);
  EXPECT_TRUE(after.concurrent_with.empty());
  EXPECT_EQ(after.still_open, Seqs{LaunchSeq{3}});  // GPU 1's own last launch, until its GPU is waited for
}

TEST(StreamOrder, AnEventOrdersStreamsOfTwoContexts) {
  StreamOrder order;
  order.several_devices();
  order.launch(kLegacyGpu0);
  order.record_event(0xe, kLegacyGpu0);
  order.wait_event(kBlockingGpu1, 0xe);
  EXPECT_TRUE(order.launch(kBlockingGpu1).concurrent_with.empty());
}

// NCCL between two GPUs: streams of ranks 0 and 1 (communicators 0x100 and 0x101 of clique 7).
const StreamRef kRank0Stream{0xa0, 0, StreamKind::kBlocking, 0, 0xc0};
const StreamRef kRank1Stream{0xa1, 0, StreamKind::kBlocking, 0, 0xc1};
void make_two_ranks(StreamOrder& order) {
  order.several_devices();
  order.communicator(0x100, 7, 2, 0);
  order.communicator(0x101, 7, 2, 1);
}

// A collective over both GPUs joins their streams; a clique with ranks elsewhere joins nothing.
TEST(StreamOrder, ACollectiveJoinsTheStreamsOfItsLocalRanks) {
  StreamOrder order;
  make_two_ranks(order);
  const StreamRef& gpu0 = kRank0Stream;
  const StreamRef& gpu1 = kRank1Stream;
  order.launch(gpu0);  // writes what GPU 1 reads after the collective
  order.collective(0x100, gpu0);
  EXPECT_EQ(order.launch(gpu1).concurrent_with, Seqs{LaunchSeq{1}});  // before GPU 1 joined
  order.collective(0x101, gpu1);
  EXPECT_TRUE(order.launch(gpu1).concurrent_with.empty());
  order.launch(gpu0);  // after the collective on GPU 0: not covered by it
  EXPECT_EQ(order.launch(gpu1).concurrent_with, Seqs{LaunchSeq{4}});
}

// A send from rank 0 to rank 1 and the receive it matches join the two streams; a second send has to
// wait for its own receive.
TEST(StreamOrder, ASendAndItsReceiveJoinTheirStreams) {
  StreamOrder order;
  make_two_ranks(order);
  const StreamRef& gpu0 = kRank0Stream;
  const StreamRef& gpu1 = kRank1Stream;
  order.launch(gpu0);
  order.point_to_point(0x101, 0, /*send=*/false, gpu1);  // the receive may be issued first
  order.point_to_point(0x100, 1, /*send=*/true, gpu0);
  EXPECT_TRUE(order.launch(gpu1).concurrent_with.empty());
  order.launch(gpu0);
  order.point_to_point(0x100, 1, /*send=*/true, gpu0);  // the second send: no receive yet
  EXPECT_EQ(order.launch(gpu1).concurrent_with, Seqs{LaunchSeq{3}});
}

TEST(StreamOrder, ACollectiveWithRanksInOtherProcessesJoinsNothing) {
  StreamOrder order;
  const StreamRef gpu0{0xa0, 0, StreamKind::kNonBlocking, 0, 0xc0};
  const StreamRef other{0xa1, 0, StreamKind::kNonBlocking, 0, 0xc0};
  order.communicator(0x100, 7, 2, 0);  // rank 1 lives in another process
  order.launch(gpu0);
  order.collective(0x100, gpu0);
  order.collective(0x100, gpu0);
  EXPECT_EQ(order.launch(other).concurrent_with, Seqs{LaunchSeq{1}});
}

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
  order.host_waits_context(0);
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

// A replayed graph launch: node 0 forks into nodes 1 and 2, which join into node 3. The nodes run one
// after the other on the stream, but only the graph's edges order them.
TEST(StreamOrder, ReplayedGraphNodesAreOrderedByTheGraphsEdgesOnly) {
  StreamOrder order;
  order.launch(kA);  // 1: before the graph launch on kA
  order.follow(lane(0), kA);
  EXPECT_TRUE(order.launch(lane(0)).concurrent_with.empty());  // 2
  order.follow(lane(1), lane(0));
  EXPECT_TRUE(order.launch(lane(1)).concurrent_with.empty());  // 3
  order.follow(lane(2), lane(0));
  EXPECT_EQ(order.launch(lane(2)).concurrent_with, Seqs{LaunchSeq{3}});  // 4: the other branch
  order.follow(lane(3), lane(1));
  order.follow(lane(3), lane(2));
  EXPECT_TRUE(order.launch(lane(3)).concurrent_with.empty());  // 5
  order.follow(kA, lane(3));
  EXPECT_TRUE(order.launch(kA).concurrent_with.empty()) << "the stream's later work follows the whole graph";
  EXPECT_EQ(order.launch(kB).concurrent_with, (Seqs{LaunchSeq{1}, LaunchSeq{2}, LaunchSeq{3}, LaunchSeq{4},
                                                    LaunchSeq{5}, LaunchSeq{6}}));
}

TEST(StreamOrder, GraphNodeLanesTakeNoPartInImplicitSynchronisation) {
  StreamOrder order;
  order.follow(lane(0), kA);
  const engine::LaunchOrder node = order.launch(lane(0));
  EXPECT_TRUE(node.may_overlap_later);
  // Until the stream of the launch follows the node, the legacy stream does not wait for it.
  EXPECT_EQ(order.launch(kLegacy).concurrent_with, Seqs{LaunchSeq{1}});
  order.follow(kBlocking, lane(0));
  EXPECT_TRUE(order.launch(kLegacy).concurrent_with.empty());
}

TEST(StreamOrder, AGraphsEventRecordNodeRecordsItsLane) {
  StreamOrder order;
  order.follow(lane(0), kA);
  order.launch(lane(0));  // 1
  order.follow(lane(1), lane(0));
  order.record_event(0xe, lane(1));
  order.launch(kA);  // 2: not covered by the event
  order.wait_event(kB, 0xe);
  EXPECT_EQ(order.launch(kB).concurrent_with, Seqs{LaunchSeq{2}});
}

TEST(StreamOrder, RelaunchesOfAGraphAreOrdered) {
  StreamOrder order;
  std::vector<engine::LaunchOrder> nodes;
  for (int launch = 0; launch < 2; ++launch) {
    order.follow(lane(0), kA);
    order.follow(lane(1), kA);
    nodes.push_back(order.launch(lane(0)));
    nodes.push_back(order.launch(lane(1)));
    order.follow(kA, lane(0));
    order.follow(kA, lane(1));
  }
  EXPECT_EQ(nodes[1].concurrent_with, Seqs{LaunchSeq{1}});  // two independent nodes
  EXPECT_TRUE(nodes[2].concurrent_with.empty()) << "the second launch follows the first";
  EXPECT_EQ(nodes[3].concurrent_with, Seqs{LaunchSeq{3}});
}

}  // namespace
}  // namespace barracuda::runtime
