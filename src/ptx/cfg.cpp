#include "ptx/cfg.h"

#include <algorithm>
#include <unordered_map>

namespace barracuda::ptx {
namespace {

bool ends_block(const Instruction& instruction) {
  switch (instruction.opcode) {
    case Opcode::Bra:
    case Opcode::Brx:
    case Opcode::Ret:
    case Opcode::Exit:
    case Opcode::Trap: return true;
    default: return false;
  }
}

// A label directly followed by `.branchtargets` or `.callprototype` names data, not code.
bool labels_code(StatementIterator label, StatementIterator end) {
  auto following = std::next(label);
  if (following == end) return true;
  if (std::holds_alternative<BranchTargets>(*following)) return false;
  const auto* directive = std::get_if<Directive>(&*following);
  return !(directive && directive->text.starts_with(".callprototype"));
}

void add_edge(std::vector<BasicBlock>& blocks, BlockId from, BlockId to) {
  auto& successors = blocks[index(from)].successors;
  if (std::find(successors.begin(), successors.end(), to) != successors.end()) return;
  successors.push_back(to);
  blocks[index(to)].predecessors.push_back(from);
}

}  // namespace

ControlFlowGraph::ControlFlowGraph(Function& function) {
  StatementList& body = function.body;
  std::unordered_map<std::string_view, BlockId> block_of_label;
  std::unordered_map<std::string_view, const BranchTargets*> tables;

  auto open_block = [&](StatementIterator at) {
    if (!blocks_.empty()) blocks_.back().last = at;
    blocks_.push_back(BasicBlock{BlockId{static_cast<uint32_t>(blocks_.size())}, at, body.end(), {}, {}, false});
  };
  open_block(body.begin());
  bool block_has_code = false;  // whether the open block holds anything a label must not merge into
  bool after_terminator = false;
  for (auto it = body.begin(); it != body.end(); ++it) {
    if (const auto* label = std::get_if<Label>(&*it)) {
      if (!labels_code(it, body.end())) {
        if (const auto* targets = std::get_if<BranchTargets>(&*std::next(it))) tables[label->name] = targets;
        continue;
      }
      if (block_has_code || after_terminator) open_block(it);
      block_has_code = after_terminator = false;
      block_of_label[label->name] = blocks_.back().id;
      block_has_code = true;  // a second label starts its own block: each label names a block start
      continue;
    }
    const auto* instruction = std::get_if<Instruction>(&*it);
    if (!instruction) continue;
    if (after_terminator) {
      open_block(it);
      after_terminator = false;
    }
    block_has_code = true;
    after_terminator = ends_block(*instruction);
  }

  auto target_block = [&](const Operand& operand) -> const BlockId* {
    auto found = block_of_label.find(operand.text);
    return found == block_of_label.end() ? nullptr : &found->second;
  };
  for (BasicBlock& block : blocks_) {
    const Instruction* terminator = nullptr;
    for (auto it = block.first; it != block.last; ++it)
      if (const auto* instruction = std::get_if<Instruction>(&*it)) terminator = instruction;
    bool falls_through = true;
    if (terminator && ends_block(*terminator)) {
      falls_through = terminator->guard.present();
      const auto& operands = terminator->operands;
      if (terminator->opcode == Opcode::Bra && !operands.empty()) {
        if (const BlockId* target = target_block(operands.back())) add_edge(blocks_, block.id, *target);
      } else if (terminator->opcode == Opcode::Brx && operands.size() >= 2) {
        auto table = tables.find(operands[1].text);
        if (table != tables.end())
          for (std::string_view label : table->second->labels)
            if (const BlockId* target = target_block(Operand::symbol(label))) add_edge(blocks_, block.id, *target);
      } else if (terminator->opcode != Opcode::Bra && terminator->opcode != Opcode::Brx) {
        block.exits_function = true;
      }
    }
    if (!falls_through) continue;
    uint32_t next = index(block.id) + 1;
    if (next < blocks_.size()) add_edge(blocks_, block.id, BlockId{next});
    else block.exits_function = true;
  }
}

const BasicBlock* ControlFlowGraph::block_at_label(std::string_view name) const {
  for (const BasicBlock& block : blocks_)
    for (auto it = block.first; it != block.last && !std::holds_alternative<Instruction>(*it); ++it) {
      const auto* label = std::get_if<Label>(&*it);
      if (label && label->name == name) return &block;
    }
  return nullptr;
}

}  // namespace barracuda::ptx
