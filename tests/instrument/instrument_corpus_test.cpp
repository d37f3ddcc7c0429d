// Every module of the PTX corpus (tests/ptx, compiled by nvcc at build time) is instrumented, merged
// with the device runtime, printed, re-parsed, and compiled by nvJitLink for its own target.
#include <gtest/gtest.h>

#include <optional>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "device/runtime_ptx.h"
#include "ptx/parser.h"
#include "ptx/passes/instrument.h"
#include "ptx/passes/runtime_merge.h"
#include "ptx/printer.h"
#include "runtime/jit_link.h"

namespace barracuda::ptx::passes {
namespace {

std::vector<std::filesystem::path> corpus_modules() {
  std::vector<std::filesystem::path> modules;
  for (const auto& entry : std::filesystem::directory_iterator(BARRACUDA_PTX_CORPUS_DIR)) {
    if (entry.path().extension() == ".ptx") modules.push_back(entry.path());
  }
  std::sort(modules.begin(), modules.end());
  return modules;
}

std::string target_of(const Module& module) {
  for (const ModuleItem& item : module.items) {
    if (const auto* target = std::get_if<TargetDirective>(&item); target && !target->targets.empty()) {
      return std::string(target->targets.front());
    }
  }
  return "sm_90";
}

class InstrumentCorpus : public ::testing::TestWithParam<std::filesystem::path> {};

struct Linked {
  InstrumentResult result;
  std::string text;  // the instrumented module with the runtime merged in
  runtime::LinkedCubin cubin;
};

// The corpus module `path` instrumented with `options`, merged with the device runtime and linked
// (nullopt where it does not parse).
std::optional<Linked> instrument_and_link(const std::filesystem::path& path, const InstrumentOptions& options) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  ParseResult parsed = parse(text.str());
  EXPECT_TRUE(parsed) << parsed.error.to_string();
  if (!parsed) return std::nullopt;
  Linked linked{instrument_module(*parsed.module, options), {}, {}};
  static const ParseResult runtime = parse(std::string(device_runtime_ptx()));
  EXPECT_TRUE(runtime) << runtime.error.to_string();
  merge_device_runtime(*parsed.module, *runtime.module);
  linked.text = to_string(*parsed.module);
  EXPECT_NO_THROW(linked.cubin = runtime::link_to_cubin({{{path.filename().string(), linked.text}}, target_of(*parsed.module), {}}));
  return linked;
}

TEST_P(InstrumentCorpus, InstrumentedModuleLinksWithTheDeviceRuntime) {
  const std::optional<Linked> instrumented = instrument_and_link(GetParam(), {});
  ASSERT_TRUE(instrumented);
  const Linked& linked = *instrumented;
  const InstrumentResult& result = linked.result;
  const InstrumentStatistics& statistics = result.statistics;
  ParseResult reparsed = parse(linked.text);
  ASSERT_TRUE(reparsed) << "instrumented PTX does not parse: " << reparsed.error.to_string();
  EXPECT_FALSE(linked.cubin.cubin.empty());

  EXPECT_GT(statistics.memory_accesses, 0u);
  EXPECT_EQ(result.sites.sites().size(), statistics.memory_accesses + statistics.synchronizations +
                                             statistics.branches + statistics.reconvergences +
                                             statistics.kernel_exits + statistics.kernels);
  // Recorded in the test log: the figures docs/device.md quotes.
  std::cout << GetParam().filename().string() << ": " << statistics.kernels << " kernels, " << statistics.instructions
            << " instructions, " << statistics.memory_accesses << " accesses, " << statistics.synchronizations
            << " syncs, " << statistics.branches << " branches, " << statistics.skipped_memory
            << " local/param/const accesses skipped, instrumented fraction " << statistics.instrumented_fraction()
            << (linked.cubin.register_cap ? ", linked with -maxrregcount=" + std::to_string(linked.cubin.register_cap) : "")
            << '\n';
}

// Option filter_repeated_reads, as a run under independent thread scheduling instruments (no branch
// records): every module still links.
TEST_P(InstrumentCorpus, WithTheRepeatedReadFilterLinksWithTheDeviceRuntime) {
  const std::optional<Linked> linked =
      instrument_and_link(GetParam(), {.log_branches = false, .filter_repeated_reads = true});
  ASSERT_TRUE(linked);
  EXPECT_FALSE(linked->cubin.cubin.empty());
  std::cout << GetParam().filename().string() << ": " << linked->result.statistics.filtered_loads << " of "
            << linked->result.statistics.memory_accesses << " logged accesses are loads the filter may skip\n";
}

INSTANTIATE_TEST_SUITE_P(Corpus, InstrumentCorpus, ::testing::ValuesIn(corpus_modules()),
                         [](const auto& test_info) {
                           std::string name = test_info.param.stem().string();
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace barracuda::ptx::passes
