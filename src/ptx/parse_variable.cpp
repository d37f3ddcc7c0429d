// Grammar of variable declarations, shared by module scope, function parameters and bodies.
#include "ptx/parser_state.h"

namespace barracuda::ptx::detail {
namespace {

std::optional<uint8_t> vector_width_of(std::string_view directive) {
  if (directive == ".v2") return 2;
  if (directive == ".v4") return 4;
  if (directive == ".v8") return 8;
  return std::nullopt;
}

// `.ptr .global .align 8`: everything up to the parameter name.
std::string_view parse_pointer_attributes(ParserState& state, const Token& first) {
  while (state.peek().kind == TokenKind::Directive || state.peek().kind == TokenKind::Integer) state.next();
  return state.text_since(first);
}

std::string_view parse_array_suffix(ParserState& state) {
  if (!state.peek().is('[')) return {};
  Token first = state.peek();
  while (state.accept('[')) {
    if (state.peek().kind == TokenKind::Integer) state.next();
    state.expect(']', "to close the array size");
  }
  return state.text_since(first);
}

// Initializer text after '=': everything up to the ';' (nested braces balanced).
std::string_view parse_initializer(ParserState& state) {
  Token first = state.peek();
  int depth = 0;
  while (!(depth == 0 && (state.peek().is(';') || state.peek().is(',')))) {
    if (state.peek().kind == TokenKind::End) state.fail(state.peek(), "expected ';' after the initializer");
    if (state.peek().is('{')) ++depth;
    if (state.peek().is('}') && --depth < 0) state.fail(state.peek(), "unbalanced '}' in the initializer");
    state.next();
  }
  if (first.position == state.peek().position) state.fail(first, "expected an initializer after '='");
  return state.text_since(first);
}

}  // namespace

VariableDeclaration parse_variable(ParserState& state, Linkage linkage, const Token& space_token) {
  VariableDeclaration variable;
  variable.linkage = linkage;
  variable.position = space_token.position;
  auto space = state_space_from_modifier(space_token.text.substr(1));
  if (!space) state.fail(space_token, "expected a state space, found '" + std::string(space_token.text) + "'");
  variable.space = *space;

  while (state.peek().kind == TokenKind::Directive) {
    Token qualifier = state.next();
    std::string_view word = qualifier.text;
    if (word == ".align") {
      variable.alignment = state.parse_u32(state.next());
    } else if (word == ".attribute") {
      variable.attribute = state.skip_parenthesized(qualifier);
    } else if (word == ".ptr") {
      variable.pointer_attributes = parse_pointer_attributes(state, qualifier);
    } else if (auto width = vector_width_of(word)) {
      variable.vector_width = *width;
    } else if (variable.type_name.empty()) {
      variable.type_name = word.substr(1);
      variable.type = scalar_type_from_modifier(variable.type_name).value_or(ScalarType::None);
    } else {
      state.fail(qualifier, "unexpected '" + std::string(word) + "' in the declaration (type already '" +
                                std::string(variable.type_name) + "')");
    }
  }
  if (variable.type_name.empty()) state.fail(state.peek(), "expected a type in the declaration");
  variable.name = state.expect(TokenKind::Identifier, "a variable name").text;
  variable.array_suffix = parse_array_suffix(state);
  if (state.accept('=')) variable.initializer = parse_initializer(state);
  return variable;
}

}  // namespace barracuda::ptx::detail
