// Logs bulk asynchronous copies (cp.async.bulk, the TMA engine's non-tensor copies) as what they do
// to memory: a loop before the copy logs each 16-byte chunk as a read of the source and a write of
// the destination by the issuing thread. The copy completes on its mbarrier (complete_tx), so the
// issuing thread then releases to that mbarrier: waiters of the phase see the data written, a
// thread reading the destination without waiting races with the copy.
//
// A `.shared::cluster` destination is taken as the issuing block's own shared memory (the usual
// case; a copy into another block of the cluster is attributed to this block's shadow).
#include "barracuda/queue.h"
#include "ptx/passes/pass_context.h"

namespace barracuda::ptx::passes {
namespace {

constexpr int64_t kChunkBytes = 16;
constexpr uint32_t kChunkSizeLog2 = 4;

std::optional<MemorySpace> chunk_space(StateSpace space) {
  switch (space) {
    case StateSpace::Global: return MemorySpace::kGlobal;
    case StateSpace::Shared:
    case StateSpace::SharedCluster: return MemorySpace::kShared;
    default: return std::nullopt;
  }
}

bool is_bulk_copy(const Instruction& instruction) {
  return instruction.opcode == Opcode::Cp && instruction.has_modifier("async") && instruction.has_modifier("bulk") &&
         !instruction.has_modifier("tensor") && !instruction.has_modifier("prefetch") &&
         instruction.operands.size() >= 3 && instruction.operands[0].is_address() &&
         instruction.operands[1].is_address();
}

class BulkCopyLogger {
 public:
  BulkCopyLogger(PassContext& context, StatementIterator copy) : context_(context), copy_(copy) {}

  void log(MemorySpace destination, MemorySpace source) {
    const Instruction& instruction = std::get<Instruction>(*copy_);
    location_ = instruction.debug_location;
    const uint32_t site = context_.sites.add(SiteKind::Access, context_.function, instruction);
    const Operand dst = copy_of(context_.calls.materialize_address(copy_, instruction.operands[0], location_));
    const Operand src = copy_of(context_.calls.materialize_address(copy_, instruction.operands[1], location_));
    const Operand end = copy_of(context_.calls.widen_to_64(copy_, instruction.operands[2], 0, location_));
    const Operand offset = Operand::reg(context_.editor.fresh_register(ScalarType::B64));
    const Operand chunk = Operand::reg(context_.editor.fresh_register(ScalarType::B64));
    const Operand done = Operand::reg(context_.editor.fresh_register(ScalarType::Pred));
    const std::string_view loop = context_.editor.fresh_label();
    const std::string_view exit = context_.editor.fresh_label();
    emit("mov.u64", {offset, Operand::integer(0)});
    context_.editor.insert_before(copy_, Label{loop, {}});
    emit("setp.ge.u64", {done, offset, end});
    emit("bra", {Operand::symbol(exit)}, Guard{done.text, false});
    for (auto [space, base, op] : {std::tuple{source, src, RecordOp::kLoad}, std::tuple{destination, dst, RecordOp::kAsyncCopy}}) {
      emit("add.s64", {chunk, base, offset});
      const uint8_t space_sem = pack_space_sem(space, barracuda::MemorySemantics::kWeak, MemoryScope::kCta);
      context_.calls.call_before(copy_, RuntimeFunction::LogAccess,
                                 {{ScalarType::B64, chunk},
                                  {ScalarType::B32, Operand::integer(site)},
                                  {ScalarType::B32, Operand::integer(pack_access_info(op, space_sem, kChunkSizeLog2, 0))},
                                  {ScalarType::B64, Operand::integer(0)}},
                                 location_);
    }
    emit("add.s64", {offset, offset, Operand::integer(kChunkBytes)});
    emit("bra.uni", {Operand::symbol(loop)});
    context_.editor.insert_before(copy_, Label{exit, {}});
    if (instruction.operands.size() >= 4 && instruction.operands[3].is_address()) release_to(instruction.operands[3], site);
    ++context_.statistics.memory_accesses;
  }

 private:
  // The copy completes on the mbarrier: a release to it by the issuing thread.
  void release_to(const Operand& mbarrier, uint32_t site) {
    const Operand address = context_.calls.materialize_address(copy_, mbarrier, location_);
    context_.calls.call_before(copy_, RuntimeFunction::LogSync,
                               {{ScalarType::B32, Operand::integer(site)},
                                {ScalarType::B32, Operand::integer(static_cast<int64_t>(RecordOp::kMbarrierArrive))},
                                {ScalarType::B32, Operand::integer(0)},
                                {ScalarType::B64, address},
                                {ScalarType::B32, Operand::integer(0)}},
                               location_);
  }

  // The runtime-call builder's scratch registers are reused by every call: keep values in our own.
  Operand copy_of(const Operand& value) {
    const Operand kept = Operand::reg(context_.editor.fresh_register(ScalarType::B64));
    emit("mov.b64", {kept, value});
    return kept;
  }

  void emit(std::string_view mnemonic, std::vector<Operand> operands, Guard guard = {}) {
    Instruction instruction = context_.editor.make_instruction(mnemonic, std::move(operands));
    instruction.guard = guard;
    instruction.debug_location = location_;
    context_.editor.insert_before(copy_, std::move(instruction));
  }

  PassContext& context_;
  StatementIterator copy_;
  DebugLocation location_;
};

}  // namespace

void log_bulk_copies(PassContext& context, const std::vector<StatementIterator>& instructions) {
  for (StatementIterator position : instructions) {
    const Instruction& instruction = std::get<Instruction>(*position);
    if (!is_bulk_copy(instruction)) continue;
    std::optional<MemorySpace> destination = chunk_space(instruction.space);
    std::optional<MemorySpace> source = chunk_space(instruction.second_space);
    if (!destination || !source) {
      ++context.statistics.skipped_memory;
      continue;
    }
    BulkCopyLogger(context, unguard(context, position)).log(*destination, *source);
  }
}

}  // namespace barracuda::ptx::passes
