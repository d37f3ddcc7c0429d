#include <gtest/gtest.h>

#include "report/statistics.h"
#include "sample_report.h"

namespace barracuda::report {
namespace {

TEST(Statistics, DerivesRatesFromTheEventCount) {
  const Statistics statistics = *testing::sample_report().statistics;
  const StatisticsFigures figures = statistics_figures(statistics, 100000);
  EXPECT_EQ(figures.bytes_logged, 150000u * 32);
  EXPECT_DOUBLE_EQ(figures.bytes_per_event, 48.0);
  EXPECT_EQ(figures.queue_bytes, (132u << 20) + 17024u);
  EXPECT_DOUBLE_EQ(figures.drain_events_per_second, 200000.0);  // 100000 events in 0.5 s
  EXPECT_DOUBLE_EQ(figures.engine_thread_accesses_per_second, 2000000.0);  // 5.5 M in 2.75 s
}

TEST(Statistics, RatesOverNothingAreZero) {
  const StatisticsFigures figures = statistics_figures(Statistics{}, 0);
  EXPECT_EQ(figures.bytes_logged, 0u);
  EXPECT_EQ(figures.bytes_per_event, 0.0);
  EXPECT_EQ(figures.drain_events_per_second, 0.0);
  EXPECT_EQ(figures.engine_thread_accesses_per_second, 0.0);
  Statistics replayed;  // replay: events and engine time, no drain
  replayed.engine_time = Seconds{1.0};
  EXPECT_EQ(statistics_figures(replayed, 10).drain_events_per_second, 0.0);
}

TEST(Statistics, VerboseLineShowsEveryCost) {
  EXPECT_EQ(statistics_line(*testing::sample_report().statistics, 100000),
            "statistics: 100000 events, 48.0 bytes/event, 132.0 MiB of queues; launches in flight for 0.500 s "
            "(0.2 M events/s checked); engine 2.750 s over 15 drain threads (2.0 M thread-accesses/s per thread); "
            "3 modules instrumented: 1 compiled in 1.250 s, 2 from the cache in 0.062 s; 2 launches had their global "
            "memory checked on the GPU (checked on the host: _Z6gatherPKfPf: another launch may run beside it); "
            "4000 repeated reads skipped; "
            "at most 1200 records held back for their sync-ticket turn; 40 records whose turn never came applied "
            "in warp order at their launch's end");
}

}  // namespace
}  // namespace barracuda::report
