// The NCCL wrappers: what the sync observers hear of communicators and collectives (fake NCCL functions
// stand in for the library's).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "shim/nccl_hooks.h"
#include "shim/shim_runtime.h"

namespace barracuda::shim {
namespace {

class NcclRecorder final : public SyncObserver {
 public:
  static NcclRecorder& fresh() {
    static NcclRecorder* const instance = [] {
      auto* recorder = new NcclRecorder();
      add_sync_observer(*recorder);
      return recorder;
    }();
    instance->events.clear();
    return *instance;
  }
  void synchronized(const SyncEvent& event) override {
    if (event.kind == SyncKind::kCommunicatorCreated || event.kind == SyncKind::kCollective ||
        event.kind == SyncKind::kSend || event.kind == SyncKind::kReceive) {
      events.push_back(event);
    }
  }
  std::vector<SyncEvent> events;
};

using UniqueId = nccl::UniqueId;
using Comm = nccl::Comm;

int next_result = 0;
int fake_init_all(Comm* comms, int count, const int*) {
  for (int i = 0; i < count; ++i) comms[i] = reinterpret_cast<Comm>(0x100 + i);
  return next_result;
}
int fake_init_rank(Comm* comm, int, UniqueId, int rank) {
  *comm = reinterpret_cast<Comm>(0x200 + rank);
  return next_result;
}
int fake_all_reduce(const void*, void*, size_t, int, int, Comm, CUstream) { return next_result; }
int fake_send(const void*, size_t, int, int, Comm, CUstream) { return next_result; }

template <typename Function>
Function wrapped(const char* name, Function fake) {
  return reinterpret_cast<Function>(nccl_wrapper_for(name, reinterpret_cast<void*>(fake)));
}

const auto kStream = reinterpret_cast<CUstream>(0x5100);

TEST(NcclHooks, WrapsTheCommunicatorAndCollectiveEntryPoints) {
  EXPECT_TRUE(is_wrapped_nccl_symbol("ncclAllReduce"));
  EXPECT_TRUE(is_wrapped_nccl_symbol("ncclCommInitRank"));
  EXPECT_TRUE(is_wrapped_nccl_symbol("ncclSend"));
  EXPECT_TRUE(is_wrapped_nccl_symbol("ncclRecv"));
  EXPECT_FALSE(is_wrapped_nccl_symbol("ncclGroupStart"));
  EXPECT_FALSE(is_wrapped_nccl_symbol("cuLaunchKernel"));
}

TEST(NcclHooks, CommunicatorsOfOneInitAllShareAClique) {
  NcclRecorder& recorder = NcclRecorder::fresh();
  next_result = 0;
  Comm comms[2] = {};
  const int devices[2] = {0, 1};
  ASSERT_EQ(wrapped("ncclCommInitAll", &fake_init_all)(comms, 2, devices), 0);
  ASSERT_EQ(recorder.events.size(), 2u);
  for (int rank = 0; rank < 2; ++rank) {
    EXPECT_EQ(recorder.events[rank].communicator, comms[rank]);
    EXPECT_EQ(recorder.events[rank].ranks, 2);
    EXPECT_EQ(recorder.events[rank].rank, rank);
    EXPECT_EQ(recorder.events[rank].clique, recorder.events[0].clique);
  }
}

TEST(NcclHooks, RanksGivenOneUniqueIdShareACliqueAndOthersDoNot) {
  NcclRecorder& recorder = NcclRecorder::fresh();
  next_result = 0;
  UniqueId first{}, second{};
  std::memset(second.internal, 7, sizeof second.internal);
  const auto init = wrapped("ncclCommInitRank", &fake_init_rank);
  Comm comm = nullptr;
  ASSERT_EQ(init(&comm, 2, first, 0), 0);
  ASSERT_EQ(init(&comm, 2, first, 1), 0);
  ASSERT_EQ(init(&comm, 2, second, 0), 0);
  ASSERT_EQ(recorder.events.size(), 3u);
  EXPECT_EQ(recorder.events[0].clique, recorder.events[1].clique);
  EXPECT_NE(recorder.events[0].clique, recorder.events[2].clique);
  EXPECT_EQ(recorder.events[1].communicator, reinterpret_cast<Comm>(0x201));
}

TEST(NcclHooks, ACollectiveIsAnnouncedWithItsStreamOnceItSucceeded) {
  NcclRecorder& recorder = NcclRecorder::fresh();
  const auto all_reduce = wrapped("ncclAllReduce", &fake_all_reduce);
  next_result = 0;
  const Comm comm = reinterpret_cast<Comm>(0x100);
  ASSERT_EQ(all_reduce(nullptr, nullptr, 4, 7, 0, comm, kStream), 0);
  next_result = 3;  // ncclInternalError: orders nothing
  ASSERT_EQ(all_reduce(nullptr, nullptr, 4, 7, 0, comm, kStream), 3);
  next_result = 0;
  ASSERT_EQ(recorder.events.size(), 1u);
  EXPECT_EQ(recorder.events[0].kind, SyncKind::kCollective);
  EXPECT_EQ(recorder.events[0].communicator, comm);
  EXPECT_EQ(recorder.events[0].stream, kStream);
}

TEST(NcclHooks, ASendIsAnnouncedWithItsPeer) {
  NcclRecorder& recorder = NcclRecorder::fresh();
  next_result = 0;
  const Comm comm = reinterpret_cast<Comm>(0x100);
  ASSERT_EQ(wrapped("ncclSend", &fake_send)(nullptr, 4, 7, 1, comm, kStream), 0);
  ASSERT_EQ(recorder.events.size(), 1u);
  EXPECT_EQ(recorder.events[0].kind, SyncKind::kSend);
  EXPECT_EQ(recorder.events[0].peer, 1);
  EXPECT_EQ(recorder.events[0].stream, kStream);
}

TEST(NcclHooks, ASecondNcclIsLeftUnwrapped) {
  wrapped("ncclAllReduce", &fake_all_reduce);
  const auto other = [](const void*, void*, size_t, int, int, Comm, CUstream) { return 0; };
  EXPECT_EQ(nccl_wrapper_for("ncclAllReduce", reinterpret_cast<void*>(+other)), nullptr);
}

}  // namespace
}  // namespace barracuda::shim
