#include "report/value_text.h"

#include <cxxabi.h>

#include <algorithm>
#include <charconv>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

namespace barracuda::report {
namespace {

// The API a CUDA C++ programmer calls for each kind, with the driver's name where they differ.
std::string_view allocation_api_text(AllocationKind kind) {
  switch (kind) {
    case AllocationKind::kMemAlloc: return "cudaMalloc/cuMemAlloc";
    case AllocationKind::kMemAllocPitch: return "cudaMallocPitch/cuMemAllocPitch";
    case AllocationKind::kMemAllocManaged: return "cudaMallocManaged/cuMemAllocManaged";
    case AllocationKind::kMemAllocAsync: return "cudaMallocAsync/cuMemAllocAsync";
    case AllocationKind::kMemMap: return "cuMemCreate+cuMemMap";
    case AllocationKind::kNone:
    case AllocationKind::kGlobalVariable:
    case AllocationKind::kShared: break;
  }
  return "";
}

// The frame that says where the application asked: the one that called into the CUDA runtime (the
// frame after the outermost one named cuda*, cudart::* or in libcudart); where no frame says it is the
// runtime's (a static cudart's functions are hidden), the first frame with a name (an exported caller,
// such as main under -rdynamic); else the innermost.
std::string_view application_frame(const std::vector<std::string>& frames) {
  const auto in_runtime = [](std::string_view frame) {
    return frame.starts_with("cuda") || frame.starts_with("__cuda") || frame.starts_with("libcudart");
  };
  const auto outermost_runtime = std::find_if(frames.rbegin(), frames.rend(), in_runtime);
  const auto caller = outermost_runtime.base();  // the frame after it
  if (outermost_runtime != frames.rend()) return caller != frames.end() ? *caller : frames.front();
  // Named frames are "function+0x1c (object)"; unnamed ones "object+0x11a4".
  const auto named = std::find_if(frames.begin(), frames.end(), [](std::string_view frame) { return frame.ends_with(')'); });
  return named != frames.end() ? *named : frames.front();
}

}  // namespace

std::string address_text(uint64_t address) {
  char text[19];
  std::snprintf(text, sizeof text, "0x%" PRIx64, address);
  return text;
}

std::optional<uint64_t> parse_address_text(std::string_view text) {
  if (!text.starts_with("0x") || text.size() < 3 || text.size() > 18) return std::nullopt;
  uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [stop, error] = std::from_chars(text.data() + 2, end, value, 16);
  if (error != std::errc{} || stop != end) return std::nullopt;
  return value;
}

std::string coord_text(const Coord3& d) {
  return '(' + std::to_string(d.x) + ',' + std::to_string(d.y) + ',' + std::to_string(d.z) + ')';
}

std::string source_location_text(const SourceLocation& location) {
  return location.file + ':' + std::to_string(location.line) + ':' + std::to_string(location.column);
}

std::string site_position_text(const Site& site) {
  if (site.source.known()) return site.source.file + ':' + std::to_string(site.source.line);
  // No PTX line: machine code the SASS back end checked (the function names the offset).
  return site.ptx_line != 0 ? "PTX line " + std::to_string(site.ptx_line) : "machine code";
}

std::string demangled(const std::string& symbol) {
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> name(abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status),
                                                         &std::free);
  return status == 0 && name ? std::string(name.get()) : symbol;
}

std::string out_of_bounds_text(const OutOfBounds& out_of_bounds, uint64_t address) {
  const Allocation& pointee = out_of_bounds.pointee;
  std::string text = "the address comes from parameter " + std::to_string(out_of_bounds.parameter);
  if (!out_of_bounds.parameter_type.empty()) text += " (" + out_of_bounds.parameter_type + ")";
  text += " of the kernel, which points into ";
  text += pointee.kind == AllocationKind::kGlobalVariable
              ? "the " + std::to_string(pointee.size) + "-byte __device__ variable " + pointee.symbol
              : "a " + std::to_string(pointee.size) + "-byte allocation";
  text += " at " + address_text(pointee.base) + "; it lies ";
  const uint64_t end = pointee.base + pointee.size;
  if (address == end) return text + "just past that allocation's end";
  text += address > end ? std::to_string(address - end) + " bytes past that allocation's end"
                        : std::to_string(pointee.base - address) + " bytes before its start";
  return text;
}

std::string kernel_parameter_type(const std::string& mangled_kernel, uint32_t index) {
  const std::string signature = demangled(mangled_kernel);
  // The parameter list is the last balanced "( ... )": template arguments before it may hold parentheses.
  if (signature.empty() || signature.back() != ')') return {};
  size_t open = signature.size() - 1;
  for (int depth = 0; open-- > 0;) {
    if (signature[open] == ')') ++depth;
    if (signature[open] == '(' && depth-- == 0) break;
  }
  if (open == std::string::npos) return {};
  std::vector<std::string> parameters(1);
  int nesting = 0;
  for (size_t i = open + 1; i + 1 < signature.size(); ++i) {
    const char c = signature[i];
    if (c == '<' || c == '(' || c == '[') ++nesting;
    if (c == '>' || c == ')' || c == ']') --nesting;
    if (c == ',' && nesting == 0) {
      parameters.emplace_back();
      continue;
    }
    if (c == ' ' && parameters.back().empty()) continue;
    parameters.back() += c;
  }
  return index < parameters.size() ? parameters[index] : std::string();
}

std::string allocation_text(const Allocation& allocation, uint32_t access_bytes, uint64_t address) {
  switch (allocation.kind) {
    case AllocationKind::kNone: return address_text(address) + " is not in any allocation barracuda saw";
    case AllocationKind::kShared:
      return "shared memory of block " + coord_text(allocation.block) + ", offset " + address_text(allocation.offset);
    default: break;
  }
  std::string text = std::to_string(access_bytes) + " bytes at offset " + address_text(allocation.offset) + " of ";
  if (allocation.kind == AllocationKind::kGlobalVariable) {
    return text + "the " + std::to_string(allocation.size) + "-byte __device__ variable " + allocation.symbol + " at " +
           address_text(allocation.base);
  }
  text += "a " + std::to_string(allocation.size) + "-byte allocation at " + address_text(allocation.base) + " (" +
          std::string(allocation_api_text(allocation.kind));
  if (!allocation.allocated_by.empty()) text += " from " + std::string(application_frame(allocation.allocated_by));
  return text + ')';
}

std::string fence_text(MemoryScope scope) {
  switch (scope) {
    case MemoryScope::kCta: return "__threadfence_block()";
    case MemoryScope::kCluster: return "fence.acq_rel.cluster";
    case MemoryScope::kGpu: return "__threadfence()";
    case MemoryScope::kSystem: return "__threadfence_system()";
  }
  return "a fence";
}

}  // namespace barracuda::report
