#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <map>
#include <sstream>

#include "barracuda/queue.h"
#include "device/runtime_ptx.h"
#include "ptx/parser.h"
#include "ptx/passes/device_launch_copies.h"
#include "ptx/passes/instrument.h"
#include "ptx/passes/runtime_merge.h"
#include "ptx/printer.h"
#include "runtime/jit_link.h"

namespace barracuda::ptx::passes {
namespace {

using RecordSemantics = barracuda::MemorySemantics;

// A kernel body wrapped in a module with a few registers, a shared array and line information.
std::string kernel(std::string_view body) {
  return std::string(R"(.version 8.0
.target sm_90
.address_size 64
.file 1 "/src/kernel.cu"
.visible .entry k(.param .u64 k_param_0)
{
.reg .pred %p<4>;
.reg .b16 %rs<4>;
.reg .b32 %r<16>;
.reg .f32 %f<4>;
.reg .b64 %rd<16>;
.local .align 4 .b8 scratch[16];
.shared .align 4 .b8 smem[512];
)") + std::string(body) + "\n}\n";
}

struct Instrumented {
  std::vector<std::string> lines;
  InstrumentResult result;
};

Instrumented instrument(std::string_view body, InstrumentOptions options = {}) {
  ParseResult parsed = parse(kernel(body));
  EXPECT_TRUE(parsed) << parsed.error.to_string();
  InstrumentResult result = instrument_module(*parsed.module, options);
  std::string text = to_string(*parsed.module);
  EXPECT_NO_THROW(runtime::link_to_cubin({{{"kernel", text}, runtime::device_runtime_input("sm_90")}, "sm_90", {}})) << text;
  Instrumented out{{}, std::move(result)};
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) {
    size_t start = line.find_first_not_of('\t');
    out.lines.push_back(start == std::string::npos ? "" : line.substr(start));
  }
  return out;
}

struct RuntimeCall {
  std::string callee;
  std::vector<std::string> arguments;  // the values stored into the call's parameters, in order
  size_t line = 0;
};

// The runtime call right before line `index` (skipping the non-call instructions in between).
RuntimeCall call_before_line(const std::vector<std::string>& lines, size_t index) {
  RuntimeCall call;
  size_t i = index;
  while (i > 0 && lines[i].rfind("call ", 0) != 0) --i;
  call.line = i;
  call.callee = lines[i].substr(5, lines[i].find(',') - 5);
  size_t open = i;
  while (open > 0 && lines[open] != "{") --open;
  for (size_t j = open; j < i; ++j) {
    if (lines[j].rfind("st.param", 0) == 0) {
      size_t comma = lines[j].find("], ");
      call.arguments.push_back(lines[j].substr(comma + 3, lines[j].size() - comma - 4));
    }
  }
  return call;
}

// Each defined function's instructions (the runtime's own functions left out), a line each:
// mnemonic and operand texts.
std::map<std::string, std::string> instruction_texts(const Module& module) {
  std::map<std::string, std::string> bodies;
  for (const Function* function : module.functions()) {
    if (!function->is_definition || function->name.starts_with("__barracuda_log")) continue;
    std::string text;
    for (const Statement& statement : function->body) {
      if (const auto* instruction = std::get_if<Instruction>(&statement)) {
        text += std::string(instruction->mnemonic) + ' ';
        for (const Operand& operand : instruction->operands) text += std::string(operand.text) + ' ';
        text += '\n';
      }
    }
    bodies[std::string(function->name)] = text;
  }
  return bodies;
}

size_t line_of(const std::vector<std::string>& lines, std::string_view text) {
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i] == text) return i;
  }
  ADD_FAILURE() << "no line " << text;
  return 0;
}

RuntimeCall call_before(const Instrumented& instrumented, std::string_view instruction) {
  return call_before_line(instrumented.lines, line_of(instrumented.lines, instruction));
}

// The runtime call right after `instruction` (acquire reads and fences are logged once they completed).
RuntimeCall call_after(const Instrumented& instrumented, std::string_view instruction) {
  size_t i = line_of(instrumented.lines, instruction) + 1;
  while (i < instrumented.lines.size() && instrumented.lines[i].rfind("call ", 0) != 0) ++i;
  return call_before_line(instrumented.lines, std::min(i, instrumented.lines.size() - 1));
}

std::string info(RecordOp op, MemorySpace space, RecordSemantics sem, MemoryScope scope, uint32_t size_log2,
                 uint32_t extra = 0) {
  return std::to_string(pack_access_info(op, pack_space_sem(space, sem, scope), size_log2, extra));
}

TEST(InstrumentPass, GlobalStoreLogsAddressSiteAccessInfoAndStoredValue) {
  auto out = instrument("ld.param.u64 %rd1, [k_param_0];\n.loc 1 12 7\nst.global.f32 [%rd1+4], %f1;\nret;");
  RuntimeCall call = call_before(out, "st.global.f32 [%rd1+4], %f1;");
  EXPECT_EQ(call.callee, "__barracuda_log_access");
  ASSERT_EQ(call.arguments.size(), 4u);
  // The kernel only stores plain words, with no barrier: the device may check its global memory.
  EXPECT_EQ(call.arguments[2], info(RecordOp::kStore, MemorySpace::kGlobal, RecordSemantics::kWeak, MemoryScope::kCta,
                                    2, kAccessHasValue | kAccessDeviceGlobal));
  // The address is base + offset, the float value goes through its bits.
  EXPECT_NE(std::find(out.lines.begin(), out.lines.end(), "add.s64 " + call.arguments[0] + ", %rd1, 4;"),
            out.lines.end());
  auto defined = [&](const std::string& prefix) {
    for (size_t i = 0; i < call.line; ++i) {
      if (out.lines[i].rfind(prefix, 0) == 0) return out.lines[i].substr(prefix.size());
    }
    return std::string();
  };
  std::string bits = defined("cvt.u64.u32 " + call.arguments[3] + ", ");
  ASSERT_FALSE(bits.empty());
  EXPECT_EQ(defined("mov.b32 " + bits.substr(0, bits.size() - 1) + ", "), "%f1;");
  const Site& site = out.result.sites.sites().at(std::stoul(call.arguments[1]));
  EXPECT_EQ(site.kind, SiteKind::Access);
  EXPECT_EQ(site.function, "k");
  EXPECT_EQ(site.source_file, "/src/kernel.cu");
  EXPECT_EQ(site.source_line, 12u);
  EXPECT_EQ(site.source_column, 7u);
  EXPECT_TRUE(site.inlined_file.empty());
  EXPECT_EQ(site.instruction, "st.global.f32 [%rd1+4], %f1;");
}

TEST(InstrumentPass, InlinedAccessIsAttributedToTheUsersLine) {
  ParseResult parsed = parse(R"(.version 8.0
.target sm_90
.address_size 64
.file 1 "/src/kernel.cu"
.file 2 "/usr/include/cuda/atomic"
.visible .entry k(.param .u64 p)
{
.reg .b32 %r<4>;
.reg .b64 %rd<4>;
ld.param.u64 %rd1, [p];
.loc 1 20 3
mov.u32 %r1, 1;
.loc 2 300 9, function_name $L__info_string0, inlined_at 1 20 3
atom.relaxed.gpu.global.add.u32 %r2, [%rd1], %r1;
ret;
}
)");
  ASSERT_TRUE(parsed) << parsed.error.to_string();
  InstrumentResult result = instrument_module(*parsed.module, {});
  const Site* access = nullptr;
  for (const Site& site : result.sites.sites()) access = site.kind == SiteKind::Access ? &site : access;
  ASSERT_NE(access, nullptr);
  EXPECT_EQ(access->source_file, "/src/kernel.cu");
  EXPECT_EQ(access->source_line, 20u);
  EXPECT_EQ(access->inlined_file, "/usr/include/cuda/atomic");
  EXPECT_EQ(access->inlined_line, 300u);
  EXPECT_EQ(to_json(result.sites)["sites"][static_cast<size_t>(access->id)]["inlined"]["line"], 300);
}

TEST(InstrumentPass, MemoryModelQualifiersAndDefaultsReachTheRecord) {
  auto out = instrument(
      "ld.acquire.gpu.global.u32 %r1, [%rd1];\n"
      "atom.global.add.u32 %r2, [%rd1], 1;\n"
      "ld.volatile.shared.u16 %rs1, [smem+2];\n"
      "red.relaxed.cta.shared.add.u64 [%r3], %rd2;\n"
      "ld.u64 %rd3, [%rd2];\n"
      "ret;");
  EXPECT_EQ(call_after(out, "ld.acquire.gpu.global.u32 %r1, [%rd1];").arguments[2],
            info(RecordOp::kLoad, MemorySpace::kGlobal, RecordSemantics::kAcquire, MemoryScope::kGpu, 2));
  EXPECT_EQ(call_before(out, "atom.global.add.u32 %r2, [%rd1], 1;").arguments[2],
            info(RecordOp::kAtomic, MemorySpace::kGlobal, RecordSemantics::kLegacy, MemoryScope::kGpu, 2,
                 kAccessNoSyncTicket));  // the kernel has no fence
  RuntimeCall volatile_load = call_before(out, "ld.volatile.shared.u16 %rs1, [smem+2];");
  EXPECT_EQ(volatile_load.arguments[2],
            info(RecordOp::kLoad, MemorySpace::kShared, RecordSemantics::kVolatile, MemoryScope::kSystem, 1));
  EXPECT_EQ(call_before(out, "red.relaxed.cta.shared.add.u64 [%r3], %rd2;").arguments[2],
            info(RecordOp::kReduction, MemorySpace::kShared, RecordSemantics::kRelaxed, MemoryScope::kCta, 3));
  EXPECT_EQ(call_before(out, "ld.u64 %rd3, [%rd2];").arguments[2],
            info(RecordOp::kLoad, MemorySpace::kGlobal, RecordSemantics::kWeak, MemoryScope::kCta, 3, kAccessGeneric));
  EXPECT_EQ(out.result.statistics.memory_accesses, 5u);
}

TEST(InstrumentPass, LocalParamAndConstAccessesAreNotLogged) {
  auto out = instrument(
      "ld.param.u64 %rd1, [k_param_0];\nst.local.u32 [scratch], %r1;\nld.local.u32 %r2, [scratch+4];\nret;");
  EXPECT_EQ(out.result.statistics.memory_accesses, 0u);
  for (const std::string& line : out.lines) EXPECT_EQ(line.find("__barracuda_log_access,"), std::string::npos);
}

// Loads through the read-only path (__ldg, const __restrict__, ldu) cannot race in a correct program
// (memory_access_pass.cpp, read_only_load): not logged unless log_read_only asks for them.
constexpr std::string_view kReadOnlyLoads =
    "ld.param.u64 %rd1, [k_param_0];\n"
    "ld.global.nc.u32 %r1, [%rd1];\n"
    "ld.global.nc.L1::no_allocate.v4.f32 {%f0, %f1, %f2, %f3}, [%rd1+16];\n"
    "ld.global.nc.L2::128B.u64 %rd2, [%rd1+32];\n"
    "ld.global.cg.nc.u32 %r2, [%rd1+40];\n"
    "ldu.global.u32 %r3, [%rd1+44];\n"
    "ldu.u64 %rd3, [%rd1+48];\n"
    "ld.global.u32 %r4, [%rd1+56];\n"
    "ret;";

TEST(InstrumentPass, ReadOnlyLoadsAreNotLoggedByDefault) {
  auto out = instrument(kReadOnlyLoads);
  EXPECT_EQ(out.result.statistics.memory_accesses, 1u);
  EXPECT_EQ(out.result.statistics.read_only_loads, 6u);
  size_t calls = 0;
  for (const std::string& line : out.lines) calls += line.find("__barracuda_log_access,") != std::string::npos;
  EXPECT_EQ(calls, 1u);
  // The one logged load is the coherent one; the kernel writes nothing through its parameter, so the
  // load is marked as one through a read-only parameter (read_only_parameters.h), and as one the
  // device may check (global_checkable_kernels.h).
  const uint32_t coherent =
      static_cast<uint32_t>(std::stoul(info(RecordOp::kLoad, MemorySpace::kGlobal, RecordSemantics::kWeak, MemoryScope::kCta, 2)));
  EXPECT_EQ(call_before(out, "ld.global.u32 %r4, [%rd1+56];").arguments[2],
            std::to_string(coherent | kAccessReadOnlyParameter | kAccessDeviceGlobal));
  EXPECT_EQ(call_before(out, "ld.global.u32 %r4, [%rd1+56];").callee, "__barracuda_log_access");
  EXPECT_NE(call_before(out, "ld.global.nc.u32 %r1, [%rd1];").callee, "__barracuda_log_access");
}

TEST(InstrumentPass, ReadOnlyLoadsAreLoggedAsPlainLoadsWhenAsked) {
  auto out = instrument(kReadOnlyLoads, {.log_read_only = true});
  EXPECT_EQ(out.result.statistics.memory_accesses, 7u);
  EXPECT_EQ(out.result.statistics.read_only_loads, 0u);
  auto load = [](uint32_t size_log2, uint32_t extra = 0) {
    return info(RecordOp::kLoad, MemorySpace::kGlobal, RecordSemantics::kWeak, MemoryScope::kCta, size_log2, extra);
  };
  // Logged, the .nc loads are plain loads the device may check (global_checkable_kernels.h); ldu is
  // left to the host.
  EXPECT_EQ(call_before(out, "ld.global.nc.u32 %r1, [%rd1];").arguments[2], load(2, kAccessDeviceGlobal));
  EXPECT_EQ(call_before(out, "ld.global.nc.L1::no_allocate.v4.f32 {%f0, %f1, %f2, %f3}, [%rd1+16];").arguments[2],
            load(4, kAccessDeviceGlobal));
  EXPECT_EQ(call_before(out, "ld.global.nc.L2::128B.u64 %rd2, [%rd1+32];").arguments[2], load(3, kAccessDeviceGlobal));
  EXPECT_EQ(call_before(out, "ld.global.cg.nc.u32 %r2, [%rd1+40];").arguments[2], load(2, kAccessDeviceGlobal));
  EXPECT_EQ(call_before(out, "ldu.global.u32 %r3, [%rd1+44];").arguments[2], load(2));
  EXPECT_EQ(call_before(out, "ldu.u64 %rd3, [%rd1+48];").arguments[2], load(3, kAccessGeneric));
}

// Texture and surface instructions are not memory accesses the pass logs (tex/tld4 read through the
// texture path, outside the memory model like ld.global.nc; suld/sust are not logged either).
TEST(InstrumentPass, TextureAndSurfaceInstructionsAreNotLogged) {
  for (bool log_read_only : {false, true}) {
    auto out = instrument(
        "ld.param.u64 %rd1, [k_param_0];\n"
        "tex.1d.v4.f32.s32 {%f0, %f1, %f2, %f3}, [%rd1, {%r1}];\n"
        "tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1, {%f0, %f1}];\n"
        "tld4.g.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1, {%f0, %f1}];\n"
        "suld.b.2d.b32.trap {%r2}, [%rd1, {%r3, %r4}];\n"
        "sust.b.2d.b32.trap [%rd1, {%r3, %r4}], {%r2};\n"
        "ret;",
        {.log_read_only = log_read_only});
    EXPECT_EQ(out.result.statistics.memory_accesses, 0u);
    EXPECT_EQ(out.result.statistics.read_only_loads, 0u);
    for (const std::string& line : out.lines) EXPECT_EQ(line.find("__barracuda_log_access,"), std::string::npos);
  }
}

TEST(InstrumentPass, MemoryInstructionsNotLoggedAreListedPerKernel) {
  auto out = instrument(
      "ld.param.u64 %rd1, [k_param_0];\n"
      "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r1}, [smem];\n"
      "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r2}, [smem+128];\n"
      "wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [smem];\n"
      "sust.b.2d.b32.trap [%rd1, {%r3, %r4}], {%r2};\n"
      "tex.1d.v4.f32.s32 {%f0, %f1, %f2, %f3}, [%rd1, {%r1}];\n"
      "st.shared.u32 [smem], %r1;\n"
      "ret;");
  const std::map<std::string, uint64_t> expected{{"ldmatrix", 2}, {"sust", 1}, {"wmma.load", 1}};
  ASSERT_TRUE(out.result.unlogged_memory.contains("k"));
  EXPECT_EQ(out.result.unlogged_memory.at("k"), expected);
}

// A kernel is charged with what the functions it calls hold; a kernel that calls none holds nothing.
TEST(InstrumentPass, UnloggedMemoryCountsTheKernelsCallClosure) {
  ParseResult parsed = parse(R"(.version 8.0
.target sm_90
.address_size 64
.shared .align 16 .b8 tile[256];
.func store_tile(.param .b32 v)
{
.reg .b32 %r<2>;
ld.param.b32 %r1, [v];
stmatrix.sync.aligned.m8n8.x1.shared.b16 [tile], {%r1};
ret;
}
.visible .entry calls()
{
.reg .b32 %r<2>;
mov.b32 %r1, 1;
{
.param .b32 param0;
st.param.b32 [param0], %r1;
call.uni store_tile, (param0);
}
ret;
}
.visible .entry alone()
{
ret;
}
)");
  ASSERT_TRUE(parsed) << parsed.error.to_string();
  const UnloggedMemory unlogged = unlogged_memory_by_kernel(*parsed.module);
  ASSERT_EQ(unlogged.size(), 1u);
  EXPECT_EQ(unlogged.at("calls"), (std::map<std::string, uint64_t>{{"stmatrix", 1}}));
}

// Dynamic parallelism: the kernel launched from the device and what it calls are copied uninstrumented,
// the parent's reference points at the copy, and the originals (launched from the host) stay checked.
TEST(InstrumentPass, KernelsLaunchedFromTheDeviceRunAsUninstrumentedCopies) {
  ParseResult parsed = parse(R"(.version 9.0
.target sm_90
.address_size 64
.extern .func (.param .b32 func_retval0) __cudaCDP2LaunchDeviceV2
(
.param .b64 __cudaCDP2LaunchDeviceV2_param_0,
.param .b64 __cudaCDP2LaunchDeviceV2_param_1
)
;
.visible .func bump(.param .b64 bump_param_0)
{
.reg .b64 %rd<2>;
ld.param.u64 %rd1, [bump_param_0];
st.global.u32 [%rd1], 1;
ret;
}
.visible .entry child(.param .u64 child_param_0)
{
.reg .b64 %rd<2>;
ld.param.u64 %rd1, [child_param_0];
{
.param .b64 param0;
st.param.b64 [param0], %rd1;
call.uni bump, (param0);
}
ret;
}
.visible .entry parent(.param .u64 parent_param_0)
{
.reg .b32 %r<2>;
.reg .b64 %rd<3>;
ld.param.u64 %rd1, [parent_param_0];
st.global.u32 [%rd1], 2;
mov.u64 %rd2, child;
{
.param .b64 param0;
st.param.b64 [param0], %rd2;
.param .b64 param1;
st.param.b64 [param1], %rd1;
.param .b32 retval0;
call.uni (retval0), __cudaCDP2LaunchDeviceV2, (param0, param1);
ld.param.b32 %r1, [retval0];
}
ret;
}
)");
  ASSERT_TRUE(parsed) << parsed.error.to_string();
  EXPECT_TRUE(launches_from_the_device(*parsed.module));
  // The launch passes a buffer no __cudaCDP2GetParameterBufferV2 returned: it cannot be followed, and
  // the module falls back to unchecked copies.
  const DeviceLaunchedKernels launched = copy_device_launched_kernels(*parsed.module);
  EXPECT_EQ(launched.kernels, std::vector<std::string>{"child"});
  EXPECT_FALSE(launched.checked);
  instrument_module(*parsed.module, {});
  std::map<std::string, std::string> bodies = instruction_texts(*parsed.module);
  ASSERT_TRUE(bodies.contains("__barracuda_unchecked_child"));
  ASSERT_TRUE(bodies.contains("__barracuda_unchecked_bump"));
  EXPECT_EQ(bodies["__barracuda_unchecked_child"].find("__barracuda_log"), std::string::npos);
  EXPECT_EQ(bodies["__barracuda_unchecked_bump"].find("__barracuda_log"), std::string::npos);
  EXPECT_NE(bodies["__barracuda_unchecked_child"].find("call.uni __barracuda_unchecked_bump"), std::string::npos);
  EXPECT_NE(bodies["parent"].find("mov.u64 %rd2 __barracuda_unchecked_child"), std::string::npos);
  EXPECT_NE(bodies["child"].find("__barracuda_log_entry"), std::string::npos);
  EXPECT_NE(bodies["child"].find("call.uni bump"), std::string::npos);
  EXPECT_NE(bodies["bump"].find("__barracuda_log_access"), std::string::npos);
}

// nvcc's call sequences for `child<<<grid, 64, 0, stream>>>(data, n)` from the device (CUDA 13,
// -rdc): the child gets a checked copy with a token parameter after its own (8-byte aligned: offset
// 16 after a u64 and a u32), the parameter buffer gets the token, and the launch is logged.
TEST(InstrumentPass, KernelsLaunchedFromTheDeviceGetCheckedCopies) {
  ParseResult parsed = parse(R"(.version 8.0
.target sm_90
.address_size 64
.extern .func (.param .b64 func_retval0) __cudaCDP2GetParameterBufferV2
(
.param .b64 __cudaCDP2GetParameterBufferV2_param_0,
.param .align 4 .b8 __cudaCDP2GetParameterBufferV2_param_1[12],
.param .align 4 .b8 __cudaCDP2GetParameterBufferV2_param_2[12],
.param .b32 __cudaCDP2GetParameterBufferV2_param_3
)
;
.extern .func (.param .b32 func_retval0) __cudaCDP2LaunchDeviceV2
(
.param .b64 __cudaCDP2LaunchDeviceV2_param_0,
.param .b64 __cudaCDP2LaunchDeviceV2_param_1
)
;
.visible .entry child(.param .u64 child_param_0, .param .u32 child_param_1)
{
.reg .b64 %rd<2>;
ld.param.u64 %rd1, [child_param_0];
st.global.u32 [%rd1], 1;
ret;
}
.visible .entry parent(.param .u64 parent_param_0, .param .u32 parent_param_1)
{
.reg .pred %p<2>;
.reg .b32 %r<4>;
.reg .b64 %rd<5>;
ld.param.u64 %rd1, [parent_param_0];
ld.param.u32 %r1, [parent_param_1];
mov.u64 %rd2, child;
{
.reg .b32 temp_param_reg;
.param .b64 param0;
st.param.b64 [param0+0], %rd2;
.param .align 4 .b8 param1[12];
st.param.b32 [param1+0], %r1;
st.param.b32 [param1+4], 1;
st.param.b32 [param1+8], 1;
.param .align 4 .b8 param2[12];
st.param.b32 [param2+0], 64;
st.param.b32 [param2+4], 1;
st.param.b32 [param2+8], 1;
.param .b32 param3;
st.param.b32 [param3+0], 0;
.param .b64 retval0;
call.uni (retval0), __cudaCDP2GetParameterBufferV2, (param0, param1, param2, param3);
ld.param.b64 %rd3, [retval0+0];
}
setp.eq.s64 %p1, %rd3, 0;
@%p1 bra $L__BB1_2;
st.u64 [%rd3], %rd1;
st.u32 [%rd3+8], %r1;
{
.reg .b32 temp_param_reg;
.param .b64 param0;
st.param.b64 [param0+0], %rd3;
.param .b64 param1;
st.param.b64 [param1+0], %rd4;
.param .b32 retval0;
call.uni (retval0), __cudaCDP2LaunchDeviceV2, (param0, param1);
ld.param.b32 %r2, [retval0+0];
}
$L__BB1_2:
ret;
}
)");
  ASSERT_TRUE(parsed) << parsed.error.to_string();
  const DeviceLaunchedKernels launched = copy_device_launched_kernels(*parsed.module);
  EXPECT_EQ(launched.kernels, std::vector<std::string>{"child"});
  EXPECT_TRUE(launched.checked);
  EXPECT_EQ(child_token_offsets(*parsed.module).at("__launched_from_device_child"), 16u);
  const InstrumentResult result = instrument_module(*parsed.module, {});
  EXPECT_EQ(result.statistics.device_launches, 1u);
  std::map<std::string, std::string> bodies = instruction_texts(*parsed.module);
  ASSERT_TRUE(bodies.contains("__launched_from_device_child"));
  const std::string& copy = bodies["__launched_from_device_child"];
  EXPECT_NE(copy.find("ld.param.u64 %"), std::string::npos);
  EXPECT_NE(copy.find("__barracuda_child_token"), std::string::npos);
  EXPECT_NE(copy.find("__barracuda_log_child_entry"), std::string::npos);
  EXPECT_EQ(copy.find("__barracuda_log_entry"), std::string::npos);
  EXPECT_NE(copy.find("__barracuda_log_access"), std::string::npos);
  EXPECT_NE(bodies["child"].find("__barracuda_log_entry"), std::string::npos);
  const std::string& parent = bodies["parent"];
  EXPECT_NE(parent.find("mov.u64 %rd2 __launched_from_device_child"), std::string::npos);
  // The arguments written into the runtime's parameter buffer are not the program's memory.
  EXPECT_EQ(parent.find("__barracuda_log_access"), std::string::npos);
  // The token call after the buffer's sequence, the launch's record before the launch's.
  const size_t token = parent.find("__barracuda_claim_child_token");
  const size_t buffer = parent.find("__cudaCDP2GetParameterBufferV2");
  const size_t record = parent.find("__barracuda_log_device_launch");
  const size_t launch = parent.find("__cudaCDP2LaunchDeviceV2");
  ASSERT_NE(token, std::string::npos) << parent;
  ASSERT_NE(record, std::string::npos);
  EXPECT_LT(buffer, token);
  EXPECT_LT(token, record);
  EXPECT_LT(record, launch);
}

// Each global access's site names the kernel parameter its address comes from (nvcc's cvta, mul.wide
// and add.s64 chain, mad.wide), and none where two parameters meet or the pointer was loaded.
TEST(InstrumentPass, AccessSitesNameTheParameterTheirAddressComesFrom) {
  ParseResult parsed = parse(R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry gather(.param .u64 gather_param_0, .param .u64 gather_param_1, .param .u32 gather_param_2)
{
.reg .b32 %r<8>;
.reg .b64 %rd<16>;
ld.param.u64 %rd1, [gather_param_0];
ld.param.u64 %rd2, [gather_param_1];
ld.param.u32 %r1, [gather_param_2];
cvta.to.global.u64 %rd3, %rd1;
cvta.to.global.u64 %rd4, %rd2;
mul.wide.s32 %rd5, %r1, 4;
add.s64 %rd6, %rd3, %rd5;
ld.global.u32 %r2, [%rd6];
mad.wide.s32 %rd7, %r2, 4, %rd4;
st.global.u32 [%rd7], %r2;
add.s64 %rd8, %rd3, %rd4;
ld.global.u32 %r3, [%rd8];
ld.global.u64 %rd9, [%rd3+8];
st.global.u32 [%rd9], %r3;
ret;
}
)");
  ASSERT_TRUE(parsed) << parsed.error.to_string();
  const InstrumentResult result = instrument_module(*parsed.module, {});
  std::map<std::string, int32_t> parameter_of;  // by instruction
  for (const Site& site : result.sites.sites()) {
    if (site.kind == SiteKind::Access) parameter_of[site.instruction] = site.parameter;
  }
  EXPECT_EQ(parameter_of["ld.global.u32 %r2, [%rd6];"], 0);
  EXPECT_EQ(parameter_of["st.global.u32 [%rd7], %r2;"], 1);
  EXPECT_EQ(parameter_of["ld.global.u32 %r3, [%rd8];"], -1) << "two parameters meet";
  EXPECT_EQ(parameter_of["ld.global.u64 %rd9, [%rd3+8];"], 0);
  EXPECT_EQ(parameter_of["st.global.u32 [%rd9], %r3;"], -1) << "a pointer read from memory";
}

TEST(InstrumentPass, GuardedAccessIsLoggedOnlyWhereItsGuardHolds) {
  auto out = instrument("setp.eq.u32 %p1, %r1, 0;\n@%p1 atom.global.exch.b32 %r2, [%rd1], %r3;\nret;");
  size_t atom = line_of(out.lines, "atom.global.exch.b32 %r2, [%rd1], %r3;");
  RuntimeCall call = call_before_line(out.lines, atom);
  EXPECT_EQ(call.callee, "__barracuda_log_access");
  size_t skip = line_of(out.lines, "@!%p1 bra $L__bc0;");
  EXPECT_LT(skip, call.line);
  EXPECT_EQ(out.lines[atom + 1], "$L__bc0:");
}

TEST(InstrumentPass, BarriersAndWarpSyncsAreLoggedBeforeTheyExecuteFencesAfter) {
  auto out = instrument(
      "bar.sync 1, 64;\nbarrier.sync 0;\nbar.arrive 2, 96;\nmembar.cta;\nfence.sc.sys;\nfence.proxy.async;\n"
      "bar.warp.sync %r1;\nret;");
  auto sync_arguments = [&](std::string_view instruction) { return call_before(out, instruction).arguments; };
  EXPECT_EQ(sync_arguments("bar.sync 1, 64;")[1], std::to_string(static_cast<int>(RecordOp::kBarrier)));
  EXPECT_EQ(sync_arguments("bar.sync 1, 64;")[3], "1");
  EXPECT_EQ(sync_arguments("bar.sync 1, 64;")[4], "64");
  EXPECT_EQ(sync_arguments("barrier.sync 0;")[4], "0");
  EXPECT_EQ(sync_arguments("bar.arrive 2, 96;")[1], std::to_string(static_cast<int>(RecordOp::kBarrierArrive)));
  auto fence_arguments = [&](std::string_view instruction) { return call_after(out, instruction).arguments; };
  EXPECT_EQ(fence_arguments("membar.cta;")[2],
            std::to_string(pack_space_sem(MemorySpace::kGlobal, RecordSemantics::kLegacy, MemoryScope::kCta)));
  EXPECT_EQ(fence_arguments("fence.sc.sys;")[2],
            std::to_string(pack_space_sem(MemorySpace::kGlobal, RecordSemantics::kSeqCst, MemoryScope::kSystem)));
  EXPECT_EQ(sync_arguments("bar.warp.sync %r1;")[1], std::to_string(static_cast<int>(RecordOp::kWarpSync)));
  EXPECT_EQ(out.result.statistics.synchronizations, 6u);  // not the proxy fence
}

// A fence's sync ticket goes to the bucket of its thread's last read (record_view.h): every logged
// read moves the function's last-read register (0 for shared memory), zeroed at the function's start,
// and the fence's call passes it as its payload. Stores leave it alone.
TEST(InstrumentPass, FencePassesItsThreadsLastRead) {
  auto out = instrument(
      "ld.volatile.global.u32 %r1, [%rd1+8];\n"
      "st.global.u32 [%rd2], %r1;\n"
      "membar.gl;\n"
      "atom.global.cas.b32 %r2, [%rd3], 0, 1;\n"
      "ld.shared.u32 %r3, [%r4];\n"
      "fence.acq_rel.gpu;\n"
      "ret;");
  const RuntimeCall first_fence = call_after(out, "membar.gl;");
  const std::string last_read = first_fence.arguments[3];
  ASSERT_EQ(last_read.rfind("%", 0), 0u) << "the payload is a register: " << last_read;
  const auto moves = [&](size_t from, size_t to) {
    std::vector<std::string> values;
    const std::string prefix = "mov.b64 " + last_read + ", ";
    for (size_t i = from; i < to; ++i) {
      if (out.lines[i].rfind(prefix, 0) == 0) values.push_back(out.lines[i].substr(prefix.size()));
    }
    return values;
  };
  const size_t load = line_of(out.lines, "ld.volatile.global.u32 %r1, [%rd1+8];");
  const RuntimeCall read = call_before(out, "ld.volatile.global.u32 %r1, [%rd1+8];");
  EXPECT_EQ(moves(0, read.line), (std::vector<std::string>{"0;", read.arguments[0] + ";"}))
      << "zeroed at the start, then the read's address";
  EXPECT_TRUE(moves(load, first_fence.line).empty()) << "the store does not move it";
  const RuntimeCall second_fence = call_after(out, "fence.acq_rel.gpu;");
  EXPECT_EQ(second_fence.arguments[3], last_read);
  const RuntimeCall cas = call_before(out, "atom.global.cas.b32 %r2, [%rd3], 0, 1;");
  EXPECT_EQ(moves(first_fence.line, second_fence.line), (std::vector<std::string>{"%rd3;", "0;"}))
      << "the CAS's address, then 0 for the shared read";
  EXPECT_EQ(cas.arguments[0], "%rd3");
}

// Sync tickets are causal only if acquire reads are logged after they read and releases before they
// write (barracuda/record_view.h, SyncRole).
TEST(InstrumentPass, AcquireReadsAreLoggedAfterReadingReleasesBefore) {
  auto out = instrument(
      "ld.acquire.gpu.global.u64 %rd1, [%rd1];\n"
      "st.release.gpu.global.u32 [%rd2], %r1;\n"
      "atom.acq_rel.gpu.global.add.u32 %r2, [%rd3+8], 1;\n"
      "atom.global.exch.b32 %r3, [%rd4], %r4;\n"
      "ld.relaxed.gpu.global.u32 %r5, [%rd5];\n"
      "ret;");
  const size_t load = line_of(out.lines, "ld.acquire.gpu.global.u64 %rd1, [%rd1];");
  RuntimeCall acquire = call_after(out, "ld.acquire.gpu.global.u64 %rd1, [%rd1];");
  EXPECT_EQ(acquire.callee, "__barracuda_log_access");
  EXPECT_GT(acquire.line, load);
  // The load overwrites its address register: the call gets the copy made before it.
  EXPECT_NE(acquire.arguments[0], "%rd1");
  EXPECT_EQ(out.lines[load - 1], "mov.b64 " + acquire.arguments[0] + ", %rd1;");
  const size_t store = line_of(out.lines, "st.release.gpu.global.u32 [%rd2], %r1;");
  EXPECT_LT(acquire.line, store);
  EXPECT_EQ(call_before(out, "st.release.gpu.global.u32 [%rd2], %r1;").arguments[0], "%rd2");
  const size_t rmw = line_of(out.lines, "atom.acq_rel.gpu.global.add.u32 %r2, [%rd3+8], 1;");
  RuntimeCall acq_rel = call_after(out, "atom.acq_rel.gpu.global.add.u32 %r2, [%rd3+8], 1;");
  EXPECT_GT(acq_rel.line, rmw);
  EXPECT_EQ(acq_rel.arguments[2],
            info(RecordOp::kAtomic, MemorySpace::kGlobal, RecordSemantics::kAcqRel, MemoryScope::kGpu, 2));
  // Legacy atomics and relaxed reads keep the log-before placement.
  const size_t exch = line_of(out.lines, "atom.global.exch.b32 %r3, [%rd4], %r4;");
  EXPECT_LT(acq_rel.line, exch);
  EXPECT_EQ(call_before(out, "atom.global.exch.b32 %r3, [%rd4], %r4;").arguments[0], "%rd4");
  EXPECT_GT(call_before(out, "atom.global.exch.b32 %r3, [%rd4], %r4;").line, rmw);
  EXPECT_EQ(call_before(out, "ld.relaxed.gpu.global.u32 %r5, [%rd5];").arguments[0], "%rd5");
  EXPECT_GT(call_before(out, "ld.relaxed.gpu.global.u32 %r5, [%rd5];").line, exch);
}

TEST(InstrumentPass, GuardedAcquireIsLoggedAfterItUnderItsGuard) {
  auto out = instrument("setp.eq.u32 %p1, %r1, 0;\n@%p1 ld.acquire.gpu.global.u32 %r2, [%rd1];\nret;");
  const size_t load = line_of(out.lines, "ld.acquire.gpu.global.u32 %r2, [%rd1];");
  RuntimeCall call = call_after(out, "ld.acquire.gpu.global.u32 %r2, [%rd1];");
  EXPECT_EQ(call.callee, "__barracuda_log_access");
  const size_t label = line_of(out.lines, "$L__bc0:");
  EXPECT_LT(load, call.line);
  EXPECT_LT(call.line, label);
  EXPECT_LT(line_of(out.lines, "@!%p1 bra $L__bc0;"), load);
}

TEST(InstrumentPass, FenceIsLoggedBetweenItAndTheFollowingFlagWrite) {
  auto out = instrument("st.global.u32 [%rd1], %r1;\nmembar.gl;\nst.volatile.global.u32 [%rd2], %r2;\nret;");
  const size_t fence = line_of(out.lines, "membar.gl;");
  RuntimeCall fence_call = call_after(out, "membar.gl;");
  EXPECT_EQ(fence_call.callee, "__barracuda_log_sync");
  RuntimeCall flag_call = call_before(out, "st.volatile.global.u32 [%rd2], %r2;");
  EXPECT_EQ(flag_call.callee, "__barracuda_log_access");
  EXPECT_LT(fence, fence_call.line);
  EXPECT_LT(fence_call.line, flag_call.line);
}

TEST(InstrumentPass, ClusterBarrierHalvesAreTold) {
  auto out = instrument(
      "barrier.cluster.arrive;\nbarrier.cluster.arrive.relaxed;\nbarrier.cluster.wait;\nret;");
  auto payload = [&](std::string_view instruction) { return call_before(out, instruction).arguments[3]; };
  EXPECT_EQ(call_before(out, "barrier.cluster.arrive;").arguments[1],
            std::to_string(static_cast<int>(RecordOp::kClusterBarrier)));
  EXPECT_EQ(payload("barrier.cluster.arrive;"), "0");
  EXPECT_EQ(payload("barrier.cluster.arrive.relaxed;"), std::to_string(kClusterBarrierRelaxed));
  EXPECT_EQ(payload("barrier.cluster.wait;"), std::to_string(kClusterBarrierWait));
}

TEST(InstrumentPass, MbarrierArrivalsBeforeAndSuccessfulWaitsAfter) {
  auto out = instrument(
      "mbarrier.arrive.shared::cta.b64 %rd1, [%r1], %r2;\n"
      "mbarrier.try_wait.shared.b64 %p1, [%r1], %rd1;\n"
      "ret;");
  RuntimeCall arrive = call_before(out, "mbarrier.arrive.shared::cta.b64 %rd1, [%r1], %r2;");
  EXPECT_EQ(arrive.callee, "__barracuda_log_sync");
  EXPECT_EQ(arrive.arguments[1], std::to_string(static_cast<int>(RecordOp::kMbarrierArrive)));
  const size_t wait = line_of(out.lines, "mbarrier.try_wait.shared.b64 %p1, [%r1], %rd1;");
  ASSERT_LT(wait + 1, out.lines.size());
  EXPECT_EQ(out.lines[wait + 1].rfind("@!%p1 bra ", 0), 0u) << out.lines[wait + 1];
  const std::string skip = out.lines[wait + 1].substr(std::string("@!%p1 bra ").size());
  const size_t label = line_of(out.lines, skip.substr(0, skip.size() - 1) + ":");  // without the ';'
  RuntimeCall logged_wait = call_before_line(out.lines, label);
  EXPECT_GT(logged_wait.line, wait);
  EXPECT_EQ(logged_wait.arguments[1], std::to_string(static_cast<int>(RecordOp::kMbarrierWait)));
  EXPECT_EQ(logged_wait.arguments[3], arrive.arguments[3]) << "both name the mbarrier the same way";
}

TEST(InstrumentPass, BulkCopyIsLoggedChunkByChunkThenReleasedToItsMbarrier) {
  auto out = instrument(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd2], %r4, [%r1];\nret;");
  const size_t copy =
      line_of(out.lines, "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd2], %r4, [%r1];");
  RuntimeCall release = call_before_line(out.lines, copy);
  EXPECT_EQ(release.arguments[1], std::to_string(static_cast<int>(RecordOp::kMbarrierArrive)));
  std::vector<std::string> infos;
  for (size_t i = 0; i < copy; ++i) {
    if (out.lines[i] == "call __barracuda_log_access, (__bc_arg0, __bc_arg1, __bc_arg2, __bc_arg3);") {
      infos.push_back(call_before_line(out.lines, i).arguments[2]);
    }
  }
  EXPECT_EQ(infos, (std::vector<std::string>{info(RecordOp::kLoad, MemorySpace::kGlobal, RecordSemantics::kWeak,
                                                  MemoryScope::kCta, 4),
                                             info(RecordOp::kAsyncCopy, MemorySpace::kShared, RecordSemantics::kWeak,
                                                  MemoryScope::kCta, 4)}));
  EXPECT_EQ(out.result.statistics.memory_accesses, 1u);
}

TEST(InstrumentPass, BranchLogsTakenLanesAndItsJoinLogsReconvergence) {
  auto out = instrument(
      "setp.ne.u32 %p1, %r1, 0;\n@!%p1 bra $L_else;\nst.global.u32 [%rd1], 1;\nbra.uni $L_join;\n$L_else:\n"
      "st.global.u32 [%rd1], 2;\n$L_join:\nret;");
  RuntimeCall branch = call_before(out, "@!%p1 bra $L_else;");
  EXPECT_EQ(branch.callee, "__barracuda_log_branch");
  // Taken lanes are those where the negated guard holds.
  EXPECT_NE(std::find(out.lines.begin(), out.lines.end(), "selp.b32 " + branch.arguments[1] + ", 0, 1, %p1;"),
            out.lines.end());
  size_t join = line_of(out.lines, "$L_join:");
  // Right after the join label: `{`, `.param`, `st.param`, then the call.
  EXPECT_EQ(out.lines.at(join + 4), "call __barracuda_log_reconverge, (__bc_arg0);");
  EXPECT_EQ(out.result.statistics.branches, 1u);  // bra.uni is uniform
  EXPECT_EQ(out.result.statistics.reconvergences, 1u);

  auto without = instrument("@%p1 bra $L_x;\nst.global.u32 [%rd1], 1;\n$L_x:\nret;", {0, false});
  EXPECT_EQ(without.result.statistics.branches, 0u);
}

TEST(InstrumentPass, KernelEntryPrecedesEverythingAndEveryExitIsLogged) {
  auto out = instrument("$L_top:\nst.shared.u32 [smem], 1;\n@%p1 bra $L_top;\n@%p2 ret;\nret;", {100, true});
  size_t top = line_of(out.lines, "$L_top:");
  // The kernel synchronises only with block barriers: after its entry record its warps take their
  // block's shadow slot (device shared-memory checking), and give it back before each exit record.
  EXPECT_EQ(out.lines.at(top - 2), "call __barracuda_shared_check_begin;");
  RuntimeCall entry = call_before_line(out.lines, top - 3);
  EXPECT_EQ(entry.callee, "__barracuda_log_entry");
  EXPECT_EQ(out.result.sites.sites().front().id, 100u);
  EXPECT_EQ(entry.arguments[0], "100");
  EXPECT_EQ(out.result.statistics.kernel_exits, 2u);
  size_t exits = 0;
  size_t slot_releases = 0;
  for (const std::string& line : out.lines) {
    exits += line == "call __barracuda_log_exit, (__bc_arg0);";
    slot_releases += line == "call __barracuda_shared_check_end;";
  }
  EXPECT_EQ(exits, 2u);
  EXPECT_EQ(slot_releases, 2u);
}

TEST(InstrumentPass, RuntimeDeclarationsAreAddedOnce) {
  ParseResult parsed = parse(kernel("ret;"));
  ASSERT_TRUE(parsed);
  instrument_module(*parsed.module, {});
  size_t functions = parsed.module->functions().size();
  instrument_module(*parsed.module, {});
  EXPECT_EQ(parsed.module->functions().size(), functions);
  ASSERT_NE(parsed.module->find_function("__barracuda_log_access"), nullptr);
  EXPECT_EQ(parsed.module->find_function("__barracuda_log_access")->parameters.size(), 4u);
}

TEST(InstrumentPass, MergedRuntimeReplacesThePrototypesAndCompilesAsOneModule) {
  ParseResult parsed = parse(kernel("st.global.u32 [%rd1], %r1;\nret;"));
  ASSERT_TRUE(parsed);
  instrument_module(*parsed.module, {});
  ParseResult runtime = parse(std::string(device_runtime_ptx()));
  ASSERT_TRUE(runtime) << runtime.error.to_string();
  merge_device_runtime(*parsed.module, *runtime.module);
  const Function* log_access = parsed.module->find_function("__barracuda_log_access");
  ASSERT_NE(log_access, nullptr);
  EXPECT_TRUE(log_access->is_definition);
  for (const Function* function : parsed.module->functions()) {
    EXPECT_FALSE(function->name.starts_with("__barracuda_") && !function->is_definition) << function->name;
  }
  std::string text = to_string(*parsed.module);
  EXPECT_NE(text.find(".version 9.0"), std::string::npos);  // raised from the kernel's 8.0
  EXPECT_FALSE(runtime::link_to_cubin({{{"merged", text}}, "sm_90", {}}).cubin.empty());
}

}  // namespace
}  // namespace barracuda::ptx::passes
