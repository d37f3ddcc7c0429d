#include "ptx/passes/spin_reads.h"

#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ptx/cfg.h"
#include "ptx/dominators.h"

namespace barracuda::ptx::passes {
namespace {

bool is_volatile_load(const Instruction& instruction) {
  if (instruction.opcode != Opcode::Ld || instruction.semantics != SemanticsQualifier::Volatile) return false;
  switch (instruction.space) {
    case StateSpace::Global:
    case StateSpace::Generic:
    case StateSpace::Shared:
    case StateSpace::SharedCluster: return true;
    default: return false;
  }
}

// Whether operand 0 is written. Opcodes whose first operand is read (or that write no register) say no;
// for the rest a register, vector or register pair in operand 0 is the destination. bar.red/barrier.red
// write their first operand, other barriers do not.
bool writes_first_operand(const Instruction& instruction) {
  switch (instruction.opcode) {
    case Opcode::St:
    case Opcode::StAsync:
    case Opcode::Red:
    case Opcode::RedAsync:
    case Opcode::Bra:
    case Opcode::Brx:
    case Opcode::Call:
    case Opcode::Ret:
    case Opcode::Exit:
    case Opcode::Trap:
    case Opcode::Brkpt:
    case Opcode::Nanosleep:
    case Opcode::Pmevent:
    case Opcode::Prefetch:
    case Opcode::Prefetchu:
    case Opcode::Membar:
    case Opcode::Fence:
    case Opcode::Griddepcontrol:
    case Opcode::Setmaxnreg:
    case Opcode::Discard:
    case Opcode::Applypriority:
    case Opcode::Stmatrix:
    case Opcode::Sust:
    case Opcode::Sured: return false;
    case Opcode::Bar:
    case Opcode::Barrier: return instruction.has_modifier("red");
    default: return true;
  }
}

// Registers (and, harmlessly, symbols) an operand names, nested ones included.
void names_of(const Operand& operand, std::vector<std::string_view>& out) {
  switch (operand.kind) {
    case OperandKind::Register: out.push_back(operand.text); break;
    case OperandKind::Address:
      if (!operand.text.empty()) out.push_back(operand.text);
      [[fallthrough]];
    case OperandKind::Vector:
    case OperandKind::RegisterPair:
    case OperandKind::ParameterList:
      for (const Operand& element : operand.elements) names_of(element, out);
      break;
    default: break;
  }
}

// The last instruction of a block, if any.
const Instruction* last_instruction(const BasicBlock& block) {
  const Instruction* last = nullptr;
  for (StatementIterator it = block.first; it != block.last; ++it) {
    if (const auto* instruction = std::get_if<Instruction>(&*it)) last = instruction;
  }
  return last;
}

class Analysis {
 public:
  explicit Analysis(Function& function) : cfg_(function), dominators_(cfg_) {
    // Every instruction's registers, interned; the volatile loads and their blocks.
    infos_.resize(cfg_.size());
    for (const BasicBlock& block : cfg_.blocks()) {
      for (StatementIterator it = block.first; it != block.last; ++it) {
        const auto* instruction = std::get_if<Instruction>(&*it);
        if (!instruction) continue;
        Info info;
        std::vector<std::string_view> names;
        const bool writes = writes_first_operand(*instruction);
        for (size_t i = 0; i < instruction->operands.size(); ++i) {
          names.clear();
          names_of(instruction->operands[i], names);
          const bool destination = writes && i == 0 && instruction->operands[0].kind != OperandKind::Address;
          for (std::string_view name : names) (destination ? info.destinations : info.sources).push_back(id(name));
        }
        if (instruction->guard.present()) info.sources.push_back(id(instruction->guard.predicate));
        info.statement = &*it;
        if (is_volatile_load(*instruction)) {
          loads_.push_back({&*it, instruction, block.id, infos_[index(block.id)].size(), info.destinations});
        }
        infos_[index(block.id)].push_back(std::move(info));
      }
    }
  }

  std::unordered_set<const Statement*> spin_reads() {
    std::unordered_set<const Statement*> spins;
    if (loads_.empty()) return spins;
    find_loops();
    for (const Load& load : loads_) {
      for (const Loop& loop : loops_) {
        if (loop.contains[index(load.block)] && decides(load, loop)) {
          spins.insert(load.statement);
          break;
        }
      }
    }
    // A rotated loop's guard: `while (*flag == 0) { ... }` compiles to a first test before the loop and
    // the loop's own test at its bottom. The first load decides whether the spin loop is entered.
    for (const Load& load : loads_) {
      if (!spins.contains(load.statement) && guards_spin(load, spins)) spins.insert(load.statement);
    }
    return spins;
  }

 private:
  struct Info {
    const Statement* statement = nullptr;
    std::vector<uint32_t> sources, destinations;
  };
  struct Load {
    const Statement* statement;
    const Instruction* instruction;
    BlockId block;
    size_t position;  // in infos_ of its block
    std::vector<uint32_t> destinations;
  };
  struct Loop {
    BlockId header;
    std::vector<bool> contains;   // by block index
    std::vector<BlockId> blocks;  // the same, listed
  };

  uint32_t id(std::string_view name) {
    auto [it, inserted] = ids_.try_emplace(name, static_cast<uint32_t>(ids_.size()));
    return it->second;
  }

  void find_loops() {
    std::unordered_map<uint32_t, size_t> loop_of_header;
    for (const BasicBlock& block : cfg_.blocks()) {
      for (BlockId header : block.successors) {
        if (!dominators_.dominates(header, block.id)) continue;
        auto [it, inserted] = loop_of_header.try_emplace(index(header), loops_.size());
        if (inserted) {
          loops_.push_back({header, std::vector<bool>(cfg_.size(), false), {}});
          add(loops_.back(), header);
        }
        // The natural loop: the header and every block that reaches the back edge's source without it.
        Loop& loop = loops_[it->second];
        std::vector<BlockId> work;
        if (!loop.contains[index(block.id)]) {
          add(loop, block.id);
          work.push_back(block.id);
        }
        while (!work.empty()) {
          const BlockId b = work.back();
          work.pop_back();
          for (BlockId p : cfg_.block(b).predecessors) {
            if (loop.contains[index(p)]) continue;
            add(loop, p);
            work.push_back(p);
          }
        }
      }
    }
  }
  static void add(Loop& loop, BlockId block) {
    loop.contains[index(block)] = true;
    loop.blocks.push_back(block);
  }

  // Whether the load's value reaches the predicate of a branch that decides whether `loop` goes on.
  bool decides(const Load& load, const Loop& loop) const {
    std::vector<bool> tainted(ids_.size(), false);
    for (uint32_t r : load.destinations) tainted[r] = true;
    // Flow-insensitive fixed point over the loop's instructions; each round taints at least one more
    // register, so it ends, and loops are small.
    for (bool changed = true; changed;) {
      changed = false;
      for (BlockId b : loop.blocks) {
        for (const Info& info : infos_[index(b)]) {
          bool from_taint = false;
          for (uint32_t r : info.sources) from_taint = from_taint || tainted[r];
          if (!from_taint) continue;
          for (uint32_t r : info.destinations) {
            if (!tainted[r]) tainted[r] = changed = true;
          }
        }
      }
    }
    for (BlockId b : loop.blocks) {
      const BasicBlock& block = cfg_.block(b);
      const Instruction* last = last_instruction(block);
      if (!last) continue;
      bool decision = false;
      switch (last->opcode) {
        case Opcode::Bra:
        case Opcode::Ret:
        case Opcode::Exit: decision = last->guard.present() && tainted[ids_.at(last->guard.predicate)]; break;
        case Opcode::Brx:
          decision = !infos_[index(b)].empty() && !infos_[index(b)].back().sources.empty() &&
                     tainted[infos_[index(b)].back().sources.front()];
          break;
        default: break;
      }
      if (!decision) continue;
      if (block.exits_function) return true;
      for (BlockId s : block.successors) {
        if (s == loop.header || !loop.contains[index(s)]) return true;
      }
    }
    return false;
  }

  static bool same_address(const Instruction& a, const Instruction& b) {
    return a.operands.size() > 1 && b.operands.size() > 1 && a.operands[1].is_address() &&
           a.operands[1] == b.operands[1] && a.space == b.space;
  }

  // Whether `load`, outside the loops it may guard, decides with the branch that ends its block whether
  // a loop is entered (one successor leads, through blocks of a single successor, to the loop's header;
  // another lies outside the loop) whose spin reads include one of the same address.
  bool guards_spin(const Load& load, const std::unordered_set<const Statement*>& spins) const {
    const BasicBlock& block = cfg_.block(load.block);
    const Instruction* last = last_instruction(block);
    if (!last || last->opcode != Opcode::Bra || !last->guard.present() || block.successors.size() < 2) return false;
    // The load's value, forward through the rest of its block.
    std::vector<bool> tainted(ids_.size(), false);
    for (uint32_t r : load.destinations) tainted[r] = true;
    const std::vector<Info>& infos = infos_[index(load.block)];
    for (size_t i = load.position + 1; i < infos.size(); ++i) {
      bool from_taint = false;
      for (uint32_t r : infos[i].sources) from_taint = from_taint || tainted[r];
      for (uint32_t r : infos[i].destinations) tainted[r] = from_taint;
    }
    if (!tainted[ids_.at(last->guard.predicate)]) return false;
    for (const Loop& loop : loops_) {
      if (loop.contains[index(load.block)]) continue;
      bool enters = false, skips = false;
      for (BlockId s : block.successors) {
        BlockId b = s;
        for (int steps = 0; steps < 4 && b != loop.header && cfg_.block(b).successors.size() == 1; ++steps) {
          b = cfg_.block(b).successors.front();
        }
        if (b == loop.header) {
          enters = true;
        } else if (!loop.contains[index(s)]) {
          skips = true;
        }
      }
      if (!enters || !skips) continue;
      for (const Load& spin : loads_) {
        if (loop.contains[index(spin.block)] && spins.contains(spin.statement) &&
            same_address(*spin.instruction, *load.instruction)) {
          return true;
        }
      }
    }
    return false;
  }

  ControlFlowGraph cfg_;
  DominatorTree dominators_;
  std::unordered_map<std::string_view, uint32_t> ids_;
  std::vector<std::vector<Info>> infos_;  // by block index, in body order
  std::vector<Load> loads_;
  std::vector<Loop> loops_;
};

}  // namespace

SpinReads::SpinReads(Function& function) {
  bool any = false;
  for (const Statement& statement : function.body) {
    const auto* instruction = std::get_if<Instruction>(&statement);
    if (instruction && is_volatile_load(*instruction)) {
      any = true;
      break;
    }
  }
  if (!any) return;  // most functions: no CFG needed
  spins_ = Analysis(function).spin_reads();
}

}  // namespace barracuda::ptx::passes
