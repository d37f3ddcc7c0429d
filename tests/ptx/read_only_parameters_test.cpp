// Which kernel parameters a kernel only reads through (read_only_parameters.h), and the loads the
// instrumentation then marks kAccessReadOnlyParameter.
#include "ptx/passes/read_only_parameters.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "barracuda/queue.h"
#include "ptx/parser.h"
#include "ptx/passes/address_parameters.h"
#include "ptx/passes/instrument.h"
#include "ptx/printer.h"

namespace barracuda::ptx::passes {
namespace {

// A kernel of three pointer parameters a, b, c (indices 0, 1, 2), each loaded into %rd1..%rd3 and
// converted to a global address in %rd4..%rd6, then `body`.
std::string kernel(std::string_view body, std::string_view more = "") {
  return std::string(".version 8.0\n.target sm_90\n.address_size 64\n") + std::string(more) +
         ".visible .entry k(.param .u64 a, .param .u64 b, .param .u64 c)\n{\n"
         ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .f32 %f<8>;\n.reg .b64 %rd<16>;\n"
         "ld.param.u64 %rd1, [a];\nld.param.u64 %rd2, [b];\nld.param.u64 %rd3, [c];\n"
         "cvta.to.global.u64 %rd4, %rd1;\ncvta.to.global.u64 %rd5, %rd2;\ncvta.to.global.u64 %rd6, %rd3;\n"
         "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd7, %r1, 4;\n" +
         std::string(body) + "\nret;\n}\n";
}

std::set<uint32_t> read_only(const std::string& text) {
  ParseResult parsed = parse(text);
  EXPECT_TRUE(parsed) << parsed.error.to_string();
  const Function& k = *parsed.module->find_function("k");
  const auto found = read_only_parameters(k, address_parameters(k));
  return {found.begin(), found.end()};
}

// c[i] = a[i] + b[i], as nvcc writes it.
constexpr std::string_view kAddVectors =
    "add.s64 %rd8, %rd4, %rd7;\nld.global.f32 %f1, [%rd8];\n"
    "add.s64 %rd9, %rd5, %rd7;\nld.global.f32 %f2, [%rd9];\nadd.f32 %f3, %f1, %f2;\n"
    "add.s64 %rd10, %rd6, %rd7;\nst.global.f32 [%rd10], %f3;";

TEST(ReadOnlyParameters, ThoseOnlyLoadedThrough) { EXPECT_EQ(read_only(kernel(kAddVectors)), (std::set<uint32_t>{0, 1})); }

TEST(ReadOnlyParameters, AParameterAlsoWrittenThroughIsNot) {
  // a[i] += b[i]; the generic store counts like a global one.
  EXPECT_EQ(read_only(kernel("add.s64 %rd8, %rd4, %rd7;\nld.global.f32 %f1, [%rd8];\n"
                             "add.s64 %rd9, %rd5, %rd7;\nld.global.f32 %f2, [%rd9];\nadd.f32 %f3, %f1, %f2;\n"
                             "add.s64 %rd10, %rd1, %rd7;\nst.f32 [%rd10], %f3;")),
            (std::set<uint32_t>{1}));
  // An atomic through b.
  EXPECT_EQ(read_only(kernel(std::string(kAddVectors) + "\natom.global.add.u32 %r2, [%rd5], 1;")),
            (std::set<uint32_t>{0}));
}

TEST(ReadOnlyParameters, NoneWhereAWriteLandsNobodyKnowsWhere) {
  // A store through a pointer loaded from memory (an array of pointers).
  EXPECT_TRUE(read_only(kernel(std::string(kAddVectors) + "\nld.global.u64 %rd11, [%rd4];\nst.global.u32 [%rd11], 1;"))
                  .empty());
  // Two parameters meeting in one register.
  EXPECT_TRUE(read_only(kernel(std::string(kAddVectors) + "\nadd.s64 %rd12, %rd4, %rd5;\nst.global.u32 [%rd12], 1;"))
                  .empty());
}

TEST(ReadOnlyParameters, NoneWhereSomethingElseMayWriteGlobalMemory) {
  const std::string callee = ".func f(.param .b64 p)\n{\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\nst.global.u32 [%rd1], 1;\nret;\n}\n";
  EXPECT_TRUE(read_only(kernel(std::string(kAddVectors) + "\n{\n.param .b64 arg0;\nst.param.b64 [arg0], %rd4;\ncall.uni f, (arg0);\n}",
                               callee))
                  .empty());
  EXPECT_TRUE(read_only(kernel(std::string(kAddVectors) + "\nsust.b.1d.b32.trap [%rd1, {%r1}], {%r1};")).empty());
  EXPECT_TRUE(read_only(kernel(std::string(kAddVectors) + "\nmultimem.st.global.u32 [%rd6], %r1;")).empty());
}

TEST(ReadOnlyParameters, TheInstrumentationMarksTheirLoadsUnlessReadOnlyLoadsAreLogged) {
  for (const bool log_read_only : {false, true}) {
    ParseResult parsed = parse(kernel(kAddVectors));
    ASSERT_TRUE(parsed);
    const InstrumentResult result = instrument_module(*parsed.module, {.first_site_id = 0, .log_branches = true, .log_read_only = log_read_only});
    EXPECT_EQ(result.statistics.read_only_parameter_loads, log_read_only ? 0u : 2u);
    const std::string text = to_string(*parsed.module);
    int marked = 0, logged = 0;
    // st.param.b32 [__bc_arg2], <info>; precedes each log_access call: its third argument.
    for (size_t at = text.find("[__bc_arg2], "); at != std::string::npos; at = text.find("[__bc_arg2], ", at + 1)) {
      const uint32_t info = static_cast<uint32_t>(std::stoul(text.substr(at + 13)));
      if (access_info_op(info) != RecordOp::kLoad && access_info_op(info) != RecordOp::kStore) continue;
      ++logged;
      marked += (info & kAccessReadOnlyParameter) != 0;
      if (access_info_op(info) == RecordOp::kStore) {
        EXPECT_EQ(info & kAccessReadOnlyParameter, 0u);
      }
    }
    EXPECT_EQ(logged, 3);
    EXPECT_EQ(marked, log_read_only ? 0 : 2);
  }
}

}  // namespace
}  // namespace barracuda::ptx::passes
