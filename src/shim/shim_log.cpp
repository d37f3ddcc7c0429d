#include "shim/shim_log.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "shim/shim_runtime.h"

namespace barracuda::shim {
namespace {

// Long enough for any line with a kernel name cut to kMaxNameLength.
constexpr std::size_t kLineCapacity = 4096;
constexpr int kMaxNameLength = 3000;

const char* yes_no(bool value) { return value ? "yes" : "no"; }

// The file name of the object holding `address`, or "?".
const char* object_name(const void* address) {
  Dl_info info{};
  if (address == nullptr || dladdr(address, &info) == 0 || info.dli_fname == nullptr) return "?";
  const char* slash = std::strrchr(info.dli_fname, '/');
  return slash != nullptr ? slash + 1 : info.dli_fname;
}

}  // namespace

ShimLog::~ShimLog() { ::close(fd_); }

void ShimLog::write_line(const char* format, ...) {
  char line[kLineCapacity];
  va_list args;
  va_start(args, format);
  int length = std::vsnprintf(line, sizeof line - 1, format, args);
  va_end(args);
  if (length < 0) return;
  auto size = std::min(static_cast<std::size_t>(length), sizeof line - 2);
  line[size] = '\n';
  // A failed or short write loses one log line; the application must not notice, so it is ignored.
  [[maybe_unused]] ssize_t written = ::write(fd_, line, size + 1);
}

void ShimLog::on_module_load(const ModuleLoad& load) {
  const ModuleImage& image = load.original;
  std::string size = image.size ? std::to_string(*image.size) : "?";
  write_line("load id=%u entry=%.*s kind=%.*s size=%s replaced=%s result=%d", static_cast<unsigned>(image.id),
             static_cast<int>(exported_name(image.entry).size()), exported_name(image.entry).data(),
             static_cast<int>(to_string(image.kind).size()), to_string(image.kind).data(), size.c_str(),
             yes_no(load.loaded != image.data), static_cast<int>(load.result));
}

void ShimLog::on_link_input(const LinkInput& input) {
  const bool driver = input.link.linker == Linker::kDriver;
  const char* entry = input.from_file ? (driver ? "cuLinkAddFile" : "nvJitLinkAddFile") : (driver ? "cuLinkAddData" : "nvJitLinkAddData");
  write_line("link entry=%s type=%d size=%zu name=%s result=%d", entry,
             static_cast<int>(input.type), input.size, input.name != nullptr && input.name[0] != '\0' ? input.name : "-",
             static_cast<int>(input.result));
}

void ShimLog::on_cubin_compiled(const RuntimeCompiledCubin& compiled) {
  write_line("nvrtc cubin size=%zu ptx=%zu", compiled.cubin_size, compiled.ptx.size());
}

void ShimLog::before_launch(const LaunchCall&) {}

void ShimLog::after_launch(const LaunchCall& launch, CUresult result) {
  std::string_view entry = exported_name(launch.entry);
  std::string_view kernel = launch.kernel_name.empty() ? std::string_view("?") : launch.kernel_name;
  char module[16] = "?";
  if (launch.module != ModuleId::Unknown) std::snprintf(module, sizeof module, "%u", static_cast<unsigned>(launch.module));
  write_line("launch entry=%.*s kernel=%.*s module=%s grid=%u,%u,%u block=%u,%u,%u shmem=%u stream=0x%" PRIxPTR " result=%d",
             static_cast<int>(entry.size()), entry.data(), std::min(static_cast<int>(kernel.size()), kMaxNameLength),
             kernel.data(), module, launch.grid.x, launch.grid.y, launch.grid.z, launch.block.x, launch.block.y,
             launch.block.z, launch.shared_mem_bytes, reinterpret_cast<std::uintptr_t>(launch.stream), static_cast<int>(result));
  if (!launch.graph_not_replayed.empty()) {
    write_line("graph not replayed: %.*s", std::min(static_cast<int>(launch.graph_not_replayed.size()), kMaxNameLength),
               launch.graph_not_replayed.data());
  }
}

void ShimLog::on_allocation(const DeviceAllocation& allocation) {
  const std::string_view entry = exported_name(allocation.entry);
  const HostCallStack& stack = allocation.allocated_by;
  write_line("alloc entry=%.*s base=0x%llx size=%zu frames=%u caller=%s", static_cast<int>(entry.size()), entry.data(),
             static_cast<unsigned long long>(allocation.base), allocation.size, static_cast<unsigned>(stack.depth),
             object_name(stack.depth != 0 ? stack.return_addresses[0] : nullptr));
}

void ShimLog::on_release(const DeviceRelease& release) {
  const std::string_view entry = exported_name(release.entry);
  write_line("release entry=%.*s base=0x%llx size=%zu", static_cast<int>(entry.size()), entry.data(),
             static_cast<unsigned long long>(release.base), release.size);
}

void ShimLog::on_unload(const LoadedHandle& handle) {
  write_line("unload module=%p library=%p", static_cast<void*>(handle.module), static_cast<void*>(handle.library));
}

void install_shim_log_from_environment() {
  const char* path = std::getenv(kShimLogVariable.data());
  if (path == nullptr || path[0] == '\0') return;
  int fd = ::open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) {
    std::fprintf(stderr, "barracuda: cannot open %s=%s: %s\n", kShimLogVariable.data(), path, std::strerror(errno));
    return;
  }
  // Lives for the rest of the process: hooks may log from other threads until exit.
  auto* log = new ShimLog(fd);
  add_module_observer(*log);
  add_launch_observer(*log);
  add_runtime_compilation_observer(*log);
  add_memory_observer(*log);
}

}  // namespace barracuda::shim
