// Function-body grammar: statements, instructions and operands.
#include <algorithm>

#include "ptx/parser_state.h"

namespace barracuda::ptx::detail {
namespace {

class BodyParser {
 public:
  BodyParser(ParserState& state, Function& function) : state_(state), function_(function) {}
  void parse();

 private:
  void parse_directive(const Token& directive);
  void parse_after_label();
  RegisterDeclaration parse_registers(const Token& first);
  LocDirective parse_loc(const Token& first);
  Instruction parse_instruction(const Token& first, Guard guard);
  Operand parse_operand();
  Operand parse_primary();
  Operand parse_address(const Token& open);
  Operand parse_list(OperandKind kind, char close);
  int64_t parse_signed_offset();
  bool is_named_register(std::string_view name) const;

  ParserState& state_;
  Function& function_;
  DebugLocation location_;
  // Registers declared without a '%' (e.g. `temp_param_reg`): operands with these names are registers.
  std::vector<std::string_view> named_registers_;
};

void BodyParser::parse() {
  int depth = 0;
  StatementList& body = function_.body;
  for (;;) {
    if (state_.peek().kind == TokenKind::End) state_.fail(state_.peek(), "expected '}' to close the body of " +
                                                                            std::string(function_.name));
    Token token = state_.next();
    if (token.is('}')) {
      if (depth-- == 0) return;
      body.emplace_back(ScopeEnd{token.position});
    } else if (token.is('{')) {
      ++depth;
      body.emplace_back(ScopeBegin{token.position});
    } else if (token.is('@')) {
      Guard guard;
      guard.negated = state_.accept('!');
      guard.predicate = state_.expect(TokenKind::Identifier, "a predicate register after '@'").text;
      body.emplace_back(parse_instruction(token, guard));
    } else if (token.kind == TokenKind::Directive) {
      parse_directive(token);
    } else if (token.kind == TokenKind::Identifier && state_.accept(':')) {
      body.emplace_back(Label{token.text, token.position});
      parse_after_label();
    } else if (token.kind == TokenKind::Identifier) {
      body.emplace_back(parse_instruction(token, {}));
    } else {
      state_.fail(token, "expected an instruction, label or directive, found '" + std::string(token.text) + "'");
    }
  }
}

void BodyParser::parse_directive(const Token& directive) {
  std::string_view name = directive.text;
  StatementList& body = function_.body;
  if (name == ".reg") {
    body.emplace_back(parse_registers(directive));
  } else if (name == ".loc") {
    LocDirective loc = parse_loc(directive);
    location_ = loc.location;
    body.emplace_back(loc);
  } else if (name == ".local" || name == ".shared" || name == ".param" || name == ".const" || name == ".global") {
    body.emplace_back(parse_variable(state_, Linkage::None, directive));
    state_.expect(';', "after the declaration");
  } else {
    // .pragma and directives this IR does not model: kept verbatim.
    body.emplace_back(Directive{state_.skip_statement(directive), directive.position});
  }
}

// A label may name a brx.idx table (`.branchtargets`) or an indirect-call prototype (`.callprototype`).
void BodyParser::parse_after_label() {
  if (state_.peek().is_directive(".branchtargets")) {
    Token first = state_.next();
    BranchTargets targets{{}, first.position};
    do {
      targets.labels.push_back(state_.expect(TokenKind::Identifier, "a label in .branchtargets").text);
    } while (state_.accept(','));
    state_.expect(';', "after .branchtargets");
    function_.body.emplace_back(std::move(targets));
  } else if (state_.peek().is_directive(".callprototype")) {
    Token first = state_.next();
    function_.body.emplace_back(Directive{state_.skip_statement(first), first.position});
  }
}

RegisterDeclaration BodyParser::parse_registers(const Token& first) {
  RegisterDeclaration declaration;
  declaration.position = first.position;
  while (state_.peek().kind == TokenKind::Directive) {
    Token qualifier = state_.next();
    std::string_view word = qualifier.text.substr(1);
    if (word == "v2" || word == "v4" || word == "v8") {
      declaration.vector_width = static_cast<uint8_t>(word[1] - '0');
    } else {
      declaration.type_name = word;
      declaration.type = scalar_type_from_modifier(word).value_or(ScalarType::None);
    }
  }
  if (declaration.type_name.empty()) state_.fail(state_.peek(), "expected a register type after .reg");
  do {
    RegisterDeclaration::Name name{state_.expect(TokenKind::Identifier, "a register name").text, 0};
    if (state_.accept('<')) {
      name.range = state_.parse_u32(state_.next());
      state_.expect('>', "to close the register range");
    } else if (!name.name.starts_with('%')) {
      named_registers_.push_back(name.name);
    }
    declaration.names.push_back(name);
  } while (state_.accept(','));
  state_.expect(';', "after the register declaration");
  return declaration;
}

LocDirective BodyParser::parse_loc(const Token& first) {
  LocDirective loc;
  loc.position = first.position;
  loc.location.file = state_.parse_u32(state_.next());
  loc.location.line = state_.parse_u32(state_.next());
  loc.location.column = state_.parse_u32(state_.next());
  while (state_.accept(',')) {
    Token key = state_.expect(TokenKind::Identifier, "function_name or inlined_at after ','");
    if (key.text == "function_name") {
      loc.function_name = state_.expect(TokenKind::Identifier, "a label after function_name").text;
    } else if (key.text == "inlined_at") {
      loc.inlined_at.file = state_.parse_u32(state_.next());
      loc.inlined_at.line = state_.parse_u32(state_.next());
      loc.inlined_at.column = state_.parse_u32(state_.next());
    } else {
      state_.fail(key, "unknown .loc attribute '" + std::string(key.text) + "'");
    }
  }
  return loc;
}

Instruction BodyParser::parse_instruction(const Token& first, Guard guard) {
  Instruction instruction;
  instruction.guard = guard;
  instruction.position = first.position;
  instruction.debug_location = location_;
  instruction.mnemonic = guard.present() ? state_.expect(TokenKind::Identifier, "an instruction").text : first.text;
  decode_mnemonic(instruction);
  if (!state_.peek().is(';')) {
    instruction.operands.reserve(4);  // most instructions have 2-4 operands: one allocation, not three
    do {
      instruction.operands.push_back(parse_operand());
    } while (state_.accept(','));
  }
  state_.expect(';', "after the operands of '" + std::string(instruction.mnemonic) + "'");
  return instruction;
}

Operand BodyParser::parse_operand() {
  bool negated = state_.accept('!');
  Operand operand = parse_primary();
  operand.negated = negated;
  if (state_.accept('|')) {  // shfl.sync/setp: result|predicate
    Operand second = parse_primary();
    operand = Operand{OperandKind::RegisterPair, false, {}, 0, {std::move(operand), std::move(second)}, false};
  }
  return operand;
}

bool BodyParser::is_named_register(std::string_view name) const {
  return std::find(named_registers_.begin(), named_registers_.end(), name) != named_registers_.end();
}

Operand BodyParser::parse_primary() {
  Token token = state_.next();
  switch (token.kind) {
    case TokenKind::Identifier: {
      if (token.text == "_") return Operand::sink();
      if (token.text.starts_with('%') || is_named_register(token.text)) return Operand::reg(token.text);
      Operand symbol = Operand::symbol(token.text);
      if (state_.peek().is('+') || state_.peek().is('-')) {
        symbol.value = parse_signed_offset();
        symbol.offset_written = true;
      }
      return symbol;
    }
    case TokenKind::Integer: return {OperandKind::Integer, false, token.text, state_.parse_integer(token), {}, false};
    case TokenKind::Float: return {OperandKind::Float, false, token.text, 0, {}, false};
    case TokenKind::Punct:
      if (token.is('-')) {
        Token number = state_.next();
        if (number.kind == TokenKind::Float) return {OperandKind::Float, false, state_.text_since(token), 0, {}, false};
        if (number.kind != TokenKind::Integer) state_.fail(number, "expected a number after '-'");
        return {OperandKind::Integer, false, state_.text_since(token), -state_.parse_integer(number), {}, false};
      }
      if (token.is('[')) return parse_address(token);
      if (token.is('{')) return parse_list(OperandKind::Vector, '}');
      if (token.is('(')) return parse_list(OperandKind::ParameterList, ')');
      break;
    default: break;
  }
  state_.fail(token, "expected an operand, found '" + std::string(token.text) + "'");
}

// `+8`, `-8`, `+-8` after an address base or symbol.
int64_t BodyParser::parse_signed_offset() {
  bool negative = state_.next().is('-');
  if (state_.accept('-')) negative = !negative;
  else state_.accept('+');
  int64_t magnitude = state_.parse_integer(state_.expect(TokenKind::Integer, "an integer offset"));
  return negative ? -magnitude : magnitude;
}

Operand BodyParser::parse_address(const Token& open) {
  Token base = state_.next();
  if (base.kind != TokenKind::Identifier && base.kind != TokenKind::Integer)
    state_.fail(base, "expected a register, variable or integer address after '['");
  Operand address = Operand::address(base.text);
  if (state_.peek().is('+') || state_.peek().is('-')) {
    address.value = parse_signed_offset();
    address.offset_written = true;
  }
  while (state_.accept(',')) address.elements.push_back(parse_operand());
  state_.expect(']', "to close the address opened at column " + std::to_string(open.position.column));
  return address;
}

Operand BodyParser::parse_list(OperandKind kind, char close) {
  Operand list{kind, false, {}, 0, {}, false};
  if (state_.accept(close)) return list;
  do {
    list.elements.push_back(parse_operand());
  } while (state_.accept(','));
  state_.expect(close, kind == OperandKind::Vector ? "to close the vector operand" : "to close the parameter list");
  return list;
}

}  // namespace

void parse_body(ParserState& state, Function& function) { BodyParser(state, function).parse(); }

}  // namespace barracuda::ptx::detail
