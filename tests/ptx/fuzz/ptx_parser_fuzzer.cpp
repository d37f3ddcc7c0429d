// libFuzzer target: any input either fails to parse with an error or parses to a module whose
// printed form parses again and prints identically; CFG and dominator construction must hold up
// on whatever control flow the module has.
#include <cstdint>
#include <string>

#include "ptx/cfg.h"
#include "ptx/dominators.h"
#include "ptx/parser.h"
#include "ptx/printer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace barracuda::ptx;
  ParseResult parsed = parse(std::string(reinterpret_cast<const char*>(data), size));
  if (!parsed) {
    if (parsed.error.position.line == 0 || parsed.error.message.empty()) __builtin_trap();
    return 0;
  }
  std::string printed = to_string(*parsed.module);
  ParseResult reparsed = parse(printed);
  if (!reparsed || to_string(*reparsed.module) != printed) __builtin_trap();
  for (Function* function : parsed.module->definitions()) {
    ControlFlowGraph cfg(*function);
    DominatorTree dominators(cfg);
    PostDominatorTree post_dominators(cfg);
    for (const BasicBlock& block : cfg.blocks()) {
      if (auto idom = dominators.immediate_dominator(block.id); idom && !dominators.dominates(*idom, block.id))
        __builtin_trap();
      if (auto ipdom = post_dominators.immediate_post_dominator(block.id);
          ipdom && !post_dominators.post_dominates(*ipdom, block.id))
        __builtin_trap();
    }
  }
  return 0;
}
