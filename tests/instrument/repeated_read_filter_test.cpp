// Option filter_repeated_reads (src/ptx/passes/repeated_read_filter.cpp): a load's record is skipped by
// a lane whose function last logged this very load of this very address. The structure is checked
// here (which loads get the test, what forgets the last read) and that ptxas compiles the result with
// the device runtime; what it sends on a GPU is measured there.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>

#include "device/runtime_ptx.h"
#include "ptx/parser.h"
#include "ptx/passes/instrument.h"
#include "ptx/passes/runtime_merge.h"
#include "ptx/printer.h"
#include "ptxas_runner.h"

namespace barracuda::ptx::passes {
namespace {

// A spin on a volatile flag with a warp vote in it (CUB's look-back votes on every re-read), a
// barrier, a plain load, a call, an acquire load and a store.
constexpr std::string_view kModule = R"(.version 8.0
.target sm_90
.address_size 64
.func helper() { ret; }
.visible .entry spin(.param .u64 flag, .param .u64 data)
{
.reg .pred %p<2>;
.reg .b32 %r<5>;
.reg .b64 %rd<3>;
ld.param.u64 %rd1, [flag];
$L_spin:
ld.volatile.global.u32 %r1, [%rd1];
setp.eq.s32 %p1, %r1, 0;
vote.sync.any.pred %p1, %p1, -1;
@%p1 bra $L_spin;
bar.sync 0;
ld.param.u64 %rd2, [data];
ld.global.u32 %r2, [%rd2];
call helper;
ld.acquire.gpu.global.u32 %r3, [%rd2];
st.global.u32 [%rd2], %r2;
ret;
}
)";

size_t count(const std::string& text, std::string_view needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// Lines that empty the filter's site register (the launch-slot globals share the literal).
size_t site_resets(const std::string& text) {
  size_t n = 0;
  for (size_t start = 0; start < text.size();) {
    const size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line(text.data() + start, end - start);
    n += line.find("mov.u32") != std::string_view::npos && line.find("4294967295") != std::string_view::npos;
    start = end + 1;
  }
  return n;
}

// The line after the first one holding `needle` (empty when there is none).
std::string line_after(const std::string& text, std::string_view needle) {
  const size_t at = text.find(needle);
  if (at == std::string::npos) return {};
  const size_t next = text.find('\n', at) + 1;
  return text.substr(next, text.find('\n', next) - next);
}

struct Instrumented {
  std::string text;
  InstrumentStatistics statistics;
};

Instrumented instrument(bool filter) {
  ParseResult parsed = parse(std::string(kModule));
  EXPECT_TRUE(parsed) << parsed.error.to_string();
  const InstrumentResult result = instrument_module(*parsed.module, {.filter_repeated_reads = filter});
  return {to_string(*parsed.module), result.statistics};
}

TEST(RepeatedReadFilter, LoadsGetTheTestAndAcquiresCompareTheirValueToo) {
  const Instrumented filtered = instrument(true);
  // The volatile spin read, the plain load and the acquire, not the store. The acquire, logged once it
  // has read, is a repeat only where it also read the last one's value: one comparison more.
  EXPECT_EQ(filtered.statistics.filtered_loads, 3u);
  EXPECT_EQ(count(filtered.text, "setp.eq.and.b64"), 4u) << filtered.text;
  // The acquire's value, widened after the load, is compared and then kept as the last one's.
  const std::string after_acquire = filtered.text.substr(filtered.text.find("ld.acquire.gpu.global.u32"));
  EXPECT_NE(after_acquire.find("cvt.u64.u32"), std::string::npos) << after_acquire;
  EXPECT_EQ(filtered.statistics.memory_accesses, instrument(false).statistics.memory_accesses);
}

// Thread 0 of each block in a cooperative-groups grid sync: an acquire spin on the barrier counter
// (CUDA 13's cooperative_groups/details/sync.h, as nvcc -O3 emits it). A vector acquire has no value
// to compare: not filtered.
TEST(RepeatedReadFilter, AGridSyncSpinComparesTheCounterItRead) {
  ParseResult parsed = parse(R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry grid_sync(.param .u64 counter)
{
.reg .pred %p<2>;
.reg .b32 %r<8>;
.reg .b64 %rd<2>;
ld.param.u64 %rd1, [counter];
atom.add.release.gpu.u32 %r1, [%rd1], 1;
$L_spin:
ld.acquire.gpu.u32 %r2, [%rd1];
xor.b32 %r3, %r2, %r1;
setp.gt.s32 %p1, %r3, -1;
@%p1 bra $L_spin;
ld.acquire.gpu.v2.u32 {%r4, %r5}, [%rd1];
ret;
}
)");
  ASSERT_TRUE(parsed) << parsed.error.to_string();
  const InstrumentResult result = instrument_module(*parsed.module, {.filter_repeated_reads = true});
  EXPECT_EQ(result.statistics.filtered_loads, 1u);
  const std::string text = to_string(*parsed.module);
  EXPECT_EQ(count(text, "setp.eq.and.b64"), 2u) << text;
  ParseResult runtime = parse(std::string(device_runtime_ptx()));
  ASSERT_TRUE(runtime) << runtime.error.to_string();
  merge_device_runtime(*parsed.module, *runtime.module);
  const testing::PtxasResult compiled = testing::run_ptxas(to_string(*parsed.module), "sm_90");
  EXPECT_TRUE(compiled.ok) << compiled.log;
}

TEST(RepeatedReadFilter, OffLeavesTheInstrumentationAsItWas) {
  const Instrumented plain = instrument(false);
  EXPECT_EQ(plain.statistics.filtered_loads, 0u);
  EXPECT_EQ(count(plain.text, "setp.eq.and.b64"), 0u);
  EXPECT_EQ(site_resets(plain.text), 0u);
}

// Every runtime call forgets the last read (a barrier, another access), and so do the program's own
// calls and synchronising instructions: the filter's site register is emptied after each.
TEST(RepeatedReadFilter, CallsAndSynchronisationForgetTheLastRead) {
  const Instrumented filtered = instrument(true);
  const size_t calls = count(filtered.text, "call __barracuda_") + count(filtered.text, "call.uni __barracuda_");
  // One emptying at the start, one after each runtime call, one after the app's call and its barrier.
  EXPECT_GE(site_resets(filtered.text), 1 + calls + 2) << filtered.text;
  // After the app's call the next statement empties the site; not after the vote (the spin's next read
  // is its repeat).
  EXPECT_EQ(site_resets(line_after(filtered.text, "call helper")), 1u) << filtered.text;
  EXPECT_EQ(site_resets(line_after(filtered.text, "vote.sync")), 0u) << filtered.text;
}

TEST(RepeatedReadFilter, CompilesWithTheDeviceRuntime) {
  ParseResult parsed = parse(std::string(kModule));
  ASSERT_TRUE(parsed);
  instrument_module(*parsed.module, {.filter_repeated_reads = true});
  ParseResult runtime = parse(std::string(device_runtime_ptx()));
  ASSERT_TRUE(runtime) << runtime.error.to_string();
  merge_device_runtime(*parsed.module, *runtime.module);
  const std::string text = to_string(*parsed.module);
  const testing::PtxasResult compiled = testing::run_ptxas(text, "sm_90");
  EXPECT_TRUE(compiled.ok) << compiled.log;
}

}  // namespace
}  // namespace barracuda::ptx::passes
