#pragma once
// record=FILE: writes what a run logged (site tables, launches, every drained record) as a trace file
// that `barracuda replay` feeds through the engine again, offline and without a GPU.
// record_limit=BYTES keeps the trace to a prefix: once that many bytes of records are written the file
// is closed with its end section (it stays readable, e.g. if the run is then killed) and later
// records are only counted.
#include <cstdint>
#include <fstream>
#include <mutex>
#include <span>
#include <string>

#include "trace/trace_writer.h"

namespace barracuda::runtime {

class TraceRecorder {
 public:
  // Throws std::runtime_error when the file cannot be created. `limit_bytes` 0: no limit.
  TraceRecorder(const std::string& path, uint64_t limit_bytes);

  void module(const trace::ModuleTable& table);
  void launch(const trace::LaunchDescriptor& launch);
  void slots(uint32_t queue, std::span<const RecordHeader> slots);
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
  uint64_t left_out_ = 0;
  bool closed_ = false;
};

}  // namespace barracuda::runtime
