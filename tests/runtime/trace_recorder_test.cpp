#include "runtime/trace_recorder.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
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
  std::filesystem::path path_ = std::filesystem::path(::testing::TempDir()) / "recorder_test.bctrace";
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

}  // namespace
}  // namespace barracuda::runtime
