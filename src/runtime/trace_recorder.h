#pragma once
// record=FILE: writes what a run logged (site tables, launches, every drained record) as a trace file
// that `barracuda replay` feeds through the engine again, offline and without a GPU.
// record_limit=BYTES keeps the trace to a prefix: once that many bytes of records are written the file
// is closed with its end section (it stays readable, e.g. if the run is then killed) and later
// records are only counted. The limit is shared among the queues once they exist, and a prefix ends
// at whole records (a sync ticket keeps the record it orders).
#include <cstdint>
#include <fstream>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "trace/trace_writer.h"

namespace barracuda::runtime {

class TraceRecorder {
 public:
  // Throws std::runtime_error when the file cannot be created. `limit_bytes` 0: no limit.
  TraceRecorder(const std::string& path, uint64_t limit_bytes);

  void module(const trace::ModuleTable& table);
  void launch(const trace::LaunchDescriptor& launch);
  void slots(uint32_t queue, std::span<const RecordHeader> slots);
  // With a limit: from now on each of the `queue_count` queues records at most its share of it, so
  // that a prefix holds the first records of every queue (about the same stretch of the run on every
  // SM) rather than the first few queues drained whole. Cut by queues drained whole, a lock-heavy
  // prefix held 11 % of its sync tickets' predecessors (gpubench hash_table: 22 of 132 queues), and
  // replayed, nearly every record waited for one never recorded. Called whenever queues are made.
  void share_among_queues(uint32_t queue_count);
  // Writes the end section; a trace without it reads as cut short.
  void finish();
  // Records left out of the trace by the limit.
  uint64_t records_left_out() const;

 private:
  void close_locked();

  mutable std::mutex mutex_;
  std::ofstream out_;
  trace::TraceWriter writer_;
  uint64_t limit_slots_;  // 0: no limit
  uint64_t written_slots_ = 0;
  uint64_t queue_share_ = 0;                // slots each queue may record; 0: no share yet
  std::vector<uint64_t> queue_written_;     // slots recorded per queue since the share was set
  std::vector<bool> queue_done_;            // the queue used its share (or a record did not fit it)
  uint32_t queues_done_ = 0;
  uint64_t left_out_ = 0;
  bool closed_ = false;
};

}  // namespace barracuda::runtime
