// Which kernels the device checks shared memory of (shared_checkable_kernels.h), on PTX nvcc emits,
// and what the instrumentation then does to them: kAccessDeviceShared on their shared loads and stores,
// the slot calls at entry and exits, and a module nvJitLink and ptxas accept with the device runtime.
#include "ptx/passes/shared_checkable_kernels.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "barracuda/queue.h"
#include "barracuda/shared_check.h"
#include "checkable_kernels_ptx.h"
#include "contained_functions.h"
#include "ptx/parser.h"
#include "ptx/passes/instrument.h"
#include "ptx/printer.h"
#include "runtime/jit_link.h"

namespace barracuda::ptx::passes {
namespace {

using Names = std::set<std::string>;

TEST(SharedCheckableKernels, AcceptsTiledKernelsAndRejectsEachOtherSynchronisation) {
  ParseResult parsed = parse(std::string(shared_checkable_kernels_ptx()));
  ASSERT_TRUE(parsed) << parsed.error.to_string();
  EXPECT_EQ(contained_functions<SharedCheckableKernels>(*parsed.module),
            (Names{"tiled_gemm", "reduce_with_shuffles", "shared_store_in_function", "with_shared_atomic",
                   "_Z13store_throughPii"}));
}

TEST(SharedCheckableKernels, AModuleWhoseSiteIdsMayNotFitTheShadowIsLeftToTheHost) {
  ParseResult parsed = parse(std::string(shared_checkable_kernels_ptx()));
  ASSERT_TRUE(parsed);
  EXPECT_EQ(contained_functions<SharedCheckableKernels>(*parsed.module, kSharedCheckMaxSites - 100), Names{});
}

// The access_info of every __barracuda_log_access call in `function`'s instrumented text, and the
// number of calls to `callee`.
struct Calls {
  std::vector<uint32_t> access_infos;
  int begins = 0;
  int ends = 0;
};

Calls calls_in(const std::string& text, const std::string& function) {
  Calls calls;
  const size_t start = text.find(".entry " + function + "\n");
  const size_t end = text.find("\n}", start);
  std::string body = text.substr(start, end - start);
  // st.param.b32 [__bc_arg2], <info>; precedes each log_access call: the third argument.
  for (size_t at = body.find("[__bc_arg2], "); at != std::string::npos; at = body.find("[__bc_arg2], ", at + 1)) {
    const size_t call = body.find("call", at);
    if (body.compare(body.find_first_not_of(" \t", call + 4), 22, "__barracuda_log_access") != 0) continue;
    calls.access_infos.push_back(static_cast<uint32_t>(std::stoul(body.substr(at + 13))));
  }
  for (size_t at = body.find("call __barracuda_shared_check_begin;"); at != std::string::npos;
       at = body.find("call __barracuda_shared_check_begin;", at + 1)) {
    ++calls.begins;
  }
  for (size_t at = body.find("call __barracuda_shared_check_end;"); at != std::string::npos;
       at = body.find("call __barracuda_shared_check_end;", at + 1)) {
    ++calls.ends;
  }
  return calls;
}

TEST(SharedCheckableKernels, InstrumentationRoutesTheirSharedAccessesToTheDevice) {
  ParseResult parsed = parse(std::string(shared_checkable_kernels_ptx()));
  ASSERT_TRUE(parsed);
  // The tile loads too (they sit between the barriers after and before the tile stores, where they
  // would not be logged: write_free_intervals.h).
  const InstrumentResult result = instrument_module(*parsed.module, {.log_write_free_loads = true});
  EXPECT_EQ(result.statistics.shared_checkable_kernels, 4u);
  const std::string text = to_string(*parsed.module);
  // ptxas (through nvJitLink) accepts the module linked with the device runtime.
  EXPECT_FALSE(
      runtime::link_to_cubin({{{"kernels", text}, runtime::device_runtime_input("sm_90")}, "sm_90", {}}).cubin.empty());

  const Calls gemm = calls_in(text, "tiled_gemm");
  EXPECT_EQ(gemm.begins, 1);
  EXPECT_GE(gemm.ends, 1);
  int shared = 0;
  for (uint32_t info : gemm.access_infos) {
    const bool is_shared = space_of(access_info_space_sem(info)) == MemorySpace::kShared;
    EXPECT_EQ((info & kAccessDeviceShared) != 0, is_shared) << std::hex << info;
    shared += is_shared;
  }
  EXPECT_GE(shared, 3) << "two tile stores and the tile loads";

  // A shared atomic goes to the device like the plain accesses; the global store does not.
  const Calls atomic = calls_in(text, "with_shared_atomic");
  EXPECT_EQ(atomic.begins, 1);
  int device_atomics = 0;
  for (uint32_t info : atomic.access_infos) {
    const bool is_shared = space_of(access_info_space_sem(info)) == MemorySpace::kShared;
    EXPECT_EQ((info & kAccessDeviceShared) != 0, is_shared) << std::hex << info;
    device_atomics += is_shared && access_info_op(info) == RecordOp::kAtomic;
  }
  EXPECT_EQ(device_atomics, 1);

  const Calls fenced = calls_in(text, "with_fence");
  EXPECT_EQ(fenced.begins, 0);
  EXPECT_EQ(fenced.ends, 0);
  ASSERT_FALSE(fenced.access_infos.empty());
  for (uint32_t info : fenced.access_infos) EXPECT_EQ(info & kAccessDeviceShared, 0u);
}

}  // namespace
}  // namespace barracuda::ptx::passes
