// Logs every load, store, atomic, reduction and cp.async that can touch global or shared memory.
// Local, param and const accesses are private or read-only: they cannot race and are not logged;
// nor, unless InstrumentOptions::log_read_only, are loads through the read-only path (read_only_load).
// Texture and surface instructions (tex, tld4, txq, suld, sust, sured) are not logged either.
#include <bit>
#include <optional>

#include "barracuda/queue.h"
#include "ptx/passes/pass_context.h"

namespace barracuda::ptx::passes {
namespace {

struct AccessShape {
  RecordOp op;
  size_t address_operand;
  std::optional<size_t> value_operand;  // stored value (same-value filter)
};

std::optional<AccessShape> access_shape(const Instruction& instruction) {
  switch (instruction.opcode) {
    case Opcode::Ld:
    case Opcode::Ldu: return AccessShape{RecordOp::kLoad, 1, std::nullopt};
    case Opcode::St: return AccessShape{RecordOp::kStore, 0, 1};
    case Opcode::Atom: return AccessShape{RecordOp::kAtomic, 1, std::nullopt};
    case Opcode::Red: return AccessShape{RecordOp::kReduction, 0, std::nullopt};
    default: return std::nullopt;
  }
}

// ld.global.nc (what __ldg() and loads through `const T* __restrict__` compile to, with any cache
// qualifier: .L1::no_allocate, .L2::..., .ca/.cg/.cs) and ldu (a warp-uniform load, global or generic).
// Why they cannot race within the launch, so that not logging them loses no race of a correct program:
// * The PTX ISA names both read-only: ld.global.nc may "cache in non-coherent read-only cache", ldu
//   loads "read-only data"; and its memory model "does not apply to texture (including ld.global.nc)
//   and surface accesses" (section 8.1, "Scope and applicability of the model"): no fence, barrier or
//   release orders a write before an .nc read, so a write to the location during the launch leaves
//   the read undefined whatever the synchronisation.
// * The CUDA programming guide ("Global Memory", compute capability 5.x and later) reserves the path
//   for "data that is read-only for the entire lifetime of the kernel"; nvcc emits .nc itself only
//   where it proved that, or where `const __restrict__` promised it.
// So no thread of this launch, or of a launch running beside it, writes the location, and a conflict
// needs a write. What is lost: a program that breaks that contract (a `const __restrict__` pointer
// aliasing one written in the kernel, __ldg() of data the kernel or a concurrent launch on another
// stream writes) is no longer reported when the write is unordered (log_read_only=1 restores that; a
// write ordered before the .nc read by a barrier is equally wrong and was never reported).
// The fence-adjacency inference (a read then a fence acquires) now pairs a fence with the last logged
// read, past any .nc reads in between: those could acquire nothing (no release writes read-only
// data), and hid the read before them from the inference.
bool read_only_load(const Instruction& instruction) {
  return instruction.opcode == Opcode::Ldu || (instruction.opcode == Opcode::Ld && instruction.has_modifier("nc"));
}

// nullopt: a space whose accesses cannot race (local, param, const) or that is not memory.
std::optional<MemorySpace> record_space(StateSpace space) {
  switch (space) {
    case StateSpace::Global:
    case StateSpace::Generic: return MemorySpace::kGlobal;  // generic: reclassified at run time
    case StateSpace::Shared: return MemorySpace::kShared;
    case StateSpace::SharedCluster: return MemorySpace::kCluster;
    default: return std::nullopt;
  }
}

barracuda::MemorySemantics record_semantics(const Instruction& instruction, bool is_atomic) {
  using S = ptx::SemanticsQualifier;
  switch (instruction.semantics) {
    case S::None: return is_atomic ? barracuda::MemorySemantics::kLegacy : barracuda::MemorySemantics::kWeak;
    case S::Weak: return barracuda::MemorySemantics::kWeak;
    case S::Relaxed:
    case S::Mmio: return barracuda::MemorySemantics::kRelaxed;
    case S::Acquire: return barracuda::MemorySemantics::kAcquire;
    case S::Release: return barracuda::MemorySemantics::kRelease;
    case S::AcqRel: return barracuda::MemorySemantics::kAcqRel;
    case S::SeqCst: return barracuda::MemorySemantics::kSeqCst;
    case S::Volatile: return barracuda::MemorySemantics::kVolatile;
  }
  return barracuda::MemorySemantics::kWeak;
}

// Unwritten scopes: atom/red default to .gpu, volatile/mmio act at .sys, weak accesses have none.
MemoryScope record_scope(const Instruction& instruction, bool is_atomic) {
  switch (instruction.scope) {
    case Scope::Cta: return MemoryScope::kCta;
    case Scope::Cluster: return MemoryScope::kCluster;
    case Scope::Gpu: return MemoryScope::kGpu;
    case Scope::Sys: return MemoryScope::kSystem;
    case Scope::None: break;
  }
  if (instruction.semantics == ptx::SemanticsQualifier::Volatile || instruction.semantics == ptx::SemanticsQualifier::Mmio) {
    return MemoryScope::kSystem;
  }
  return is_atomic ? MemoryScope::kGpu : MemoryScope::kCta;
}

// log2 of the bytes one lane accesses, capped at 16 bytes (the record's largest size).
std::optional<uint32_t> size_log2(uint32_t bytes) {
  if (bytes == 0 || !std::has_single_bit(bytes)) return std::nullopt;
  return std::min<uint32_t>(std::countr_zero(bytes), 4);
}

class AccessLogger {
 public:
  explicit AccessLogger(PassContext& context) : context_(context) {}

  void log(StatementIterator position) {
    const Instruction& instruction = std::get<Instruction>(*position);
    if (instruction.opcode == Opcode::Cp && instruction.has_modifier("async") && !instruction.has_modifier("bulk")) {
      log_async_copy(position);
      return;
    }
    std::optional<AccessShape> shape = access_shape(instruction);
    if (!shape) return;
    // The tool's own state a pass reads in the program's functions (the perturbation seed): not the
    // program's memory.
    if (instruction.operands.size() > shape->address_operand &&
        instruction.operands[shape->address_operand].is_address() &&
        instruction.operands[shape->address_operand].text.starts_with("__barracuda_")) {
      return;
    }
    // A child launch's arguments written into the parameter buffer the CUDA device runtime handed out
    // (device_launch_copies.h): the runtime's memory, reused from launch to launch, which the child
    // reads as its parameters, never through memory the tool sees.
    if (instruction.operands.size() > shape->address_operand &&
        instruction.operands[shape->address_operand].is_address() &&
        context_.parameter_buffers.contains(instruction.operands[shape->address_operand].text)) {
      return;
    }
    if (!context_.options.log_read_only && read_only_load(instruction)) {
      ++context_.statistics.read_only_loads;
      return;
    }
    if (context_.write_free_loads.contains(&instruction)) {
      ++context_.statistics.write_free_loads;
      return;
    }
    std::optional<MemorySpace> space = record_space(instruction.space);
    if (!space) {
      ++context_.statistics.skipped_memory;
      return;
    }
    bool is_atomic = shape->op == RecordOp::kAtomic || shape->op == RecordOp::kReduction;
    std::optional<uint32_t> size = size_log2(bit_width(instruction.type()) * instruction.vector_width / 8);
    if (!size || instruction.operands.size() <= shape->address_operand ||
        !instruction.operands[shape->address_operand].is_address()) {
      ++context_.statistics.skipped_memory;
      return;
    }
    uint8_t space_sem =
        pack_space_sem(*space, record_semantics(instruction, is_atomic), record_scope(instruction, is_atomic));
    uint32_t extra = instruction.space == StateSpace::Generic ? kAccessGeneric : 0;
    std::optional<Operand> value;
    if (shape->value_operand && instruction.vector_width == 1) value = stored_value(instruction, *shape->value_operand);
    if (value) extra |= kAccessHasValue;
    if (context_.runs_without_fences && ticket_only_serves_fences(shape->op, space_sem)) extra |= kAccessNoSyncTicket;
    if (context_.spin_reads.contains(*position)) extra |= kAccessSpinRead;
    if (instruction.opcode == Opcode::Ld) {
      const auto origin = context_.address_parameters.find(&instruction);
      if (origin != context_.address_parameters.end() && context_.read_only_parameters.contains(origin->second)) {
        extra |= kAccessReadOnlyParameter | (origin->second << kAccessParameterShift);
        ++context_.statistics.read_only_parameter_loads;
      }
    }
    // Plain ld/st that may reach shared memory (ldu reads global memory only), and shared atomics.
    const bool plain = instruction.opcode == Opcode::Ld || instruction.opcode == Opcode::St;
    const bool generic = instruction.space == StateSpace::Generic;
    if (context_.checks_shared_on_device &&
        ((plain && (instruction.space == StateSpace::Shared || generic)) ||
         (is_atomic && instruction.space == StateSpace::Shared))) {
      extra |= kAccessDeviceShared;
    }
    // Loads, stores and atomics that may reach global memory (the classification let through only
    // those the device checks: weak, relaxed loads and unordered atomics of .gpu/.sys scope); ldu,
    // whose data no one writes during the launch, stays with the host.
    if (context_.checks_global_on_device && (plain || is_atomic) && (instruction.space == StateSpace::Global || generic)) {
      extra |= kAccessDeviceGlobal;
    }
    uint32_t info = pack_access_info(shape->op, space_sem, *size, extra);
    emit(position, shape->address_operand, info, value);
  }

 private:
  // cp.async.{ca,cg}.shared.global [dst], [src], cp-size: a shared write and a global read.
  void log_async_copy(StatementIterator position) {
    const Instruction& instruction = std::get<Instruction>(*position);
    const auto& operands = instruction.operands;
    std::optional<uint32_t> size;
    if (operands.size() >= 3 && operands[2].kind == OperandKind::Integer) size = size_log2(operands[2].value);
    if (!size || !operands[0].is_address() || !operands[1].is_address()) {
      ++context_.statistics.skipped_memory;
      return;
    }
    auto weak = [](MemorySpace space) {
      return pack_space_sem(space, barracuda::MemorySemantics::kWeak, MemoryScope::kCta);
    };
    emit(position, 1, pack_access_info(RecordOp::kLoad, weak(MemorySpace::kGlobal), *size, 0), std::nullopt);
    emit(position, 0, pack_access_info(RecordOp::kAsyncCopy, weak(MemorySpace::kShared), *size, 0), std::nullopt);
  }

  // The stored value as a register or integer immediate of at most 64 bits, else nullopt.
  std::optional<Operand> stored_value(const Instruction& instruction, size_t index) {
    if (instruction.operands.size() <= index) return std::nullopt;
    const Operand& value = instruction.operands[index];
    if (value.kind == OperandKind::Integer) return value;
    if (!value.is_register()) return std::nullopt;
    uint32_t bits = context_.calls.register_bits(value.text);
    if (bits != 16 && bits != 32 && bits != 64) return std::nullopt;
    return value;
  }

  void emit(StatementIterator position, size_t address_operand, uint32_t info, std::optional<Operand> value) {
    Instruction& instruction = std::get<Instruction>(*position);
    auto parameter = context_.address_parameters.find(&instruction);
    const int32_t parameter_index =
        parameter == context_.address_parameters.end() ? -1 : static_cast<int32_t>(parameter->second);
    uint32_t site = context_.sites.add(SiteKind::Access, context_.function, instruction, parameter_index);
    DebugLocation location = instruction.debug_location;
    position = unguard(context_, position);
    Operand address = std::get<Instruction>(*position).operands[address_operand];
    // Acquire reads are logged once they have read (barracuda/record_view.h, SyncRole); their
    // destination may overwrite the address register, hence the saved copy.
    const bool after = sync_role(access_info_op(info), access_info_space_sem(info)) == SyncRole::kAcquire;
    Operand address_value = after ? context_.calls.save_address(position, address, location)
                                  : context_.calls.materialize_address(position, address, location);
    Operand stored = value ? context_.calls.widen_to_64(position, *value, 1, location) : Operand::integer(0);
    const StatementIterator call = after ? std::next(position) : position;
    const auto log = [&] {
      note_read(call, info, address_value, location);
      context_.calls.call_before(call, RuntimeFunction::LogAccess,
                                 {{ScalarType::B64, address_value},
                                  {ScalarType::B32, Operand::integer(site)},
                                  {ScalarType::B32, Operand::integer(info)},
                                  {ScalarType::B64, stored}},
                                 location);
    };
    // A repeat of the last logged access is skipped: loads logged before they execute, and acquire
    // loads, logged once they have read, where they read the value the last one did (a spin on a
    // counter, as in a cooperative-groups grid sync, logs each value it sees once: the last read,
    // which ends the spin, acquires everything the skipped ones would have).
    const std::optional<Operand> loaded =
        after && instruction_is_load(position) ? loaded_value(call, position, location) : std::nullopt;
    if (context_.calls.filters_repeated_reads() && instruction_is_load(position) && (!after || loaded)) {
      context_.calls.unless_repeated(call, site, address_value, loaded, location, log);
      ++context_.statistics.filtered_loads;
    } else {
      log();
    }
    ++context_.statistics.memory_accesses;
  }

  // The value the load at `load` put in its destination, widened to b64 before `call`: for the repeated
  // read filter only (nullopt without it, and for vector or unusual destinations).
  std::optional<Operand> loaded_value(StatementIterator call, StatementIterator load, DebugLocation location) {
    if (!context_.calls.filters_repeated_reads()) return std::nullopt;
    const Instruction& instruction = std::get<Instruction>(*load);
    if (instruction.operands.empty() || !instruction.operands[0].is_register()) return std::nullopt;
    const uint32_t bits = context_.calls.register_bits(instruction.operands[0].text);
    if (bits != 16 && bits != 32 && bits != 64) return std::nullopt;
    return context_.calls.widen_to_64(call, instruction.operands[0], 1, location);
  }

  static bool instruction_is_load(StatementIterator position) {
    return std::get<Instruction>(*position).opcode == Opcode::Ld;
  }

  // Every logged read the engine keeps as its thread's last (Worker::apply_memory: loads and atomics,
  // outside kOther) moves the function's last-read register, which a later fence passes on for its
  // sync ticket; a function whose launches run no fence needs none.
  void note_read(StatementIterator call, uint32_t info, const Operand& address, DebugLocation location) {
    const RecordOp op = access_info_op(info);
    const MemorySpace space = space_of(access_info_space_sem(info));
    if (context_.runs_without_fences || (op != RecordOp::kLoad && op != RecordOp::kAtomic) ||
        space == MemorySpace::kOther) {
      return;
    }
    context_.calls.note_read(call, space == MemorySpace::kShared ? Operand::integer(0) : address, location);
  }

  PassContext& context_;
};

}  // namespace

void log_memory_accesses(PassContext& context, const std::vector<StatementIterator>& instructions) {
  AccessLogger logger(context);
  for (StatementIterator position : instructions) logger.log(position);
}

}  // namespace barracuda::ptx::passes
