// Launches from the device (device_launch_copies.h): after the CUDA device runtime hands a thread a
// child's parameter buffer, the thread claims the child's block ids and writes its token into the
// buffer (ClaimChildToken); just before the launch it logs the launch (LogDeviceLaunch), naming the child by
// that token and the stream it goes to.
#include "ptx/passes/device_launch_copies.h"
#include "ptx/passes/pass_context.h"

namespace barracuda::ptx::passes {
namespace {

// The statement after the call sequence around `call` (its closing brace), or after the call itself.
StatementIterator after_sequence(StatementIterator call, StatementList& body) {
  for (auto it = std::next(call); it != body.end(); ++it) {
    if (std::holds_alternative<ScopeEnd>(*it)) return std::next(it);
    if (std::holds_alternative<ScopeBegin>(*it)) break;
  }
  return std::next(call);
}

// The opening brace of the call sequence around `call`, or the call itself.
StatementIterator sequence_start(StatementIterator call, StatementList& body) {
  for (auto it = call; it != body.begin();) {
    --it;
    if (std::holds_alternative<ScopeBegin>(*it)) return it;
    if (std::holds_alternative<ScopeEnd>(*it)) break;
  }
  return call;
}

}  // namespace

void log_device_launches(PassContext& context, const std::vector<StatementIterator>& instructions) {
  if (context.child_token_offsets.empty()) return;
  StatementList& body = context.function.body;
  std::unordered_map<std::string_view, uint32_t> buffer_token_offsets;  // buffer register -> token offset
  for (StatementIterator position : instructions) {
    const Instruction& call = std::get<Instruction>(*position);
    const DebugLocation location = call.debug_location;
    if (calls(call, kGetParameterBuffer)) {
      const std::optional<Operand> kernel = call_argument(position, body, 0, 0);
      const std::optional<std::string_view> symbol =
          kernel && kernel->is_register() ? symbol_in_register(context.function, kernel->text) : std::nullopt;
      const auto offset = symbol ? context.child_token_offsets.find(*symbol) : context.child_token_offsets.end();
      const std::optional<std::string_view> buffer = call_result(position, body);
      if (offset == context.child_token_offsets.end() || !buffer) continue;
      std::vector<CallArgument> arguments{{ScalarType::B64, Operand::reg(*buffer)},
                                          {ScalarType::B32, Operand::integer(offset->second)}};
      for (int64_t d = 0; d < 3; ++d) {
        arguments.push_back({ScalarType::B32, call_argument(position, body, 1, 4 * d).value_or(Operand::integer(1))});
      }
      context.calls.call_before(after_sequence(position, body), RuntimeFunction::ClaimChildToken, arguments, location);
      buffer_token_offsets[*buffer] = offset->second;
    } else if (calls(call, kLaunchDevice)) {
      const std::optional<Operand> buffer = call_argument(position, body, 0, 0);
      const std::optional<Operand> stream = call_argument(position, body, 1, 0);
      const auto offset = buffer && buffer->is_register() ? buffer_token_offsets.find(buffer->text) : buffer_token_offsets.end();
      if (offset == buffer_token_offsets.end() || !stream) continue;
      const uint32_t site = context.sites.add(SiteKind::Synchronization, context.function, call);
      context.calls.call_before(sequence_start(position, body), RuntimeFunction::LogDeviceLaunch,
                                {{ScalarType::B32, Operand::integer(site)},
                                 {ScalarType::B64, *buffer},
                                 {ScalarType::B32, Operand::integer(offset->second)},
                                 {ScalarType::B64, *stream}},
                                location);
      ++context.statistics.device_launches;
    }
  }
}

}  // namespace barracuda::ptx::passes
