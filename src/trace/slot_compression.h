#pragma once
// Slot chunks are stored as LZ4 frames (lz4frame.h) with the content size recorded, so the reader
// can check the decompressed size before trusting it, and a content checksum, so corruption is caught.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "barracuda/record.h"

namespace barracuda::trace {

std::string compress_slots(std::span<const RecordHeader> slots);

// Throws TraceFormatError unless `frame` is one complete LZ4 frame of exactly slot_count slots.
std::vector<RecordHeader> decompress_slots(std::string_view frame, uint32_t slot_count);

}  // namespace barracuda::trace
