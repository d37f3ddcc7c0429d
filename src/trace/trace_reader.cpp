#include "trace/trace_reader.h"

#include <algorithm>
#include <cstring>

#include "trace/payload_codec.h"
#include "trace/slot_compression.h"

namespace barracuda::trace {
namespace {

// Payloads are read in steps of this size, so a header that lies about a huge payload costs only as
// much memory as the file really has.
constexpr uint32_t kReadStepBytes = 1u << 20;

ModuleTable decode_module(PayloadDecoder& payload, uint32_t format_version) {
  const auto header = payload.get<ModuleHeader>("module header");
  ModuleTable module{header.module_index, header.site_base, {}, {}};
  if (uint64_t{header.site_base} + header.site_count > UINT32_MAX + uint64_t{1}) {
    payload.fail("sites " + std::to_string(header.site_base) + "+" + std::to_string(header.site_count) +
                 " overflow 32-bit site ids");
  }
  payload.check_count(header.kernel_count, sizeof(uint32_t), "kernel count");
  module.kernels.reserve(header.kernel_count);
  for (uint32_t i = 0; i < header.kernel_count; ++i) module.kernels.push_back(payload.get_string("kernel name"));
  payload.check_count(header.site_count, sizeof(SiteFixed) + 2 * sizeof(uint32_t), "site count");
  module.sites.reserve(header.site_count);
  for (uint32_t i = 0; i < header.site_count; ++i) {
    const auto fixed = payload.get<SiteFixed>("site");
    SiteInfo site;
    site.ptx_line = fixed.ptx_line;
    site.line = fixed.line;
    site.column = fixed.column;
    site.function = payload.get_string("site function");
    site.file = payload.get_string("site file");
    if (format_version >= 2) {
      const auto inner = payload.get<SiteInnerFixed>("site inner location");
      site.inner_line = inner.line;
      site.inner_column = inner.column;
      site.parameter = inner.parameter;
      site.inner_file = payload.get_string("site inner file");
    }
    module.sites.push_back(std::move(site));
  }
  payload.expect_end();
  return module;
}

LaunchDescriptor decode_launch(PayloadDecoder& payload, uint32_t format_version) {
  const auto fixed = payload.get<LaunchFixed>("launch descriptor");
  LaunchDescriptor launch;
  launch.launch_id = fixed.launch_id;
  launch.stream = fixed.stream;
  std::copy(std::begin(fixed.grid), std::end(fixed.grid), launch.grid.begin());
  std::copy(std::begin(fixed.block), std::end(fixed.block), launch.block.begin());
  launch.dynamic_shared_bytes = fixed.dynamic_shared_bytes;
  launch.queue_count = fixed.queue_count;
  launch.kernel = payload.get_string("kernel name");
  if (format_version >= 3) {
    const auto flags = payload.get<LaunchFlags>("launch flags");
    if (flags.flags & ~uint32_t{kLaunchChildGrids}) throw TraceFormatError("trace: launch flags with reserved bits set");
    launch.launches_child_grids = (flags.flags & kLaunchChildGrids) != 0;
  }
  payload.expect_end();
  return launch;
}

SlotChunk decode_chunk(PayloadDecoder& payload) {
  const auto header = payload.get<ChunkHeader>("chunk header");
  if (header.slot_count == 0 || header.slot_count > kMaxChunkSlots) {
    payload.fail("slot count " + std::to_string(header.slot_count) + " outside 1.." + std::to_string(kMaxChunkSlots));
  }
  return SlotChunk{header.queue_index, decompress_slots(payload.rest(), header.slot_count)};
}

}  // namespace

TraceReader::TraceReader(std::istream& in) : in_(in) {
  FileHeader header{};
  in_.read(reinterpret_cast<char*>(&header), sizeof header);
  if (in_.gcount() != sizeof header) throw TraceFormatError("trace: file is shorter than its 16-byte header");
  if (std::memcmp(header.magic, kTraceMagic, sizeof kTraceMagic) != 0) {
    throw TraceFormatError("trace: not a barracuda trace (bad magic)");
  }
  if (header.format_version < kOldestTraceFormatVersion || header.format_version > kTraceFormatVersion) {
    throw TraceFormatError("trace: format version " + std::to_string(header.format_version) +
                           " is not supported (this barracuda reads " + std::to_string(kOldestTraceFormatVersion) +
                           " to " + std::to_string(kTraceFormatVersion) + ")");
  }
  format_version_ = header.format_version;
  if (header.record_format_version != kRecordFormatVersion) {
    throw TraceFormatError("trace: record format version " + std::to_string(header.record_format_version) +
                           " is not supported (this barracuda reads " + std::to_string(kRecordFormatVersion) + ")");
  }
  offset_ = sizeof header;
}

std::string TraceReader::read_payload(uint32_t size, const std::string& what) {
  std::string payload;
  while (payload.size() < size) {
    const size_t step = std::min<size_t>(size - payload.size(), kReadStepBytes);
    const size_t old_size = payload.size();
    payload.resize(old_size + step);
    in_.read(payload.data() + old_size, static_cast<std::streamsize>(step));
    if (static_cast<size_t>(in_.gcount()) != step) {
      throw TraceFormatError("trace: " + what + ": truncated payload (" + std::to_string(size) + " bytes announced)");
    }
  }
  offset_ += size;
  return payload;
}

std::optional<TraceItem> TraceReader::next() {
  if (ended_) return std::nullopt;
  SectionHeader header{};
  const uint64_t section_offset = offset_;
  in_.read(reinterpret_cast<char*>(&header), sizeof header);
  if (in_.gcount() == 0) {
    throw TraceFormatError("trace: ends at offset " + std::to_string(offset_) +
                           " without an end section (the run was interrupted?)");
  }
  if (in_.gcount() != sizeof header) throw TraceFormatError("trace: truncated section header at offset " + std::to_string(offset_));
  offset_ += sizeof header;
  const std::string what = "section at offset " + std::to_string(section_offset);
  if (header.payload_bytes > kMaxSectionPayloadBytes) {
    throw TraceFormatError("trace: " + what + ": payload of " + std::to_string(header.payload_bytes) +
                           " bytes exceeds the limit");
  }
  const std::string bytes = read_payload(header.payload_bytes, what);
  PayloadDecoder payload{bytes, what};
  switch (static_cast<SectionKind>(header.kind)) {
    case SectionKind::kModule: ++counts_.module_count; return decode_module(payload, format_version_);
    case SectionKind::kLaunch: ++counts_.launch_count; return decode_launch(payload, format_version_);
    case SectionKind::kSlotChunk: {
      SlotChunk chunk = decode_chunk(payload);
      ++counts_.chunk_count;
      counts_.slot_count += chunk.slots.size();
      return chunk;
    }
    case SectionKind::kEnd: {
      const auto end = payload.get<EndPayload>("end section");
      payload.expect_end();
      if (std::memcmp(&end, &counts_, sizeof end) != 0) payload.fail("counts do not match the sections read");
      if (in_.peek() != std::istream::traits_type::eof()) payload.fail("data follows the end section");
      ended_ = true;
      return std::nullopt;
    }
  }
  payload.fail("unknown section kind " + std::to_string(header.kind));
}

}  // namespace barracuda::trace
