// The engine against the naive reference detector on random traces: same racing site pairs (with
// class and hazard), same divergent barriers, same redundant barriers. Seeds are reproducible;
// BARRACUDA_DIFF_TRACES overrides the trace count, BARRACUDA_DIFF_SEED runs one seed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <sstream>
#include <string>

#include "engine/engine.h"
#include "random_trace.h"
#include "reference_detector.h"
#include "test_environment.h"

namespace barracuda::engine::test {
namespace {

#ifdef BARRACUDA_DIFF_DEFAULT_TRACES
constexpr uint64_t kDefaultTraces = BARRACUDA_DIFF_DEFAULT_TRACES;
#else
constexpr uint64_t kDefaultTraces = 100000;
#endif

using barracuda::test::env_or;

struct Verdicts {
  std::set<RaceKey> races;
  std::set<uint32_t> divergent;
  std::set<uint32_t> redundant;
  friend bool operator==(const Verdicts&, const Verdicts&) = default;
};

// Blocks are pinned to workers by block % workers; each worker consumes its whole queue in turn,
// so the reference sees the queues concatenated in that order.
Verdicts run_engine(const RandomTrace& trace, uint32_t workers, std::vector<RecordHeader>& order) {
  std::vector<std::vector<RecordHeader>> queues(workers);
  for (const RecordHeader& h : trace.records) queues[h.block_id % workers].push_back(h);
  Engine engine(EngineConfig{workers});
  engine.begin_launch(trace.launch);
  for (uint32_t q = 0; q < workers; ++q) {
    engine.worker(q).consume(queues[q]);
    order.insert(order.end(), queues[q].begin(), queues[q].end());
  }
  engine.end_launch();
  Verdicts v;
  for (const Race& r : engine.races()) {
    v.races.insert({std::min(raw(r.first_site), raw(r.second_site)), std::max(raw(r.first_site), raw(r.second_site)),
                    r.race_class, r.hazard, r.unfenced_acquire});
  }
  for (const Diagnostic& d : engine.diagnostics()) {
    if (d.kind == DiagnosticKind::kBarrierDivergence) v.divergent.insert(raw(d.site));
    if (d.kind == DiagnosticKind::kRedundantBarrier) v.redundant.insert(raw(d.site));
  }
  EXPECT_EQ(engine.stats().malformed_records, 0u);
  return v;
}

Verdicts run_reference(const RandomTrace& trace, const std::vector<RecordHeader>& order) {
  ReferenceDetector reference(trace.launch);
  for (const RecordHeader& h : order) reference.apply(h);
  reference.finish();
  return {reference.races(), reference.divergent_barriers(), reference.redundant_barriers()};
}

std::string describe(const std::set<RaceKey>& races) {
  std::ostringstream out;
  for (const auto& [a, b, c, h, u] : races) {
    out << " (" << a << "," << b << " class " << int(c) << " hazard " << int(h) << (u ? " unfenced" : "") << ")";
  }
  return out.str();
}

TEST(Differential, EngineMatchesNaiveReference) {
  const uint64_t traces = env_or("BARRACUDA_DIFF_TRACES", kDefaultTraces);
  const uint64_t only = env_or("BARRACUDA_DIFF_SEED", ~0ull);
  std::vector<uint64_t> failing;
  uint64_t racy = 0;
  for (uint64_t seed = 0; seed < traces; ++seed) {
    if (only != ~0ull && seed != only) continue;
    const RandomTrace trace = make_random_trace(seed);
    std::vector<RecordHeader> order;
    const Verdicts engine = run_engine(trace, seed % 3 == 2 ? 2 : 1, order);
    const Verdicts reference = run_reference(trace, order);
    racy += !reference.races.empty();
    if (engine == reference) continue;
    failing.push_back(seed);
    if (failing.size() <= 5) {
      ADD_FAILURE() << "seed " << seed << " (BARRACUDA_DIFF_SEED=" << seed << ")\n  engine:   " << describe(engine.races)
                    << "\n  reference:" << describe(reference.races) << "\n  divergent " << engine.divergent.size()
                    << " vs " << reference.divergent.size() << ", redundant " << engine.redundant.size() << " vs "
                    << reference.redundant.size();
    }
  }
  EXPECT_TRUE(failing.empty()) << failing.size() << " of " << traces << " traces differ";
  // The generator must exercise both outcomes for the comparison to mean anything.
  if (only == ~0ull) {
    EXPECT_GT(racy, traces / 10);
    EXPECT_LT(racy, traces - traces / 10);
  }
}

}  // namespace
}  // namespace barracuda::engine::test
