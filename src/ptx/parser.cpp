// Module-level grammar: directives, declarations and function signatures.
#include "ptx/parser.h"

#include "ptx/parser_state.h"

namespace barracuda::ptx {
namespace {

using detail::ParserState;

bool is_variable_space(std::string_view directive) {
  return directive == ".global" || directive == ".const" || directive == ".shared" || directive == ".local" ||
         directive == ".tex";
}

VersionDirective parse_version(ParserState& state) {
  Token number = state.next();
  std::string_view text = number.text;
  size_t dot = text.find('.');
  if (number.kind != TokenKind::Float || dot == std::string_view::npos)
    state.fail(number, "expected MAJOR.MINOR after .version");
  Token major{TokenKind::Integer, text.substr(0, dot), number.position};
  Token minor{TokenKind::Integer, text.substr(dot + 1), number.position};
  return {state.parse_u32(major), state.parse_u32(minor)};
}

TargetDirective parse_target(ParserState& state) {
  TargetDirective target;
  do {
    target.targets.push_back(state.expect(TokenKind::Identifier, "a target name").text);
  } while (state.accept(','));
  return target;
}

FileDirective parse_file(ParserState& state) {
  FileDirective file;
  file.index = state.parse_u32(state.next());
  file.path = state.expect(TokenKind::String, "a quoted file name").text;
  if (state.peek().is(',')) {
    Token first = state.peek();
    while (state.accept(',')) state.expect(TokenKind::Integer, "a timestamp or size");
    file.rest = state.text_since(first);
  }
  return file;
}

// `( decl, decl, ... )` of parameters or return values.
std::vector<VariableDeclaration> parse_parameter_list(ParserState& state) {
  std::vector<VariableDeclaration> parameters;
  state.expect('(', "to open the parameter list");
  if (state.accept(')')) return parameters;
  do {
    Token space = state.expect(TokenKind::Directive, "a parameter declaration (.param or .reg)");
    parameters.push_back(detail::parse_variable(state, Linkage::None, space));
  } while (state.accept(','));
  state.expect(')', "to close the parameter list");
  return parameters;
}

// `.maxntid 256, 1, 1`, `.noreturn`, `.pragma "nounroll";` between the signature and the body.
std::string_view parse_function_directive(ParserState& state) {
  Token first = state.next();
  if (first.text == ".pragma") return state.skip_statement(first);
  if (first.text == ".attribute") return state.skip_parenthesized(first);
  while (state.peek().kind == TokenKind::Integer || state.peek().is(',')) state.next();
  return state.text_since(first);
}

Function parse_function(ParserState& state, Linkage linkage, const Token& kind) {
  Function function;
  function.linkage = linkage;
  function.is_entry = kind.text == ".entry";
  function.position = kind.position;
  while (state.peek().is_directive(".attribute") || state.peek().is_directive(".noreturn"))
    function.directives.push_back(parse_function_directive(state));
  if (state.peek().is('(')) {
    function.has_return_list = true;
    function.returns = parse_parameter_list(state);
  }
  function.name = state.expect(TokenKind::Identifier, "a function name").text;
  if (state.peek().is('(')) {
    function.has_parameter_list = true;
    function.parameters = parse_parameter_list(state);
  }
  while (state.peek().kind == TokenKind::Directive) function.directives.push_back(parse_function_directive(state));
  if (state.accept(';')) return function;
  state.expect('{', "to open the function body");
  function.is_definition = true;
  detail::parse_body(state, function);
  return function;
}

void parse_item(ParserState& state, std::list<ModuleItem>& items) {
  Token first = state.expect(TokenKind::Directive, "a directive");
  std::string_view name = first.text;
  if (name == ".version") {
    items.emplace_back(parse_version(state));
  } else if (name == ".target") {
    items.emplace_back(parse_target(state));
  } else if (name == ".address_size") {
    items.emplace_back(AddressSizeDirective{state.parse_u32(state.next())});
  } else if (name == ".file") {
    items.emplace_back(parse_file(state));
  } else if (name == ".section") {
    items.emplace_back(Directive{state.skip_braced_block(first), first.position});
  } else if (name == ".pragma" || name == ".alias") {
    items.emplace_back(Directive{state.skip_statement(first), first.position});
  } else {
    Linkage linkage = linkage_from_directive(name).value_or(Linkage::None);
    Token declaration = linkage == Linkage::None ? first : state.expect(TokenKind::Directive, "a declaration");
    if (declaration.text == ".entry" || declaration.text == ".func") {
      items.emplace_back(parse_function(state, linkage, declaration));
    } else if (is_variable_space(declaration.text)) {
      items.emplace_back(detail::parse_variable(state, linkage, declaration));
      state.expect(';', "after the declaration");
    } else {
      state.fail(declaration, "unsupported directive '" + std::string(declaration.text) + "' at module scope");
    }
  }
}

}  // namespace

std::string ParseError::to_string() const {
  return std::to_string(position.line) + ":" + std::to_string(position.column) + ": " + message;
}

ParseResult parse(std::string source) {
  auto module = std::make_unique<Module>(std::move(source));
  ParserState state(*module);
  try {
    while (state.peek().kind != TokenKind::End) parse_item(state, module->items);
  } catch (const detail::ParseFailure& failure) {
    return {nullptr, failure.error};
  }
  return {std::move(module), {}};
}

}  // namespace barracuda::ptx
