#pragma once
// Writes a trace file (format.h) to a stream as the run goes: modules and launches when they are
// known, slots whenever a queue is drained. finish() writes the end section; until then the file
// reads as cut short.
#include <cstdint>
#include <ostream>
#include <span>

#include "trace/format.h"
#include "trace/trace_error.h"
#include "trace/trace_items.h"

namespace barracuda::trace {

class TraceWriter {
 public:
  explicit TraceWriter(std::ostream& out);

  void write_module(const ModuleTable& module);
  void write_launch(const LaunchDescriptor& launch);
  // Splits `slots` into chunks of at most kMaxChunkSlots; an empty span writes nothing.
  void write_slots(uint32_t queue_index, std::span<const RecordHeader> slots);
  void finish();

 private:
  void write_section(SectionKind kind, const std::string& payload);

  std::ostream& out_;
  EndPayload counts_{};
};

}  // namespace barracuda::trace
