#include "ptx/passes/write_free_intervals.h"

#include <array>
#include <bitset>
#include <unordered_map>
#include <vector>

#include "ptx/cfg.h"
#include "ptx/passes/barrier_only_kernels.h"
#include "ptx/passes/call_graph.h"

namespace barracuda::ptx::passes {
namespace {

// Region 0 is the kernel's entry; region b + 1 the code after barrier instruction b.
constexpr size_t kMaxRegions = 256;
using Regions = std::bitset<kMaxRegions>;
// Barrier counts are compared modulo each of these (a residue set per modulus: one bit per residue).
constexpr uint32_t kFirstModulus = 2;
constexpr uint32_t kLastModulus = 8;
constexpr size_t kModuli = kLastModulus - kFirstModulus + 1;
using Residues = std::array<uint8_t, kModuli>;

// Whether the analysis cannot follow the kernel with `instruction` in it (the header's list).
bool declines(const Instruction& instruction) {
  if (instruction.space == StateSpace::SharedCluster) return true;
  switch (instruction.opcode) {
    case Opcode::Bar:
    case Opcode::Barrier: return !full_block_barrier(instruction) && !instruction.has_modifier("warp");
    // A fence acquires through its thread's last logged read (the engine's sync tickets follow it):
    // a shared load left out would hand that role to the read before it.
    case Opcode::Fence:
    case Opcode::Membar:
    case Opcode::Cp:
    case Opcode::StAsync:
    case Opcode::RedAsync:
    case Opcode::Mbarrier:
    case Opcode::Mapa:
    case Opcode::Getctarank:
    case Opcode::Multimem:
    case Opcode::Tensormap:
    case Opcode::Wgmma:
    case Opcode::Other: return true;
    default: return false;
  }
}

bool writes_shared(const Instruction& instruction) {
  switch (instruction.opcode) {
    case Opcode::St:
    case Opcode::Atom:
    case Opcode::Red: return may_be_shared(instruction.space);
    case Opcode::Wmma: return instruction.has_modifier("store") && may_be_shared(instruction.space);
    case Opcode::Stmatrix: return true;
    default: return false;
  }
}

// What a function a kernel calls may not hold: anything that declines a kernel, any barrier that
// counts (__syncwarp does not), a shared store. Its own calls are looked at through the call graph.
bool spoils_a_caller(const Instruction& instruction) {
  if (instruction.opcode == Opcode::Call) return false;
  if (instruction.opcode == Opcode::Bar || instruction.opcode == Opcode::Barrier) return !instruction.has_modifier("warp");
  return declines(instruction) || writes_shared(instruction);
}

bool candidate_load(const Instruction& instruction) {
  return instruction.opcode == Opcode::Ld && instruction.space == StateSpace::Shared && weak_access(instruction);
}

uint8_t rotate(uint8_t residues, uint32_t modulus) {
  const uint32_t all = (1u << modulus) - 1;
  return static_cast<uint8_t>(((residues << 1) | (residues >> (modulus - 1))) & all);
}

template <typename Visit>
void for_each_instruction(const BasicBlock& block, Visit visit) {
  for (StatementIterator it = block.first; it != block.last; ++it) {
    if (const auto* instruction = std::get_if<Instruction>(&*it)) visit(*instruction);
  }
}

class Intervals {
 public:
  Intervals(Function& kernel, const std::unordered_map<const Instruction*, uint32_t>& barriers)
      : cfg_(kernel), barriers_(barriers), residues_at_(cfg_.size()), regions_at_(cfg_.size()),
        counts_(barriers.size()) {
    residues_at_[index(cfg_.entry())].fill(1);  // count 0 before the first barrier
    regions_at_[index(cfg_.entry())].set(0);
    for (bool changed = true; changed;) {
      changed = false;
      for (const BasicBlock& block : cfg_.blocks()) {
        Residues residues = residues_at_[index(block.id)];
        Regions regions = regions_at_[index(block.id)];
        for_each_instruction(block, [&](const Instruction& instruction) { pass(instruction, residues, regions); });
        for (const BlockId successor : block.successors) {
          Residues& into = residues_at_[index(successor)];
          Regions& regions_into = regions_at_[index(successor)];
          for (size_t m = 0; m < kModuli; ++m) {
            changed |= (into[m] | residues[m]) != into[m];
            into[m] |= residues[m];
          }
          changed |= (regions_into | regions) != regions_into;
          regions_into |= regions;
        }
      }
    }
  }

  // Calls visit(instruction, its regions) for every instruction of a reachable block.
  template <typename Visit>
  void for_each_region_set(Visit visit) {
    for (const BasicBlock& block : cfg_.blocks()) {
      Residues residues = residues_at_[index(block.id)];
      Regions regions = regions_at_[index(block.id)];
      for_each_instruction(block, [&](const Instruction& instruction) {
        visit(instruction, regions);
        pass(instruction, residues, regions);
      });
    }
  }

  // Whether threads in regions a and b may be in one barrier interval.
  bool may_share_an_interval(size_t a, size_t b) const {
    if (a == b) return true;
    if (a == 0 || b == 0) return false;  // the entry's count is 0, a barrier's at least 1
    for (size_t m = 0; m < kModuli; ++m) {
      if ((counts_[a - 1][m] & counts_[b - 1][m]) == 0) return false;
    }
    return true;
  }

 private:
  // After `instruction`: a barrier starts its region, where it is guarded beside the ones before.
  void pass(const Instruction& instruction, Residues& residues, Regions& regions) {
    const auto barrier = barriers_.find(&instruction);
    if (barrier == barriers_.end()) return;
    const bool guarded = instruction.guard.present();
    for (size_t m = 0; m < kModuli; ++m) {
      const uint8_t after = rotate(residues[m], kFirstModulus + static_cast<uint32_t>(m));
      counts_[barrier->second][m] |= after;
      residues[m] = guarded ? static_cast<uint8_t>(residues[m] | after) : after;
    }
    if (!guarded) regions.reset();
    regions.set(barrier->second + 1);
  }

  ControlFlowGraph cfg_;
  const std::unordered_map<const Instruction*, uint32_t>& barriers_;
  std::vector<Residues> residues_at_;
  std::vector<Regions> regions_at_;
  std::vector<Residues> counts_;  // by barrier: the residues of the count after passing it
};

}  // namespace

WriteFreeIntervals::WriteFreeIntervals(const Module& module) {
  const CallGraph graph(module);
  if (graph.has_indirect_call) return;
  const auto harmless = [&](const Function* function) {
    if (graph.calls_unknown.contains(function)) return false;
    for (const Statement& statement : function->body) {
      const auto* instruction = std::get_if<Instruction>(&statement);
      if (instruction != nullptr && spoils_a_caller(*instruction)) return false;
    }
    return true;
  };
  for (const Function* function : graph.definitions) {
    if (!function->is_entry || graph.calls_unknown.contains(function)) continue;
    bool followed = true;
    for (const Function* callee : graph.closure(function)) followed = followed && (callee == function || harmless(callee));
    if (followed) calls_followed_.insert(function);
  }
}

std::unordered_set<const Instruction*> WriteFreeIntervals::loads_of(Function& kernel) const {
  if (!kernel.is_entry) return {};
  const bool calls_followed = calls_followed_.contains(&kernel);
  std::unordered_map<const Instruction*, uint32_t> barriers;
  bool any_candidate = false;
  for (const Statement& statement : kernel.body) {
    const auto* instruction = std::get_if<Instruction>(&statement);
    if (instruction == nullptr) continue;
    if (declines(*instruction) || (instruction->opcode == Opcode::Call && !calls_followed)) return {};
    if (full_block_barrier(*instruction)) {
      if (barriers.size() + 1 >= kMaxRegions) return {};
      barriers.emplace(instruction, static_cast<uint32_t>(barriers.size()));
    }
    any_candidate |= candidate_load(*instruction);
  }
  if (!any_candidate) return {};
  Intervals intervals(kernel, barriers);
  Regions written;
  std::vector<std::pair<const Instruction*, Regions>> loads;
  intervals.for_each_region_set([&](const Instruction& instruction, const Regions& regions) {
    if (writes_shared(instruction)) written |= regions;
    if (candidate_load(instruction)) loads.emplace_back(&instruction, regions);
  });
  // Every region that may share an interval with a written one.
  Regions unsafe;
  for (size_t region = 0; region <= barriers.size(); ++region) {
    for (size_t other = 0; other <= barriers.size() && !unsafe[region]; ++other) {
      if (written[other] && intervals.may_share_an_interval(region, other)) unsafe.set(region);
    }
  }
  std::unordered_set<const Instruction*> write_free;
  for (const auto& [load, regions] : loads) {
    if ((regions & unsafe).none()) write_free.insert(load);
  }
  return write_free;
}

}  // namespace barracuda::ptx::passes
