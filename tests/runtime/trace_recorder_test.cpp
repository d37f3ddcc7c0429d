#include "runtime/trace_recorder.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "trace/trace_reader.h"

namespace barracuda::runtime {
namespace {

struct Recorded {
  size_t launches = 0;
  size_t slots = 0;
};

// Reads the whole trace back; the reader throws on a file without its end section.
Recorded read_back(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  trace::TraceReader reader(in);
  Recorded recorded;
  while (auto item = reader.next()) {
    if (std::holds_alternative<trace::LaunchDescriptor>(*item)) ++recorded.launches;
    if (auto* chunk = std::get_if<trace::SlotChunk>(&*item)) recorded.slots += chunk->slots.size();
  }
  return recorded;
}

std::vector<RecordHeader> records(size_t count) {
  std::vector<RecordHeader> slots(count);
  for (size_t i = 0; i < count; ++i) slots[i].site_id = static_cast<uint32_t>(i);
  return slots;
}

class TraceRecorderTest : public ::testing::Test {
 protected:
  // One file per test: ctest runs each test as its own process, several at once.
  std::filesystem::path path_ =
      std::filesystem::path(::testing::TempDir()) /
      (std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" +
       std::to_string(::getpid()) + ".bctrace");
  void TearDown() override { std::filesystem::remove(path_); }
};

TEST_F(TraceRecorderTest, WithoutLimitRecordsEverything) {
  TraceRecorder recorder(path_.string(), 0);
  recorder.launch({.launch_id = 1, .kernel = "k"});
  recorder.slots(0, records(100));
  recorder.slots(1, records(50));
  recorder.finish();
  EXPECT_EQ(recorder.records_left_out(), 0u);
  const Recorded recorded = read_back(path_);
  EXPECT_EQ(recorded.launches, 1u);
  EXPECT_EQ(recorded.slots, 150u);
}

TEST_F(TraceRecorderTest, LimitKeepsAReadablePrefixAndCountsTheRest) {
  TraceRecorder recorder(path_.string(), 120 * sizeof(RecordHeader));
  recorder.launch({.launch_id = 1, .kernel = "k"});
  recorder.slots(0, records(100));
  recorder.slots(1, records(50));  // 20 fit
  // The file is complete now: a run killed at this point still leaves a readable trace.
  EXPECT_EQ(read_back(path_).slots, 120u);
  recorder.launch({.launch_id = 2, .kernel = "k"});
  recorder.slots(0, records(7));
  recorder.finish();
  EXPECT_EQ(recorder.records_left_out(), 37u);
  const Recorded recorded = read_back(path_);
  EXPECT_EQ(recorded.launches, 1u);
  EXPECT_EQ(recorded.slots, 120u);
}

// A load with a kDelta32 payload (5 slots) and a sync ticket (1 slot) before the record it orders.
std::vector<RecordHeader> gather(uint32_t site) {
  std::vector<RecordHeader> slots(5);
  slots[0].op = static_cast<uint8_t>(RecordOp::kLoad);
  slots[0].size_mode = pack_size_mode(2, AddressMode::kDelta32);
  slots[0].site_id = site;
  return slots;
}
std::vector<RecordHeader> ticketed(uint32_t site) {
  std::vector<RecordHeader> slots(1);
  slots[0].op = static_cast<uint8_t>(RecordOp::kSyncTicket);
  std::vector<RecordHeader> load = gather(site);
  slots.insert(slots.end(), load.begin(), load.end());
  return slots;
}
std::vector<RecordHeader> concat(std::initializer_list<std::vector<RecordHeader>> parts) {
  std::vector<RecordHeader> all;
  for (const auto& part : parts) all.insert(all.end(), part.begin(), part.end());
  return all;
}

// Shared among 2 queues, a limit of 24 slots gives each 12: queue 0's first drain (20 slots) keeps
// its first two records (10 slots: the ticket and its load would make 16), queue 1 gets its own 12
// however much queue 0 drained first, and the file is closed once neither can take more.
TEST_F(TraceRecorderTest, ALimitSharedAmongQueuesKeepsEachQueuesFirstWholeRecords) {
  TraceRecorder recorder(path_.string(), 24 * sizeof(RecordHeader));
  recorder.share_among_queues(2);
  recorder.launch({.launch_id = 1, .kernel = "k"});
  recorder.slots(0, concat({gather(1), gather(2), ticketed(3), gather(4)}));  // 5 + 5 + 6 + 5 slots
  recorder.slots(1, concat({ticketed(5), gather(6), gather(7)}));             // 6 + 5 + 5
  EXPECT_EQ(read_back(path_).slots, 10u + 11u) << "closed: each queue left records out";
  recorder.slots(0, gather(8));
  recorder.finish();
  EXPECT_EQ(recorder.records_left_out(), 11u + 5u + 5u);
}

// Without a share (queues not made yet), the limit still ends at a whole record.
TEST_F(TraceRecorderTest, ALimitEndsAtAWholeRecord) {
  TraceRecorder recorder(path_.string(), 10 * sizeof(RecordHeader));
  recorder.launch({.launch_id = 1, .kernel = "k"});
  recorder.slots(0, concat({gather(1), ticketed(2)}));
  EXPECT_EQ(read_back(path_).slots, 5u);
  recorder.finish();
  EXPECT_EQ(recorder.records_left_out(), 6u);
}

}  // namespace
}  // namespace barracuda::runtime
