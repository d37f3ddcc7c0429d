#include "report/statistics.h"

#include <cstdio>

#include "barracuda/record.h"

namespace barracuda::report {
namespace {

double per_second(double amount, Seconds time) { return time.count() > 0 ? amount / time.count() : 0.0; }

constexpr double kMebi = 1024.0 * 1024.0;

}  // namespace

StatisticsFigures statistics_figures(const Statistics& statistics, uint64_t events) {
  StatisticsFigures figures;
  figures.bytes_logged = statistics.slots * kSlotBytes;
  figures.bytes_per_event = events > 0 ? static_cast<double>(figures.bytes_logged) / static_cast<double>(events) : 0.0;
  figures.queue_bytes = statistics.queue_host_bytes + statistics.queue_device_bytes;
  figures.drain_events_per_second = per_second(static_cast<double>(events), statistics.drain_wait);
  figures.engine_thread_accesses_per_second =
      per_second(static_cast<double>(statistics.engine_thread_accesses), statistics.engine_time);
  return figures;
}

std::string statistics_line(const Statistics& statistics, uint64_t events) {
  const StatisticsFigures figures = statistics_figures(statistics, events);
  char text[600];
  std::snprintf(text, sizeof text,
                "statistics: %llu events, %.1f bytes/event, %.1f MiB of queues; launches in flight for %.3f s "
                "(%.1f M events/s checked); engine %.3f s over %u drain threads (%.1f M thread-accesses/s "
                "per thread); %llu modules instrumented: %llu compiled in %.3f s, %llu from the cache in %.3f s; "
                "%llu launches had their global memory checked on the GPU",
                static_cast<unsigned long long>(events), figures.bytes_per_event,
                static_cast<double>(figures.queue_bytes) / kMebi, statistics.drain_wait.count(),
                figures.drain_events_per_second / 1e6, statistics.engine_time.count(), statistics.drain_threads,
                figures.engine_thread_accesses_per_second / 1e6,
                static_cast<unsigned long long>(statistics.modules_instrumented),
                static_cast<unsigned long long>(statistics.cache_misses), statistics.jit_time.count(),
                static_cast<unsigned long long>(statistics.cache_hits), statistics.cache_load_time.count(),
                static_cast<unsigned long long>(statistics.launches_global_on_device));
  std::string line = text;
  if (!statistics.global_on_host_reason.empty()) {
    line += " (checked on the host: " + statistics.global_on_host_reason + ")";
  }
  if (statistics.engine_repeated_reads != 0) {
    line += "; " + std::to_string(statistics.engine_repeated_reads) + " repeated reads skipped";
  }
  if (statistics.engine_peak_held_back_records != 0) {
    line += "; at most " + std::to_string(statistics.engine_peak_held_back_records) +
            " records held back for their sync-ticket turn";
  }
  if (statistics.engine_records_applied_at_launch_end != 0) {
    line += "; " + std::to_string(statistics.engine_records_applied_at_launch_end) +
            " records whose turn never came applied in warp order at their launch's end";
  }
  return line;
}

}  // namespace barracuda::report
