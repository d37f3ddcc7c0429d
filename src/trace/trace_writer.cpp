#include "trace/trace_writer.h"

#include <algorithm>
#include <cstring>

#include "trace/payload_codec.h"
#include "trace/slot_compression.h"

namespace barracuda::trace {

TraceWriter::TraceWriter(std::ostream& out) : out_(out) {
  FileHeader header{};
  std::memcpy(header.magic, kTraceMagic, sizeof header.magic);
  header.format_version = kTraceFormatVersion;
  header.record_format_version = kRecordFormatVersion;
  out_.write(reinterpret_cast<const char*>(&header), sizeof header);
}

void TraceWriter::write_module(const ModuleTable& module) {
  PayloadEncoder payload;
  payload.put(ModuleHeader{module.module_index, module.site_base, static_cast<uint32_t>(module.kernels.size()),
                           static_cast<uint32_t>(module.sites.size())});
  for (const std::string& kernel : module.kernels) payload.put_string(kernel);
  for (const SiteInfo& site : module.sites) {
    payload.put(SiteFixed{site.ptx_line, site.line, site.column});
    payload.put_string(site.function);
    payload.put_string(site.file);
    payload.put(SiteInnerFixed{site.inner_line, site.inner_column, site.parameter});
    payload.put_string(site.inner_file);
  }
  write_section(SectionKind::kModule, payload.bytes());
  ++counts_.module_count;
}

void TraceWriter::write_launch(const LaunchDescriptor& launch) {
  PayloadEncoder payload;
  LaunchFixed fixed{};
  fixed.launch_id = launch.launch_id;
  fixed.stream = launch.stream;
  std::copy(launch.grid.begin(), launch.grid.end(), fixed.grid);
  std::copy(launch.block.begin(), launch.block.end(), fixed.block);
  fixed.dynamic_shared_bytes = launch.dynamic_shared_bytes;
  fixed.queue_count = launch.queue_count;
  payload.put(fixed);
  payload.put_string(launch.kernel);
  payload.put(LaunchFlags{launch.launches_child_grids ? uint32_t{kLaunchChildGrids} : 0});
  write_section(SectionKind::kLaunch, payload.bytes());
  ++counts_.launch_count;
}

void TraceWriter::write_slots(uint32_t queue_index, std::span<const RecordHeader> slots) {
  while (!slots.empty()) {
    const auto chunk = slots.first(std::min<size_t>(slots.size(), kMaxChunkSlots));
    slots = slots.subspan(chunk.size());
    PayloadEncoder payload;
    payload.put(ChunkHeader{queue_index, static_cast<uint32_t>(chunk.size())});
    std::string section = payload.bytes() + compress_slots(chunk);
    write_section(SectionKind::kSlotChunk, section);
    ++counts_.chunk_count;
    counts_.slot_count += chunk.size();
  }
}

void TraceWriter::finish() {
  PayloadEncoder payload;
  payload.put(counts_);
  write_section(SectionKind::kEnd, payload.bytes());
  out_.flush();
}

void TraceWriter::write_section(SectionKind kind, const std::string& payload) {
  if (payload.size() > kMaxSectionPayloadBytes) {
    throw TraceFormatError("trace writer: section of " + std::to_string(payload.size()) + " bytes exceeds the limit");
  }
  const SectionHeader header{static_cast<uint32_t>(kind), static_cast<uint32_t>(payload.size())};
  out_.write(reinterpret_cast<const char*>(&header), sizeof header);
  out_.write(payload.data(), static_cast<std::streamsize>(payload.size()));
  if (!out_) throw TraceFormatError("trace writer: write failed");
}

}  // namespace barracuda::trace
