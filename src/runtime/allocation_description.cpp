#include "runtime/allocation_description.h"

#include <dlfcn.h>

#include <string_view>

#include "report/value_text.h"

namespace barracuda::runtime {
namespace {

std::string_view base_name(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

uint64_t distance(const void* from, const void* to) {
  return reinterpret_cast<uintptr_t>(to) - reinterpret_cast<uintptr_t>(from);
}

}  // namespace

std::string host_frame_text(const void* return_address) {
  Dl_info info{};
  // A return address may be one past the call's last byte, i.e. already in the next function.
  const void* in_call = static_cast<const char*>(return_address) - 1;
  if (dladdr(in_call, &info) == 0 || info.dli_fname == nullptr) return report::address_text(distance(nullptr, return_address));
  const std::string object{base_name(info.dli_fname)};
  if (info.dli_sname == nullptr || info.dli_saddr == nullptr) {
    return object + '+' + report::address_text(distance(info.dli_fbase, return_address));
  }
  return report::demangled(info.dli_sname) + '+' + report::address_text(distance(info.dli_saddr, return_address)) +
         " (" + object + ')';
}

report::Allocation describe_allocation(const std::optional<AllocationRecord>& record, uint64_t address) {
  report::Allocation allocation;
  if (!record) return allocation;  // kNone
  allocation.kind = record->kind;
  allocation.base = record->base;
  allocation.size = record->size;
  allocation.offset = address - record->base;
  if (!record->symbol.empty()) allocation.symbol = report::demangled(record->symbol);
  for (uint8_t i = 0; i < record->allocated_by.depth; ++i) {
    allocation.allocated_by.push_back(host_frame_text(record->allocated_by.return_addresses[i]));
  }
  return allocation;
}

}  // namespace barracuda::runtime
