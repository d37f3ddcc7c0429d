#pragma once
// record=FILE: writes what a run logged (site tables, launches, every drained record) as a trace file
// that `barracuda replay` feeds through the engine again, offline and without a GPU.
#include <fstream>
#include <mutex>
#include <span>
#include <string>

#include "trace/trace_writer.h"

namespace barracuda::runtime {

class TraceRecorder {
 public:
  // Throws std::runtime_error when the file cannot be created.
  explicit TraceRecorder(const std::string& path);

  void module(const trace::ModuleTable& table);
  void launch(const trace::LaunchDescriptor& launch);
  void slots(uint32_t queue, std::span<const RecordHeader> slots);
  // Writes the end section; a trace without it reads as cut short.
  void finish();

 private:
  std::mutex mutex_;
  std::ofstream out_;
  trace::TraceWriter writer_;
};

}  // namespace barracuda::runtime
