#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <variant>

#include "trace/trace_reader.h"
#include "trace/trace_writer.h"

namespace barracuda::trace {
namespace {

ModuleTable sample_module() {
  return ModuleTable{2, 1000, {"histogram", "reduce<float>"},
                     {{"histogram", 57, "/src/hist.cu", 12, 5, "/src/bins.cuh", 7, 9, 2}, {"add_bin", 61, "", 0, 0}}};
}

LaunchDescriptor sample_launch() {
  return LaunchDescriptor{70000, "histogram", {64, 2, 1}, {256, 1, 1}, 4096, 0x55aa, 4};
}

std::vector<RecordHeader> sample_slots(size_t count) {
  std::vector<RecordHeader> slots(count);
  for (size_t i = 0; i < count; ++i) {
    slots[i].op = static_cast<uint8_t>(RecordOp::kStore);
    slots[i].active_mask = 0xffffffffu;
    slots[i].site_id = 1000 + static_cast<uint32_t>(i % 2);
    slots[i].block_id = static_cast<uint32_t>(i / 8);
    slots[i].warp_id = static_cast<uint16_t>(i % 8);
    slots[i].launch_id = 70000 & 0xffff;
    slots[i].stride = 4;
    slots[i].base = 0x7f0000000000ull + i * 128;
  }
  return slots;
}

bool same_slots(const std::vector<RecordHeader>& a, const std::vector<RecordHeader>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(RecordHeader)) == 0;
}

std::string sample_trace(size_t slot_count) {
  std::ostringstream out;
  TraceWriter writer{out};
  writer.write_module(sample_module());
  writer.write_launch(sample_launch());
  writer.write_slots(3, sample_slots(slot_count));
  writer.finish();
  return out.str();
}

std::vector<TraceItem> read_all(const std::string& bytes) {
  std::istringstream in{bytes};
  TraceReader reader{in};
  std::vector<TraceItem> items;
  while (auto item = reader.next()) items.push_back(std::move(*item));
  return items;
}

std::string read_error(const std::string& bytes) {
  try {
    read_all(bytes);
  } catch (const TraceFormatError& error) {
    return error.what();
  }
  return "no error";
}

TEST(Trace, RoundTripsModulesLaunchesAndSlots) {
  const auto items = read_all(sample_trace(100));
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(std::get<ModuleTable>(items[0]), sample_module());
  EXPECT_EQ(std::get<LaunchDescriptor>(items[1]), sample_launch());
  const auto& chunk = std::get<SlotChunk>(items[2]);
  EXPECT_EQ(chunk.queue_index, 3u);
  EXPECT_TRUE(same_slots(chunk.slots, sample_slots(100)));
}

// A launch with child grids launched from the device says so (version 3): its replay numbers their
// blocks after the grid's.
TEST(Trace, RoundTripsALaunchWithChildGrids) {
  LaunchDescriptor launch = sample_launch();
  launch.launches_child_grids = true;
  std::ostringstream out;
  TraceWriter writer{out};
  writer.write_launch(launch);
  writer.finish();
  const std::vector<TraceItem> items = read_all(out.str());
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(std::get<LaunchDescriptor>(items[0]), launch);
  // A reserved flag bit is rejected.
  std::string bytes = out.str();
  const std::string kernel = launch.kernel;
  const size_t flags = bytes.find(kernel) + kernel.size();
  bytes[flags + 1] = 1;
  EXPECT_EQ(read_error(bytes), "trace: launch flags with reserved bits set");
}

TEST(Trace, SplitsLongSlotRunsIntoBoundedChunksInOrder) {
  const size_t count = kMaxChunkSlots * 2 + 5;
  const auto items = read_all(sample_trace(count));
  ASSERT_EQ(items.size(), 5u);
  std::vector<RecordHeader> joined;
  for (size_t i = 2; i < items.size(); ++i) {
    const auto& chunk = std::get<SlotChunk>(items[i]);
    EXPECT_LE(chunk.slots.size(), kMaxChunkSlots);
    joined.insert(joined.end(), chunk.slots.begin(), chunk.slots.end());
  }
  EXPECT_TRUE(same_slots(joined, sample_slots(count)));
}

TEST(Trace, CompressesRegularSlotStreams) {
  const size_t count = 10000;
  EXPECT_LT(sample_trace(count).size(), count * kSlotBytes / 3);
}

TEST(Trace, EmptyTraceHasOnlyHeaderAndEnd) {
  std::ostringstream out;
  TraceWriter writer{out};
  writer.write_slots(0, {});
  writer.finish();
  EXPECT_EQ(out.str().size(), sizeof(FileHeader) + sizeof(SectionHeader) + sizeof(EndPayload));
  EXPECT_TRUE(read_all(out.str()).empty());
}

TEST(Trace, RejectsForeignFilesAndVersions) {
  EXPECT_EQ(read_error("BCD"), "trace: file is shorter than its 16-byte header");
  std::string trace = sample_trace(1);
  std::string bad_magic = trace;
  bad_magic[0] = 'X';
  EXPECT_EQ(read_error(bad_magic), "trace: not a barracuda trace (bad magic)");
  std::string new_version = trace;
  new_version[8] = 9;
  EXPECT_EQ(read_error(new_version), "trace: format version 9 is not supported (this barracuda reads 1 to 3)");
  std::string new_records = trace;
  new_records[12] = 2;
  EXPECT_EQ(read_error(new_records), "trace: record format version 2 is not supported (this barracuda reads 1)");
}

TEST(Trace, DetectsTruncationAtEveryLength) {
  const std::string trace = sample_trace(20);
  for (size_t length = sizeof(FileHeader); length < trace.size(); ++length) {
    EXPECT_NE(read_error(trace.substr(0, length)), "no error") << "cut at " << length;
  }
  EXPECT_EQ(read_error(trace.substr(0, sizeof(FileHeader))),
            "trace: ends at offset 16 without an end section (the run was interrupted?)");
}

TEST(Trace, RejectsDataAfterTheEnd) {
  EXPECT_EQ(read_error(sample_trace(1) + "x"), "trace: section at offset " +
                                                   std::to_string(sample_trace(1).size() - 40) +
                                                   ": data follows the end section");
}

// Offset of the first section of `kind` in `trace`.
size_t section_offset(const std::string& trace, SectionKind kind) {
  size_t offset = sizeof(FileHeader);
  while (true) {
    SectionHeader header;
    std::memcpy(&header, trace.data() + offset, sizeof header);
    if (header.kind == static_cast<uint32_t>(kind)) return offset;
    offset += sizeof header + header.payload_bytes;
  }
}

TEST(Trace, RejectsLyingSizesWithoutAllocatingThem) {
  std::string trace = sample_trace(1);
  const size_t launch = section_offset(trace, SectionKind::kLaunch);
  const uint32_t huge = kMaxSectionPayloadBytes;  // allowed by the limit, far beyond the file
  std::memcpy(trace.data() + launch + 4, &huge, sizeof huge);
  EXPECT_EQ(read_error(trace), "trace: section at offset " + std::to_string(launch) +
                                   ": truncated payload (67108864 bytes announced)");
  const uint32_t too_big = kMaxSectionPayloadBytes + 1;
  std::memcpy(trace.data() + launch + 4, &too_big, sizeof too_big);
  EXPECT_EQ(read_error(trace), "trace: section at offset " + std::to_string(launch) +
                                   ": payload of 67108865 bytes exceeds the limit");
}

TEST(Trace, RejectsImpossibleCounts) {
  std::string trace = sample_trace(1);
  const size_t module = section_offset(trace, SectionKind::kModule);
  const uint32_t many_sites = 1u << 30;
  std::memcpy(trace.data() + module + sizeof(SectionHeader) + offsetof(ModuleHeader, site_count), &many_sites, 4);
  EXPECT_NE(read_error(trace).find("site count 1073741824 cannot fit"), std::string::npos) << read_error(trace);

  std::string chunk_trace = sample_trace(1);
  const size_t chunk = section_offset(chunk_trace, SectionKind::kSlotChunk);
  const uint32_t two_slots = 2;
  std::memcpy(chunk_trace.data() + chunk + sizeof(SectionHeader) + offsetof(ChunkHeader, slot_count), &two_slots, 4);
  EXPECT_NE(read_error(chunk_trace).find("LZ4 frame holds 32 bytes, the chunk header says 64"), std::string::npos)
      << read_error(chunk_trace);
}

TEST(Trace, RejectsCorruptCompressedData) {
  std::string trace = sample_trace(50);
  const size_t chunk = section_offset(trace, SectionKind::kSlotChunk);
  const size_t frame_start = chunk + sizeof(SectionHeader) + sizeof(ChunkHeader);
  trace[frame_start + 20] = static_cast<char>(trace[frame_start + 20] ^ 0x5a);
  trace[frame_start + 21] = static_cast<char>(trace[frame_start + 21] ^ 0x5a);
  EXPECT_NE(read_error(trace).find("slot chunk"), std::string::npos) << read_error(trace);
}

TEST(Trace, RejectsUnknownSectionsAndWrongEndCounts) {
  std::string trace = sample_trace(1);
  const size_t launch = section_offset(trace, SectionKind::kLaunch);
  trace[launch] = 42;
  EXPECT_EQ(read_error(trace), "trace: section at offset " + std::to_string(launch) + ": unknown section kind 42");

  std::string counts = sample_trace(1);
  const size_t end = section_offset(counts, SectionKind::kEnd);
  counts[end + sizeof(SectionHeader) + offsetof(EndPayload, slot_count)] = 7;
  EXPECT_EQ(read_error(counts),
            "trace: section at offset " + std::to_string(end) + ": counts do not match the sections read");
}

// tests/trace/seeds/small.bctrace was written by this version of the writer: it must keep reading the
// same (and it seeds the fuzzer). Regenerate with BARRACUDA_UPDATE_GOLDEN=1 after a format change.
TEST(Trace, CommittedTraceStillReads) {
  const std::string path = std::string{BARRACUDA_TRACE_SEED_DIR} + "/small.bctrace";
  const char* update = std::getenv("BARRACUDA_UPDATE_GOLDEN");
  if (update != nullptr && std::string{update} == "1") std::ofstream{path, std::ios::binary} << sample_trace(4);
  std::ifstream in{path, std::ios::binary};
  ASSERT_TRUE(in) << "missing " << path;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  EXPECT_EQ(bytes.str(), sample_trace(4));
  const auto items = read_all(bytes.str());
  ASSERT_EQ(items.size(), 3u);
  EXPECT_TRUE(same_slots(std::get<SlotChunk>(items[2]).slots, sample_slots(4)));
}

// The bytes of a committed seed trace.
std::string seed_bytes(const std::string& name) {
  std::ifstream in{std::string{BARRACUDA_TRACE_SEED_DIR} + "/" + name, std::ios::binary};
  EXPECT_TRUE(in) << name;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// A version-1 trace (before sites carried their inner location) still reads: its sites have none.
TEST(Trace, VersionOneTraceStillReads) {
  const auto items = read_all(seed_bytes("small-v1.bctrace"));
  ASSERT_EQ(items.size(), 3u);
  const ModuleTable& module = std::get<ModuleTable>(items[0]);
  ASSERT_EQ(module.sites.size(), 2u);
  EXPECT_EQ(module.sites[0].line, 12u);
  EXPECT_EQ(module.sites[0].inner_line, 0u);
  EXPECT_TRUE(same_slots(std::get<SlotChunk>(items[2]).slots, sample_slots(4)));
}

// A version-2 trace (before launches carried their flags) still reads: no launch has child grids.
TEST(Trace, VersionTwoTraceStillReads) {
  const auto items = read_all(seed_bytes("small-v2.bctrace"));
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(std::get<LaunchDescriptor>(items[1]), sample_launch());
  EXPECT_FALSE(std::get<LaunchDescriptor>(items[1]).launches_child_grids);
  EXPECT_TRUE(same_slots(std::get<SlotChunk>(items[2]).slots, sample_slots(4)));
}

}  // namespace
}  // namespace barracuda::trace
