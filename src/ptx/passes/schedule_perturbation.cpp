#include "ptx/passes/schedule_perturbation.h"

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "barracuda/queue.h"
#include "ptx/function_editor.h"
#include "ptx/passes/runtime_call.h"
#include "ptx/passes/seed_sequence.h"
#include "ptx/passes/spin_reads.h"

namespace barracuda::ptx::passes {
namespace {

// One delay point in kDelayOdds (the hash's top bits below the threshold); each sleeps
// kMinimumDelayNs plus the hash's low bits (up to kDelaySpreadNs - 1) nanoseconds.
constexpr uint32_t kDelayOdds = 4;
constexpr uint32_t kMinimumDelayNs = 512;
// Long enough to reorder blocks whose start differs by what a launch's dispatch and the tool's first
// records cost (microseconds), short enough that a perturbed kernel still finishes: up to 33 us.
constexpr uint32_t kDelaySpreadNs = 32768;  // a power of two
constexpr uint32_t kGolden = 0x9E3779B1u;

bool synchronises(const Instruction& instruction, const Statement& statement, const SpinReads& spins) {
  switch (instruction.opcode) {
    case Opcode::Atom:
    case Opcode::Red:
    case Opcode::Fence:
    case Opcode::Membar:
    case Opcode::Bar:
    case Opcode::Barrier:
      return true;
    case Opcode::Ld:
      return spins.contains(statement);
    default:
      return false;
  }
}

class Perturber {
 public:
  Perturber(Module& module, Function& function) : editor_(module, function) {}

  // At `position`: computes, once per function, the warp's hash of (block, warp, seed) into a register.
  void compute_warp_hash(StatementIterator position) {
    const std::string_view seed = editor_.fresh_register(ScalarType::U32);
    emit(position, "ld.global.u32", {reg(seed), Operand::address(BARRACUDA_PERTURB_SEED_SYMBOL)});
    const std::string_view warp = linear_index(position, {"%tid.z", "%tid.y", "%tid.x"}, {"%ntid.y", "%ntid.x"});
    emit(position, "shr.u32", {reg(warp), reg(warp), Operand::integer(5)});
    const std::string_view block =
        linear_index(position, {"%ctaid.z", "%ctaid.y", "%ctaid.x"}, {"%nctaid.y", "%nctaid.x"});
    warp_hash_ = editor_.fresh_register(ScalarType::U32);
    emit(position, "mad.lo.u32", {reg(warp_hash_), reg(block), Operand::integer(kGolden), reg(warp)});
    emit(position, "mad.lo.u32", {reg(warp_hash_), reg(seed), Operand::integer(0x85EBCA77), reg(warp_hash_)});
  }

  // Before `position`: the warps whose hash with `salt` falls below the odds sleep.
  void delay(StatementIterator position, uint32_t salt) {
    const std::string_view hash = editor_.fresh_register(ScalarType::U32);
    const std::string_view mixed = editor_.fresh_register(ScalarType::U32);
    const std::string_view nanoseconds = editor_.fresh_register(ScalarType::U32);
    const std::string_view chosen = editor_.fresh_register(ScalarType::Pred);
    emit(position, "xor.b32", {reg(hash), reg(warp_hash_), Operand::integer(salt)});
    emit(position, "mul.lo.u32", {reg(hash), reg(hash), Operand::integer(kGolden)});
    emit(position, "shr.u32", {reg(mixed), reg(hash), Operand::integer(15)});
    emit(position, "xor.b32", {reg(hash), reg(hash), reg(mixed)});
    emit(position, "mul.lo.u32", {reg(hash), reg(hash), Operand::integer(0x2C1B3C6D)});
    emit(position, "shr.u32", {reg(mixed), reg(hash), Operand::integer(12)});
    emit(position, "xor.b32", {reg(hash), reg(hash), reg(mixed)});
    emit(position, "setp.lt.u32", {reg(chosen), reg(hash), Operand::integer(static_cast<int64_t>(0xFFFFFFFFu / kDelayOdds))});
    emit(position, "and.b32", {reg(nanoseconds), reg(hash), Operand::integer(kDelaySpreadNs - 1)});
    emit(position, "add.u32", {reg(nanoseconds), reg(nanoseconds), Operand::integer(kMinimumDelayNs)});
    Instruction sleep = editor_.make_instruction("nanosleep.u32", {reg(nanoseconds)});
    sleep.guard = Guard{chosen, false};
    editor_.insert_before(position, std::move(sleep));
  }

 private:
  static Operand reg(std::string_view name) { return Operand::reg(name); }
  // (z * size.y + y) * size.x + x of a 3-D index ({z, y, x} special registers: %tid, %ctaid) and its
  // sizes ({y, x}), into a fresh register.
  std::string_view linear_index(StatementIterator position, std::array<std::string_view, 3> index,
                                std::array<std::string_view, 2> sizes) {
    const std::string_view linear = editor_.fresh_register(ScalarType::U32);
    const std::string_view size = editor_.fresh_register(ScalarType::U32);
    const std::string_view part = editor_.fresh_register(ScalarType::U32);
    emit(position, "mov.u32", {reg(linear), reg(index[0])});
    for (size_t axis = 0; axis < sizes.size(); ++axis) {
      emit(position, "mov.u32", {reg(size), reg(sizes[axis])});
      emit(position, "mov.u32", {reg(part), reg(index[axis + 1])});
      emit(position, "mad.lo.u32", {reg(linear), reg(linear), reg(size), reg(part)});
    }
    return linear;
  }
  void emit(StatementIterator position, std::string_view mnemonic, std::vector<Operand> operands) {
    editor_.insert_before(position, editor_.make_instruction(mnemonic, std::move(operands)));
  }

  FunctionEditor editor_;
  std::string_view warp_hash_;
};

// Why the module cannot sleep (nanosleep: ISA 6.3, sm_70), or nullopt when it can.
std::optional<std::string> cannot_sleep(const Module& module) {
  for (const ModuleItem& item : module.items) {
    if (const auto* version = std::get_if<VersionDirective>(&item)) {
      if (version->major < 6 || (version->major == 6 && version->minor < 3)) {
        return "its PTX ISA " + std::to_string(version->major) + "." + std::to_string(version->minor) +
               " has no nanosleep (6.3)";
      }
    }
    if (const auto* target = std::get_if<TargetDirective>(&item)) {
      for (const std::string_view word : target->targets) {
        if (!word.starts_with("sm_")) continue;
        uint32_t number = 0;
        for (const char c : word.substr(3)) {
          if (c < '0' || c > '9') break;
          number = number * 10 + static_cast<uint32_t>(c - '0');
        }
        if (number < 70) return "its target " + std::string(word) + " has no nanosleep (sm_70)";
      }
    }
  }
  return std::nullopt;
}

// The seed the host sets after loading the module (BARRACUDA_PERTURB_SEED_SYMBOL): weak, since every
// instrumented module of one link defines it.
void declare_seed(Module& module) {
  module.add_variable(u32_global(module, BARRACUDA_PERTURB_SEED_SYMBOL, Linkage::Weak, "0"));
}

}  // namespace

PerturbationResult perturb_schedule(Module& module) {
  PerturbationResult result;
  result.declined = cannot_sleep(module);
  if (result.declined) return result;
  // Each point's salt: the same for every seed, so that one compiled module serves them all.
  uint64_t state = 0x5eed;
  uint64_t& points = result.delay_points;
  bool seed_declared = false;
  for (Function* function : module.definitions()) {
    if (function->name.starts_with("__barracuda_")) continue;
    const SpinReads spins(*function);
    std::vector<StatementIterator> targets;
    StatementIterator first = function->body.end();
    for (auto it = function->body.begin(); it != function->body.end(); ++it) {
      const auto* instruction = std::get_if<Instruction>(&*it);
      if (instruction == nullptr) continue;
      if (first == function->body.end()) first = it;
      if (synchronises(*instruction, *it, spins)) targets.push_back(it);
    }
    if (targets.empty()) continue;
    if (!seed_declared) declare_seed(module);
    seed_declared = true;
    Perturber perturber(module, *function);
    perturber.compute_warp_hash(first);
    for (const StatementIterator target : targets) {
      perturber.delay(target, static_cast<uint32_t>(split_mix(state)));
      ++points;
    }
  }
  return result;
}

}  // namespace barracuda::ptx::passes
