#include "runtime/trace_recorder.h"

#include <algorithm>
#include <stdexcept>

#include "barracuda/record_view.h"

namespace barracuda::runtime {
namespace {

// How many of `slots` (whole records), at most `budget`, a prefix may take: it ends at a record
// boundary, and not between a sync ticket and the record it orders (the replay reports a record cut in
// two, or a ticket without its record, as malformed). A slot that cannot start a record counts as one.
size_t whole_records(std::span<const RecordHeader> slots, uint64_t budget) {
  size_t end = 0;
  for (size_t i = 0; i < slots.size();) {
    const RecordView record(slots[i]);
    const size_t n = record.defect() == RecordDefect::kNone ? record.slot_count() : 1;
    if (i + n > budget) break;
    i += n;
    if (record.op() != RecordOp::kSyncTicket) end = i;
  }
  return end;
}

}  // namespace

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
  if (limit_slots_ == 0) {
    writer_.write_slots(queue, slots);
    written_slots_ += slots.size();
    return;
  }
  uint64_t budget = limit_slots_ - written_slots_;
  const bool shared = queue_share_ != 0 && queue < queue_written_.size();
  if (shared) {
    if (queue_done_[queue]) {
      left_out_ += slots.size();
      return;
    }
    budget = std::min(budget, queue_share_ - queue_written_[queue]);
  }
  const size_t take = whole_records(slots, budget);
  if (take != 0) writer_.write_slots(queue, slots.first(take));
  written_slots_ += take;
  left_out_ += slots.size() - take;
  if (shared) {
    queue_written_[queue] += take;
    if (take < slots.size() && !queue_done_[queue]) {
      queue_done_[queue] = true;
      ++queues_done_;
    }
  }
  const bool full = shared ? queues_done_ == queue_written_.size() : take < slots.size();
  if (full || written_slots_ == limit_slots_) close_locked();
}

void TraceRecorder::share_among_queues(uint32_t queue_count) {
  std::lock_guard lock(mutex_);
  if (limit_slots_ == 0 || closed_ || queue_count == 0 || queue_count == queue_written_.size()) return;
  // Queues made again with another count: what is left is shared among them.
  const uint64_t left = limit_slots_ - written_slots_;
  queue_share_ = std::max<uint64_t>(1, left / queue_count);
  queue_written_.assign(queue_count, 0);
  queue_done_.assign(queue_count, false);
  queues_done_ = 0;
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
