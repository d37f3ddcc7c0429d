#pragma once
// One operand of a PTX instruction. Text fields are views into memory the Module owns (the parsed
// source or its string arena), so an Operand must not outlive its Module.
#include <cstdint>
#include <string_view>
#include <vector>

namespace barracuda::ptx {

enum class OperandKind : uint8_t {
  Register,       // %r1, %tid.x, %rd<3> member, or a named register such as temp_param_reg
  Integer,        // 42, -1, 0xFF, 7U
  Float,          // 0f3F800000, 0d3FF0000000000000, 1.5
  Symbol,         // a variable, function, label or parameter name (optionally + offset)
  Address,        // [base], [base+offset], [tex, sampler, {coords}]
  Vector,         // {%r1, %r2, _}
  ParameterList,  // (param0, param1) of call
  RegisterPair,   // %r1|%p1 (result with predicate of shfl/setp)
  Sink,           // _
};

struct Operand {
  OperandKind kind = OperandKind::Register;
  // `!%p` operands of vote/bar.red and friends.
  bool negated = false;
  // Register/Symbol: the name. Integer/Float: the spelling (empty for an
  // Integer built from a value, then `value` is printed). Address: the base (register, symbol or
  // integer). Vector/ParameterList/RegisterPair/Sink: empty.
  std::string_view text;
  // Integer: the value (two's complement for spellings above INT64_MAX). Address and Symbol: the
  // byte offset added to the base ([%rd1+8] -> 8, [%rd1+-8] -> -8).
  int64_t value = 0;
  // Vector, ParameterList, RegisterPair: the members. Address: components after the base
  // (texture/surface coordinates: [tex, {%f1, %f2}] has base "tex" and one Vector element).
  std::vector<Operand> elements;
  // Address and Symbol: an offset was written, even `+0`. ptxas -O0 (nvcc -G) compiles `[%SP+0]`
  // and `[%SP]` differently, so the printer keeps a written zero offset.
  bool offset_written = false;

  static Operand reg(std::string_view name) { return {OperandKind::Register, false, name, 0, {}, false}; }
  static Operand integer(int64_t v) { return {OperandKind::Integer, false, {}, v, {}, false}; }
  static Operand symbol(std::string_view name, int64_t offset = 0) {
    return {OperandKind::Symbol, false, name, offset, {}, offset != 0};
  }
  static Operand address(std::string_view base, int64_t offset = 0) {
    return {OperandKind::Address, false, base, offset, {}, offset != 0};
  }
  static Operand vector(std::vector<Operand> members) {
    return {OperandKind::Vector, false, {}, 0, std::move(members), false};
  }
  static Operand sink() { return {OperandKind::Sink, false, {}, 0, {}, false}; }

  bool is_register() const { return kind == OperandKind::Register; }
  bool is_address() const { return kind == OperandKind::Address; }
  friend bool operator==(const Operand&, const Operand&) = default;
};

}  // namespace barracuda::ptx
