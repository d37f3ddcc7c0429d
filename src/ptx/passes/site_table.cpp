#include "ptx/passes/site_table.h"

#include <nlohmann/json.hpp>

#include "barracuda/device_launch.h"
#include "ptx/printer.h"

namespace barracuda::ptx::passes {

std::string_view to_string(SiteKind kind) {
  switch (kind) {
    case SiteKind::Access: return "access";
    case SiteKind::Synchronization: return "synchronization";
    case SiteKind::Branch: return "branch";
    case SiteKind::Reconvergence: return "reconvergence";
    case SiteKind::Entry: return "entry";
    case SiteKind::Exit: return "exit";
  }
  return "unknown";
}

SiteTable::SiteTable(const Module& module, uint32_t first_id) : first_id_(first_id) {
  for (const ModuleItem& item : module.items) {
    const auto* file = std::get_if<FileDirective>(&item);
    if (file == nullptr) continue;
    if (file_paths_.size() <= file->index) file_paths_.resize(file->index + 1);
    std::string_view path = file->path;
    if (path.size() >= 2 && path.front() == '"' && path.back() == '"') path = path.substr(1, path.size() - 2);
    file_paths_[file->index] = std::string(path);
  }
}

uint32_t SiteTable::add(SiteKind kind, const Function& function, const Instruction& instruction, int32_t parameter) {
  Site site;
  site.parameter = parameter;
  site.id = first_id_ + static_cast<uint32_t>(sites_.size());
  site.kind = kind;
  site.function = std::string(function.name);
  // A kernel's copy for its launches from the device (device_launch_copies.h) is the kernel.
  if (site.function.starts_with(BARRACUDA_CHILD_KERNEL_PREFIX)) site.function.erase(0, sizeof BARRACUDA_CHILD_KERNEL_PREFIX - 1);
  site.instruction = to_string(Statement{instruction});
  site.ptx_line = instruction.position.line;
  const DebugLocation& user = instruction.outermost_location;
  if (user.known()) {
    site.source_file = file_path(user.file);
    site.source_line = user.line;
    site.source_column = user.column;
  }
  const DebugLocation& inner = instruction.debug_location;
  if (inner.known() && inner != user) {
    site.inlined_file = file_path(inner.file);
    site.inlined_line = inner.line;
    site.inlined_column = inner.column;
  }
  sites_.push_back(std::move(site));
  return sites_.back().id;
}

std::string_view SiteTable::file_path(uint32_t index) const {
  return index < file_paths_.size() ? std::string_view(file_paths_[index]) : std::string_view();
}

nlohmann::json to_json(const SiteTable& table) {
  nlohmann::json sites = nlohmann::json::array();
  for (const Site& site : table.sites()) {
    nlohmann::json entry = {{"id", site.id},
                            {"kind", to_string(site.kind)},
                            {"function", site.function},
                            {"instruction", site.instruction},
                            {"ptx_line", site.ptx_line},
                            {"file", site.source_file},
                            {"line", site.source_line},
                            {"column", site.source_column}};
    if (!site.inlined_file.empty()) {
      entry["inlined"] = {{"file", site.inlined_file}, {"line", site.inlined_line}, {"column", site.inlined_column}};
    }
    sites.push_back(std::move(entry));
  }
  return {{"first_id", table.first_id()}, {"sites", std::move(sites)}};
}

}  // namespace barracuda::ptx::passes
