#include "runtime/trace_recorder.h"

#include <stdexcept>

namespace barracuda::runtime {

TraceRecorder::TraceRecorder(const std::string& path)
    : out_(path, std::ios::binary | std::ios::trunc), writer_(out_) {
  if (!out_) throw std::runtime_error("cannot create the trace file " + path);
}

void TraceRecorder::module(const trace::ModuleTable& table) {
  std::lock_guard lock(mutex_);
  writer_.write_module(table);
}

void TraceRecorder::launch(const trace::LaunchDescriptor& launch) {
  std::lock_guard lock(mutex_);
  writer_.write_launch(launch);
}

void TraceRecorder::slots(uint32_t queue, std::span<const RecordHeader> slots) {
  std::lock_guard lock(mutex_);
  writer_.write_slots(queue, slots);
}

void TraceRecorder::finish() {
  std::lock_guard lock(mutex_);
  writer_.finish();
  out_.flush();
}

}  // namespace barracuda::runtime
