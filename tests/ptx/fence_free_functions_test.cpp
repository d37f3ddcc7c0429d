// Sync-ticket elision: which functions run only in fence-free launches (fence_free_functions.h), and
// which accesses the instrumentation then marks kAccessNoSyncTicket (docs/sync_order.md).
#include "ptx/passes/fence_free_functions.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "barracuda/queue.h"
#include "ptx/parser.h"
#include "ptx/passes/instrument.h"

namespace barracuda::ptx::passes {
namespace {

constexpr std::string_view kHeader = ".version 8.0\n.target sm_90\n.address_size 64\n";

// `HEAD name(.param .u64 name_p) { a few registers; body }`.
std::string function(std::string_view head, std::string_view name, std::string_view body) {
  return std::string(head) + " " + std::string(name) + "(.param .u64 " + std::string(name) +
         "_p)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n" + std::string(body) + "\n}\n";
}
std::string kernel(std::string_view name, std::string_view body) {
  return function(".visible .entry", name, std::string("ld.param.u64 %rd1, [") + std::string(name) + "_p];\n" +
                                               std::string(body) + "\nret;");
}
std::string device_function(std::string_view name, std::string_view body, std::string_view linkage = "") {
  return function(std::string(linkage) + ".func", name, std::string(body) + "\nret;");
}
std::string call(std::string_view callee) {
  return "{\n.param .b64 arg0;\nst.param.b64 [arg0], %rd1;\ncall.uni " + std::string(callee) + ", (arg0);\n}";
}

// The names of the module's functions that FenceFreeFunctions accepts.
std::set<std::string> fence_free(const std::string& items) {
  ParseResult parsed = parse(std::string(kHeader) + items);
  EXPECT_TRUE(parsed) << parsed.error.to_string();
  if (!parsed) return {};
  const FenceFreeFunctions analysis(*parsed.module);
  std::set<std::string> names;
  for (const Function* f : parsed.module->functions()) {
    if (analysis.contains(*f)) names.emplace(f->name);
  }
  return names;
}

using Names = std::set<std::string>;
constexpr std::string_view kAtomics = "atom.global.add.u32 %r1, [%rd1], 1;\natom.global.cas.b32 %r2, [%rd1], 0, 1;";

TEST(FenceFreeFunctions, KernelWithAtomicsAndNoFenceQualifies) {
  EXPECT_EQ(fence_free(kernel("k", kAtomics)), (Names{"k"}));
}

TEST(FenceFreeFunctions, AnyFenceOrMembarInTheKernelDisqualifiesIt) {
  for (const char* fence : {"membar.gl;", "membar.cta;", "fence.sc.gpu;", "fence.acq_rel.sys;",
                            "fence.proxy.async;"}) {
    EXPECT_EQ(fence_free(kernel("k", std::string(kAtomics) + "\n" + fence)), Names{}) << fence;
  }
}

TEST(FenceFreeFunctions, FenceInACalledFunctionDisqualifiesTheKernelAndTheFunction) {
  const std::string module = device_function("leaf", "membar.gl;") + device_function("middle", call("leaf")) +
                             kernel("k", std::string(kAtomics) + "\n" + call("middle"));
  EXPECT_EQ(fence_free(module), Names{});
}

TEST(FenceFreeFunctions, FunctionSharedWithAFencedKernelKeepsItsTickets) {
  const std::string module = device_function("shared_helper", kAtomics) + device_function("own_helper", kAtomics) +
                             kernel("fenced", "membar.gl;\n" + call("shared_helper")) +
                             kernel("unfenced", call("shared_helper") + "\n" + call("own_helper"));
  EXPECT_EQ(fence_free(module), (Names{"own_helper", "unfenced"}));
}

TEST(FenceFreeFunctions, IndirectCallAnywhereDisqualifiesEveryFunction) {
  const std::string indirect =
      "{\n.param .b64 arg0;\nst.param.b64 [arg0], %rd1;\nproto: .callprototype ()_ (.param .b64 _);\n"
      "call %rd2, (arg0), proto;\n}";
  const std::string module = device_function("helper", kAtomics) + kernel("plain", call("helper")) +
                             kernel("indirect", "mov.u64 %rd2, helper;\n" + indirect);
  EXPECT_EQ(fence_free(module), Names{});
}

TEST(FenceFreeFunctions, CallsWhoseBodyIsElsewhereCountAsFenced) {
  const std::string module = ".extern .func external(.param .b64 x);\n" + device_function("weak_one", "", ".weak ") +
                             kernel("calls_external", call("external")) + kernel("calls_weak", call("weak_one"));
  EXPECT_EQ(fence_free(module), Names{});
}

TEST(FenceFreeFunctions, SystemCallsAndTheRuntimeLogNoFence) {
  const std::string module = ".extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);\n"
                             ".extern .func __barracuda_log_entry(.param .b32 site);\n" +
                             kernel("k",
                                    "{\n.param .b64 f;\n.param .b64 a;\n.param .b32 r;\nst.param.b64 [f], %rd1;\n"
                                    "st.param.b64 [a], %rd1;\ncall.uni (r), vprintf, (f, a);\n}\n"
                                    "{\n.param .b32 site;\nst.param.b32 [site], 1;\n"
                                    "call.uni __barracuda_log_entry, (site);\n}");
  EXPECT_EQ(fence_free(module), (Names{"k"}));
}

TEST(FenceFreeFunctions, FunctionsOtherModulesCanCallNeverQualify) {
  // -rdc: another module's fenced kernel may call a .visible .func; the calling kernel still qualifies.
  const std::string module = device_function("visible_helper", kAtomics, ".visible ") +
                             kernel("k", call("visible_helper"));
  EXPECT_EQ(fence_free(module), (Names{"k"}));
}

// Through instrument_module: the access_info values each kernel passes to __barracuda_log_access.
std::map<std::string, std::set<uint32_t>> logged_infos(const std::string& items) {
  ParseResult parsed = parse(std::string(kHeader) + items);
  EXPECT_TRUE(parsed) << parsed.error.to_string();
  if (!parsed) return {};
  instrument_module(*parsed.module, {.log_branches = false});
  std::map<std::string, std::set<uint32_t>> infos;
  // Every b32 immediate stored into a call parameter: site ids and op codes are far below the
  // access_info values compared here (size bits 16-18 are set in all of them).
  for (const Function* f : parsed.module->functions()) {
    if (!f->is_definition) continue;
    for (const Statement& statement : f->body) {
      const auto* instruction = std::get_if<Instruction>(&statement);
      if (!instruction || instruction->mnemonic != "st.param.b32" || instruction->operands.size() != 2 ||
          instruction->operands[1].kind != OperandKind::Integer) {
        continue;
      }
      infos[std::string(f->name)].insert(static_cast<uint32_t>(instruction->operands[1].value));
    }
  }
  return infos;
}

uint32_t info(RecordOp op, barracuda::MemorySemantics sem, MemoryScope scope, uint32_t extra = 0) {
  return pack_access_info(op, pack_space_sem(MemorySpace::kGlobal, sem, scope), 2, extra);
}

TEST(SyncTicketElision, OnlyRelaxedStrongAccessesOfFenceFreeKernelsAreMarked) {
  using S = barracuda::MemorySemantics;
  const std::string body =
      "atom.global.add.u32 %r1, [%rd1], 1;\n"
      "red.relaxed.gpu.global.add.u32 [%rd1], 1;\n"
      "st.volatile.global.u32 [%rd1], %r1;\n"
      "atom.acq_rel.gpu.global.add.u32 %r2, [%rd1], 1;\n"
      "st.release.gpu.global.u32 [%rd1], %r1;\n"
      "atom.release.gpu.global.exch.b32 %r3, [%rd1], %r1;\n"
      "ld.acquire.gpu.global.u32 %r4, [%rd1];\n"
      "st.global.u32 [%rd1], %r1;";
  const auto infos = logged_infos(kernel("unfenced", body) + kernel("fenced", std::string(body) + "\nmembar.gl;"));
  struct Expectation {
    uint32_t info;
    bool marked_when_fence_free;
  };
  const Expectation expectations[] = {
      {info(RecordOp::kAtomic, S::kLegacy, MemoryScope::kGpu), true},
      {info(RecordOp::kReduction, S::kRelaxed, MemoryScope::kGpu), true},
      {info(RecordOp::kStore, S::kVolatile, MemoryScope::kSystem, kAccessHasValue), true},
      {info(RecordOp::kAtomic, S::kAcqRel, MemoryScope::kGpu), false},
      {info(RecordOp::kStore, S::kRelease, MemoryScope::kGpu, kAccessHasValue), false},
      {info(RecordOp::kAtomic, S::kRelease, MemoryScope::kGpu), false},
      {info(RecordOp::kLoad, S::kAcquire, MemoryScope::kGpu), false},
      {info(RecordOp::kStore, S::kWeak, MemoryScope::kCta, kAccessHasValue), false},
  };
  for (const Expectation& e : expectations) {
    const uint32_t marked = e.info | kAccessNoSyncTicket;
    EXPECT_EQ(infos.at("unfenced").contains(marked), e.marked_when_fence_free) << e.info;
    EXPECT_NE(infos.at("unfenced").contains(e.info), e.marked_when_fence_free) << e.info;
    EXPECT_TRUE(infos.at("fenced").contains(e.info)) << e.info;
    EXPECT_FALSE(infos.at("fenced").contains(marked)) << e.info;
  }
}

TEST(SyncTicketElision, SharedMemoryAtomicsNeedNoMarkTheyHaveNoTicket) {
  const auto infos = logged_infos(".shared .align 4 .b32 counter;\n" +
                                  kernel("k", "atom.shared.add.u32 %r1, [counter], 1;"));
  const uint32_t shared = pack_access_info(
      RecordOp::kAtomic, pack_space_sem(MemorySpace::kShared, barracuda::MemorySemantics::kLegacy, MemoryScope::kGpu),
      2, 0);
  // The kernel has nothing but the atomic: its shared memory is checked on the device, which the
  // access says too (shared_checkable_kernels.h), and nothing marks it ticket-free.
  EXPECT_TRUE(infos.at("k").contains(shared | kAccessDeviceShared));
}

}  // namespace
}  // namespace barracuda::ptx::passes
