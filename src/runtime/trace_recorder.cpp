#include "runtime/trace_recorder.h"

#include <algorithm>
#include <stdexcept>

namespace barracuda::runtime {

TraceRecorder::TraceRecorder(const std::string& path, uint64_t limit_bytes)
    : out_(path, std::ios::binary | std::ios::trunc),
      writer_(out_),
      // At least one slot: a limit below one record still records one rather than none.
      limit_slots_(limit_bytes == 0 ? 0 : std::max<uint64_t>(1, limit_bytes / sizeof(RecordHeader))) {
  if (!out_) throw std::runtime_error("cannot create the trace file " + path);
}

void TraceRecorder::module(const trace::ModuleTable& table) {
  std::lock_guard lock(mutex_);
  if (!closed_) writer_.write_module(table);
}

void TraceRecorder::launch(const trace::LaunchDescriptor& launch) {
  std::lock_guard lock(mutex_);
  if (!closed_) writer_.write_launch(launch);
}

void TraceRecorder::slots(uint32_t queue, std::span<const RecordHeader> slots) {
  std::lock_guard lock(mutex_);
  if (closed_) {
    left_out_ += slots.size();
    return;
  }
  size_t take = slots.size();
  if (limit_slots_ != 0) take = std::min<uint64_t>(take, limit_slots_ - written_slots_);
  writer_.write_slots(queue, slots.first(take));
  written_slots_ += take;
  left_out_ += slots.size() - take;
  if (limit_slots_ != 0 && written_slots_ == limit_slots_) close_locked();
}

void TraceRecorder::finish() {
  std::lock_guard lock(mutex_);
  close_locked();
}

uint64_t TraceRecorder::records_left_out() const {
  std::lock_guard lock(mutex_);
  return left_out_;
}

void TraceRecorder::close_locked() {
  if (closed_) return;
  closed_ = true;
  writer_.finish();
  out_.flush();
}

}  // namespace barracuda::runtime
