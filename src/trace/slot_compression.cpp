#include "trace/slot_compression.h"

#include <lz4frame.h>

#include <memory>

#include "trace/trace_error.h"

namespace barracuda::trace {
namespace {

struct DecompressionContextDeleter {
  void operator()(LZ4F_dctx* context) const { LZ4F_freeDecompressionContext(context); }
};

[[noreturn]] void fail(const std::string& problem) { throw TraceFormatError("trace: slot chunk: " + problem); }

}  // namespace

std::string compress_slots(std::span<const RecordHeader> slots) {
  LZ4F_preferences_t preferences{};
  preferences.frameInfo.contentSize = slots.size_bytes();
  // A flipped bit in the compressed data must not turn into a plausible but wrong event.
  preferences.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
  std::string frame(LZ4F_compressFrameBound(slots.size_bytes(), &preferences), '\0');
  const size_t size = LZ4F_compressFrame(frame.data(), frame.size(), slots.data(), slots.size_bytes(), &preferences);
  if (LZ4F_isError(size)) throw TraceFormatError(std::string{"trace writer: LZ4: "} + LZ4F_getErrorName(size));
  frame.resize(size);
  return frame;
}

std::vector<RecordHeader> decompress_slots(std::string_view frame, uint32_t slot_count) {
  LZ4F_dctx* raw_context = nullptr;
  if (LZ4F_isError(LZ4F_createDecompressionContext(&raw_context, LZ4F_VERSION))) fail("cannot create an LZ4 context");
  std::unique_ptr<LZ4F_dctx, DecompressionContextDeleter> context{raw_context};

  const size_t expected_bytes = size_t{slot_count} * kSlotBytes;
  LZ4F_frameInfo_t info{};
  size_t consumed = frame.size();
  size_t status = LZ4F_getFrameInfo(context.get(), &info, frame.data(), &consumed);
  if (LZ4F_isError(status)) fail(std::string{"bad LZ4 frame header: "} + LZ4F_getErrorName(status));
  if (info.contentSize != expected_bytes) {
    fail("LZ4 frame holds " + std::to_string(info.contentSize) + " bytes, the chunk header says " +
         std::to_string(expected_bytes));
  }
  std::vector<RecordHeader> slots(slot_count);
  auto* out = reinterpret_cast<char*>(slots.data());
  size_t produced = 0;
  size_t offset = consumed;
  while (status != 0) {
    size_t out_size = expected_bytes - produced;
    size_t in_size = frame.size() - offset;
    if (in_size == 0) fail("LZ4 frame is truncated");
    status = LZ4F_decompress(context.get(), out + produced, &out_size, frame.data() + offset, &in_size, nullptr);
    if (LZ4F_isError(status)) fail(std::string{"LZ4: "} + LZ4F_getErrorName(status));
    produced += out_size;
    offset += in_size;
    if (out_size == 0 && in_size == 0) fail("LZ4 frame makes no progress");
  }
  if (produced != expected_bytes) fail("LZ4 frame decompressed to " + std::to_string(produced) + " bytes");
  if (offset != frame.size()) fail(std::to_string(frame.size() - offset) + " bytes after the LZ4 frame");
  return slots;
}

}  // namespace barracuda::trace
