#pragma once
// Emits calls from instrumented PTX into the device runtime (barracuda/runtime_entry_points.inc), and the
// `.extern .func` declarations that let the module link with the runtime's PTX.
#include <string>
#include <string_view>
#include <optional>
#include <unordered_map>
#include <vector>

#include "ptx/function_editor.h"
#include "ptx/module.h"

namespace barracuda::ptx::passes {

// The runtime's entry points as instrumented code sees them (barracuda/runtime_entry_points.inc).
enum class RuntimeFunction : uint8_t {
#define BARRACUDA_RUNTIME_ENTRY(function, symbol, parameters, ptx_types) function,
#include "barracuda/runtime_entry_points.inc"
#undef BARRACUDA_RUNTIME_ENTRY
};

// Adds a `.extern .func` prototype for every entry point (once; an existing one is kept).
void declare_runtime_functions(Module& module);

// The launch-slot global of `kernel` (barracuda/queue.h): BARRACUDA_LAUNCH_SLOT_PREFIX + its name.
std::string launch_slot_global(std::string_view kernel);
// Defines `.visible .global .u32 <launch_slot_global(k)> = kNoLaunchSlot` for every kernel k the module
// defines, so the host can name a launch per kernel and a kernel it did not name logs nothing.
void define_launch_slot_globals(Module& module);

// A `.global .align 4 .u32 NAME = INITIALIZER;` of `linkage`, for a value the host sets in a loaded
// module (names and initializer interned in `module`).
VariableDeclaration u32_global(Module& module, std::string_view name, Linkage linkage, std::string_view initializer);

// One call argument: `value` is a register of a matching width or an integer immediate.
struct CallArgument {
  ScalarType type;  // B32 or B64: the entry point's parameter type
  Operand value;
};

// Builds the statements of runtime calls for one function, reusing a few scratch registers (each
// call sequence is self-contained, so they never carry values between sequences).
class RuntimeCallBuilder {
 public:
  RuntimeCallBuilder(Module& module, FunctionEditor& editor) : module_(module), editor_(editor) {}

  // Inserts `{ .param ...; st.param ...; call fn, (...); }` before `position`.
  void call_before(StatementIterator position, RuntimeFunction function, const std::vector<CallArgument>& arguments,
                   DebugLocation location);

  // Width in bits of a declared register (0 when `name` is not a register of the function).
  uint32_t register_bits(std::string_view name);

  // A b64 operand holding `value` zero-extended (registers of 16/32 bits are converted into a
  // scratch register `slot` (0 or 1) before `position`). Immediates are returned as they are.
  Operand widen_to_64(StatementIterator position, const Operand& value, int slot, DebugLocation location);

  // A b64 register holding the address an `[base+offset]` operand names in its own state space.
  Operand materialize_address(StatementIterator position, const Operand& address, DebugLocation location);

  // Like materialize_address, but always into a scratch register: the value survives an instruction
  // that overwrites the address's own register (for calls placed after the instruction).
  Operand save_address(StatementIterator position, const Operand& address, DebugLocation location);

  // A b32 scratch register loaded (before `position`) from the .u32 global variable `symbol`.
  Operand load_global_u32(StatementIterator position, std::string_view symbol, DebugLocation location);

  // A b32 register holding 1 where `guard` holds, else 0 (for branch conditions).
  Operand predicate_as_u32(StatementIterator position, const Guard& guard, DebugLocation location);

  // The function's last-read register (b64; declared, and zeroed at the function's start, on first
  // use): the address of the thread's last logged read outside the block's shared memory, 0 before
  // any and after a shared read. A fence's call passes it, and its sync ticket goes to that address's
  // location bucket (barracuda/record_view.h, takes_sync_ticket). A read in a calling function is not
  // seen: a fence there carries no ticket.
  Operand last_read();
  // Sets the last-read register to `address` (a b64 register or 0) before `position`.
  void note_read(StatementIterator position, const Operand& address, DebugLocation location);

  // Option filter_repeated_reads (repeated_read_filter.h): declares the registers that hold the last
  // logged access's site and address (the site emptied at the function's start); from then on every
  // runtime call empties the site after itself, so that nothing logged in between is skipped over.
  void filter_repeated_reads();
  bool filters_repeated_reads() const { return repeated_site_.has_value(); }
  // Empties the filter's site before `position` (a call or a synchronising instruction ran).
  void forget_repeated_read(StatementIterator position, DebugLocation location);
  // Around the call that `log` inserts before `position`: skipped by a lane whose last logged access
  // was this very one (site `site`, address `address`, nothing logged since) and, where `value` (b64)
  // is given, loaded that same value, then noted as the last.
  template <typename Log>
  void unless_repeated(StatementIterator position, uint32_t site, const Operand& address,
                       const std::optional<Operand>& value, DebugLocation location, Log&& log) {
    const std::string_view skip = begin_unless_repeated(position, site, address, value, location);
    log();
    end_unless_repeated(position, skip, site, address, value, location);
  }

  FunctionEditor& editor() { return editor_; }

 private:
  std::string_view begin_unless_repeated(StatementIterator position, uint32_t site, const Operand& address,
                                         const std::optional<Operand>& value, DebugLocation location);
  void end_unless_repeated(StatementIterator position, std::string_view skip, uint32_t site, const Operand& address,
                           const std::optional<Operand>& value, DebugLocation location);
  // The first statement of the body that is an instruction or a label: what runs first.
  StatementIterator function_start();
  std::string_view scratch(ScalarType type, int slot);
  void emit(StatementIterator position, std::string_view mnemonic, std::vector<Operand> operands,
            DebugLocation location);

  Module& module_;
  FunctionEditor& editor_;
  std::unordered_map<std::string_view, uint32_t> register_bits_;
  std::unordered_map<uint32_t, std::string_view> scratch_;  // (type << 8 | slot) -> register
  std::optional<Operand> last_read_;
  std::optional<Operand> repeated_site_;     // u32: the last logged access's site, or kNoRepeatedSite
  std::optional<Operand> repeated_address_;  // b64: its address
  std::optional<Operand> repeated_value_;    // b64: the value it loaded, where the site compares values
};

}  // namespace barracuda::ptx::passes
