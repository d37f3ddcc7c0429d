#pragma once
// What the detector cost in a run: event volume, queue memory, drain and engine time, and the time
// spent instrumenting modules (nvJitLink or the cubin cache). The runtime fills every field;
// `barracuda replay` fills what a trace tells (slots, the engine's figures measured offline,
// modules_instrumented) and leaves the queue, drain and instrumentation fields 0. The event count
// itself is Summary::events.
#include <chrono>
#include <cstdint>
#include <string>

namespace barracuda::report {

using Seconds = std::chrono::duration<double>;

struct Statistics {
  // Event queues.
  uint64_t slots = 0;               // queue slots the events took (kSlotBytes each)
  uint64_t queue_host_bytes = 0;    // page-locked host memory of all rings (largest arena of the run)
  uint64_t queue_device_bytes = 0;  // device memory of the producer block (write heads, launch id)
  uint32_t drain_threads = 0;
  Seconds drain_wait{};  // wall time during which some checked launch was in flight (issued, not checked yet)
  // Engine.
  Seconds engine_time{};  // in the engine (and trace recorder), summed over the drain threads; closing launches
  uint64_t engine_thread_accesses = 0;    // lane accesses checked against shadow memory
  uint64_t engine_repeated_reads = 0;     // of those, same-epoch re-reads of a thread skipped
  uint64_t engine_peak_resident_blocks = 0;  // most blocks whose state the workers held at once
  uint64_t engine_peak_held_back_records = 0;  // most records held back for their sync-ticket turn at once
  // Records still held back when their launch's tickets were all applied: applied in warp order by one
  // thread at the launch's end (a turn that never came; slow where there are millions).
  uint64_t engine_records_applied_at_launch_end = 0;
  // Device checking of global memory (barracuda/global_check.h): launches it checked, and why the latest
  // launch of a kernel it could check was checked on the host ("kernel: reason"; empty when none was).
  uint64_t launches_global_on_device = 0;
  std::string global_on_host_reason;
  // Instrumentation.
  uint64_t modules_instrumented = 0;
  uint64_t cache_misses = 0;  // modules compiled: PTX parsed, instrumented and linked by nvJitLink
  Seconds jit_time{};         // all of the work for those modules
  uint64_t cache_hits = 0;    // modules whose instrumented cubin the cache held
  Seconds cache_load_time{};  // all of the work for those: parse and instrument (the cache key), read
  friend bool operator==(const Statistics&, const Statistics&) = default;
};

// Figures that follow from the statistics and the event count, computed in one place for the JSON
// report and the -v line; never stored. Rates over a zero time are 0.
struct StatisticsFigures {
  uint64_t bytes_logged = 0;
  double bytes_per_event = 0;
  uint64_t queue_bytes = 0;  // host + device
  double drain_events_per_second = 0;
  double engine_thread_accesses_per_second = 0;  // per drain thread: engine_time is their sum
};

StatisticsFigures statistics_figures(const Statistics& statistics, uint64_t events);

// The one-line summary `verbose=1` prints: where the host's time went, so a slow run shows whether the
// GPU, the drain, the engine or the JIT waits.
std::string statistics_line(const Statistics& statistics, uint64_t events);

}  // namespace barracuda::report
