#pragma once
// Reads a trace file (format.h) one section at a time, so memory stays bounded by the largest section
// (kMaxSectionPayloadBytes) however long the trace. Every malformed input throws TraceFormatError
// naming the section and its file offset.
#include <cstdint>
#include <istream>
#include <optional>

#include "trace/format.h"
#include "trace/trace_error.h"
#include "trace/trace_items.h"

namespace barracuda::trace {

class TraceReader {
 public:
  // Reads and checks the file header: only traces whose slots use this build's kRecordFormatVersion
  // are accepted.
  explicit TraceReader(std::istream& in);

  // The next module table, launch or slot chunk; nullopt after the end section (which is checked
  // against the counts of what was read).
  std::optional<TraceItem> next();

 private:
  std::string read_payload(uint32_t size, const std::string& what);

  std::istream& in_;
  uint64_t offset_ = 0;
  uint32_t format_version_ = kTraceFormatVersion;
  EndPayload counts_{};
  bool ended_ = false;
};

}  // namespace barracuda::trace
