// Which shared loads no write of their barrier interval can race with (write_free_intervals.h), on
// hand-written kernels: each names its loads by address ([tile+N]), and the test lists those left
// unlogged.
#include "ptx/passes/write_free_intervals.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "ptx/parser.h"
#include "ptx/passes/instrument.h"

namespace barracuda::ptx::passes {
namespace {

using Loads = std::set<std::string>;

std::string kernel(const std::string& name, const std::string& body, const std::string& kind = ".entry") {
  return ".version 8.0\n.target sm_90\n.address_size 64\n"
         ".visible " + kind + " " + name + "(.param .u64 out)\n{\n"
         "  .reg .pred %p<4>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<4>;\n"
         "  .shared .align 4 .b8 tile[256];\n"
         "  mov.u32 %r1, %tid.x;\n  setp.lt.u32 %p1, %r1, 32;\n" + body + "  ret;\n}\n";
}

// The address operands of the loads left unlogged in `name`.
Loads unlogged(const std::string& ptx, const std::string& name) {
  ParseResult parsed = parse(ptx);
  EXPECT_TRUE(parsed) << parsed.error.to_string();
  if (!parsed) return {};
  Function* function = parsed.module->find_function(name);
  EXPECT_NE(function, nullptr);
  Loads loads;
  const WriteFreeIntervals intervals(*parsed.module);
  for (const Instruction* load : intervals.loads_of(*function)) {
    const Operand& address = load->operands[1];
    loads.emplace("[" + std::string(address.text) + "+" + std::to_string(address.value) + "]");
  }
  return loads;
}

// A tile stored, a barrier, the tile read, a barrier, in a loop: the reads' interval holds no store.
const std::string kTileLoop =
    "  mov.u32 %r5, 0;\n"
    "$L_loop:\n"
    "  st.shared.u32 [tile], %r1;\n"
    "  bar.sync 0;\n"
    "  ld.shared.u32 %r6, [tile+4];\n"
    "  ld.shared.u32 %r7, [tile+8];\n"
    "  bar.sync 0;\n"
    "  add.u32 %r5, %r5, 1;\n"
    "  setp.lt.u32 %p2, %r5, 4;\n"
    "  @%p2 bra $L_loop;\n"
    "  ld.shared.u32 %r8, [tile+12];\n";

TEST(WriteFreeIntervals, TileReadsBetweenTheBarriersAroundThemAreNotLogged) {
  // The read after the loop shares the loop's store interval (after the second barrier).
  EXPECT_EQ(unlogged(kernel("tile", kTileLoop), "tile"), (Loads{"[tile+4]", "[tile+8]"}));
}

TEST(WriteFreeIntervals, AStoreInTheReadsIntervalKeepsThemLogged) {
  std::string body = kTileLoop;
  body.insert(body.find("  bar.sync 0;\n  add"), "  @%p1 st.shared.u32 [tile+64], %r1;\n");
  EXPECT_EQ(unlogged(kernel("tile", body), "tile"), Loads{});
  // A generic store may reach shared memory: it counts as a shared store.
  body = kTileLoop;
  body.insert(body.find("  bar.sync 0;\n  add"), "  ld.param.u64 %rd1, [out];\n  st.u32 [%rd1], %r1;\n");
  EXPECT_EQ(unlogged(kernel("tile", body), "tile"), Loads{});
  // A global store does not.
  body = kTileLoop;
  body.insert(body.find("  bar.sync 0;\n  add"), "  ld.param.u64 %rd1, [out];\n  st.global.u32 [%rd1], %r1;\n");
  EXPECT_EQ(unlogged(kernel("tile", body), "tile"), (Loads{"[tile+4]", "[tile+8]"}));
}

TEST(WriteFreeIntervals, BarriersThatMayCountTheSameIntervalShareTheirStores) {
  // Lanes below 32 read after one barrier, the others store after another: both are the block's
  // first barrier, one interval.
  const std::string split =
      "  @%p1 bra $L_other;\n"
      "  bar.sync 0;\n"
      "  ld.shared.u32 %r6, [tile+4];\n"
      "  bra.uni $L_end;\n"
      "$L_other:\n"
      "  bar.sync 0;\n"
      "  st.shared.u32 [tile+4], %r1;\n"
      "$L_end:\n";
  EXPECT_EQ(unlogged(kernel("split", split), "split"), Loads{});
  // With one barrier more on the storing side the counts differ (1 against 2): the read is alone.
  std::string apart = split;
  apart.insert(apart.find("  st.shared"), "  bar.sync 0;\n");
  EXPECT_EQ(unlogged(kernel("apart", apart), "apart"), (Loads{"[tile+4]"}));
}

TEST(WriteFreeIntervals, ALoopWithADataDependentTripCountMeetsTheBarrierAfterIt) {
  // Per thread 0 to n rounds of two barriers, then a third: the third may count as a first barrier
  // of another thread's round (1, 3, 5, ...), so the store after it shares the reads' interval.
  const std::string rounds =
      "  mov.u32 %r5, 0;\n"
      "  bra.uni $L_test;\n"
      "$L_loop:\n"
      "  bar.sync 0;\n"
      "  ld.shared.u32 %r6, [tile+4];\n"
      "  bar.sync 0;\n"
      "  add.u32 %r5, %r5, 1;\n"
      "$L_test:\n"
      "  setp.lt.u32 %p2, %r5, %r1;\n"
      "  @%p2 bra $L_loop;\n"
      "  bar.sync 0;\n"
      "  st.shared.u32 [tile+4], %r1;\n";
  EXPECT_EQ(unlogged(kernel("rounds", rounds), "rounds"), Loads{});
}

TEST(WriteFreeIntervals, AGuardedBarrierDoesNotEndTheIntervalBeforeIt) {
  const std::string guarded =
      "  st.shared.u32 [tile], %r1;\n"
      "  @%p1 bar.sync 0;\n"
      "  ld.shared.u32 %r6, [tile+4];\n";
  EXPECT_EQ(unlogged(kernel("guarded", guarded), "guarded"), Loads{});
  const std::string unguarded =
      "  st.shared.u32 [tile], %r1;\n"
      "  bar.sync 0;\n"
      "  ld.shared.u32 %r6, [tile+4];\n";
  EXPECT_EQ(unlogged(kernel("unguarded", unguarded), "unguarded"), (Loads{"[tile+4]"}));
}

TEST(WriteFreeIntervals, KernelsWhoseBarriersOrWritesAreNotFollowedKeepEveryLoad) {
  const std::string reads_after_barrier = "  bar.sync 0;\n  ld.shared.u32 %r6, [tile+4];\n";
  for (const std::string& other : {"  bar.sync 1, 64;\n", "  bar.arrive 0;\n", "  barrier.cluster.arrive;\n",
                                   "  bar.red.or.pred %p3, 0, %p1;\n", "  membar.cta;\n"}) {
    EXPECT_EQ(unlogged(kernel("declined", other + reads_after_barrier), "declined"), Loads{}) << other;
  }
  // __syncwarp changes no barrier count: the kernel is followed.
  EXPECT_EQ(unlogged(kernel("warp_sync", "  bar.warp.sync -1;\n" + reads_after_barrier), "warp_sync"),
            (Loads{"[tile+4]"}));
  // A device function's intervals depend on its callers.
  EXPECT_EQ(unlogged(kernel("device_function", reads_after_barrier, ".func"), "device_function"), Loads{});
}

// A module with `callee` defined (or declared, without a body) before a kernel that calls it.
std::string with_callee(const std::string& callee, const std::string& body) {
  const std::string header = ".version 8.0\n.target sm_90\n.address_size 64\n";
  return header + callee + kernel("caller", body).substr(header.size());
}

TEST(WriteFreeIntervals, ACallIsFollowedIntoWhatItCanReach) {
  const std::string reads = "  call.uni helper;\n  bar.sync 0;\n  ld.shared.u32 %r6, [tile+4];\n  call.uni helper;\n";
  // A function that stores to global memory only, and one it calls: plain instructions.
  const std::string global_store =
      ".func leaf(.param .u64 p)\n{\n  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [p];\n  st.global.u32 [%rd1], 1;\n  ret;\n}\n"
      ".func helper()\n{\n  .param .u64 a;\n  st.param.u64 [a], 0;\n  call.uni leaf, (a);\n  ret;\n}\n";
  EXPECT_EQ(unlogged(with_callee(global_store, reads), "caller"), (Loads{"[tile+4]"}));
  // One that passes a barrier, stores to shared memory or fences, itself or in what it calls.
  for (const std::string& spoiler : {"bar.sync 0;", "st.shared.u32 [tile+8], 1;", "membar.gl;"}) {
    const std::string callees = ".func leaf()\n{\n  " + spoiler + "\n  ret;\n}\n"
                                ".func helper()\n{\n  call.uni leaf;\n  ret;\n}\n";
    EXPECT_EQ(unlogged(with_callee(callees, reads), "caller"), Loads{}) << spoiler;
  }
  // The PTX system calls (assert, printf) are known; a function without a body here is not.
  const std::string assert_fail =
      ".extern .func __assertfail(.param .b64 m, .param .b64 f, .param .b32 l, .param .b64 fn, .param .b64 c);\n";
  const std::string fails =
      "  .param .b64 m;\n  .param .b64 f;\n  .param .b32 l;\n  .param .b64 fn;\n  .param .b64 c;\n"
      "  @%p1 call.uni __assertfail, (m, f, l, fn, c);\n  bar.sync 0;\n  ld.shared.u32 %r6, [tile+4];\n";
  EXPECT_EQ(unlogged(with_callee(assert_fail, fails), "caller"), (Loads{"[tile+4]"}));
  EXPECT_EQ(unlogged(with_callee(".extern .func helper();\n", reads), "caller"), Loads{});
}

TEST(WriteFreeIntervals, OnlyWeakSharedLoadsQualify) {
  const std::string loads =
      "  bar.sync 0;\n"
      "  ld.shared.u32 %r6, [tile+4];\n"
      "  ld.volatile.shared.u32 %r7, [tile+8];\n"
      "  ld.u32 %r8, [%rd2];\n";
  EXPECT_EQ(unlogged(kernel("loads", "  cvta.shared.u64 %rd2, tile;\n" + loads), "loads"), (Loads{"[tile+4]"}));
}

TEST(WriteFreeIntervals, TheInstrumentationLogsThemOnlyWhenAskedTo) {
  ParseResult skipping = parse(kernel("tile", kTileLoop));
  ASSERT_TRUE(skipping);
  EXPECT_EQ(instrument_module(*skipping.module, {}).statistics.write_free_loads, 2u);
  ParseResult logging = parse(kernel("tile", kTileLoop));
  ASSERT_TRUE(logging);
  const InstrumentResult logged = instrument_module(*logging.module, {.log_write_free_loads = true});
  EXPECT_EQ(logged.statistics.write_free_loads, 0u);
  // The two tile reads are logged too.
  EXPECT_EQ(logged.statistics.memory_accesses, instrument_module(*parse(kernel("tile", kTileLoop)).module, {}).statistics.memory_accesses + 2);
}

}  // namespace
}  // namespace barracuda::ptx::passes
