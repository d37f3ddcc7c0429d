#include "runtime/sass_backend.h"

#include <dlfcn.h>

#include <algorithm>

#include <cstdlib>
#include <cstring>
#include <string_view>

#include "barracuda/sass_kernel.h"
#include "device/sass_patch_fatbin.h"
#include "fatbin/error.h"
#include "runtime/library_code.h"
#include "runtime/driver_api.h"
#include "runtime/queue_host.h"

namespace barracuda::runtime {
namespace sanitizer {
namespace {

template <typename Function>
bool resolve(void* library, Function& slot, const char* name, std::string& error) {
  slot = reinterpret_cast<Function>(dlsym(library, name));
  if (slot == nullptr && error.empty()) error = std::string("it has no ") + name;
  return slot != nullptr;
}

}  // namespace

Library Library::open(std::string& error) {
  std::vector<std::string> candidates;
  if (const char* path = std::getenv("BARRACUDA_SANITIZER_LIBRARY")) candidates.emplace_back(path);
  if (const char* home = std::getenv("CUDA_HOME")) candidates.push_back(std::string(home) + "/compute-sanitizer/libsanitizer-public.so");
  candidates.emplace_back("/usr/local/cuda/compute-sanitizer/libsanitizer-public.so");
  candidates.emplace_back("libsanitizer-public.so");
  void* library = nullptr;
  for (const std::string& path : candidates) {
    if ((library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) != nullptr) break;
  }
  Library api;
  if (library == nullptr) {
    error = "libsanitizer-public.so (the Compute Sanitizer API, in the CUDA toolkit's compute-sanitizer folder) "
            "was not found; set BARRACUDA_SANITIZER_LIBRARY or CUDA_HOME";
    return api;
  }
  resolve(library, api.subscribe, "sanitizerSubscribe", error);
  resolve(library, api.enable_domain, "sanitizerEnableDomain", error);
  resolve(library, api.add_patches, "sanitizerAddPatches", error);
  resolve(library, api.patch_instructions, "sanitizerPatchInstructions", error);
  resolve(library, api.patch_module, "sanitizerPatchModule", error);
  resolve(library, api.set_callback_data, "sanitizerSetCallbackData", error);
  resolve(library, api.function_pc_and_size, "sanitizerGetFunctionPcAndSize", error);
  resolve(library, api.result_string, "sanitizerGetResultString", error);
  if (!error.empty()) return Library{};
  return api;
}

std::string Library::describe(Result result) const {
  const char* text = nullptr;
  if (result_string == nullptr || result_string(result, &text) != kSuccess || text == nullptr) text = "error";
  return std::string(text) + " (" + std::to_string(result) + ")";
}

}  // namespace sanitizer

namespace {

// Kernels of patched modules with an entry (SassKernelData) each: 128 KiB of device memory.
constexpr uint32_t kMaxKernels = 4096;

// Images of the tool's own (instrumented modules, its helper kernels) name its symbols.
bool is_tools_own(const char* image, size_t bytes) {
  constexpr std::string_view kMarker = "__barracuda_";
  return image != nullptr && memmem(image, bytes, kMarker.data(), kMarker.size()) != nullptr;
}

}  // namespace

SassBackend::SassBackend(SiteRegistry& sites, Message message) : sites_(sites), message_(std::move(message)) {}

SassBackend::~SassBackend() {
  // The contexts are gone at exit (the driver freed the memory with them).
  for (auto& [context, table] : tables_) {
    if (table.memory) table.memory->forget();
  }
}

bool SassBackend::start() {
  std::string error;
  api_ = sanitizer::Library::open(error);
  if (!error.empty()) {
    message_("barracuda: the SASS back end is off: " + error + "; modules without PTX stay unchecked");
    return false;
  }
  sanitizer::Result result = api_.subscribe(&subscriber_, &SassBackend::on_callback, this);
  if (result == sanitizer::kSuccess) {
    result = api_.enable_domain(1, subscriber_, static_cast<int>(sanitizer::Domain::kResource));
  }
  if (result != sanitizer::kSuccess) {
    message_("barracuda: the SASS back end is off: " + failure("subscribing to the Compute Sanitizer API", result));
    return false;
  }
  active_ = true;
  return true;
}

void SassBackend::on_callback(void* self, int domain, uint32_t cbid, const void* data) {
  if (domain != static_cast<int>(sanitizer::Domain::kResource)) return;
  const auto& module = *static_cast<const sanitizer::ModuleData*>(data);
  if (cbid == sanitizer::kModuleLoaded) static_cast<SassBackend*>(self)->on_module_loaded(module);
  if (cbid == sanitizer::kModuleUnloadStarting) static_cast<SassBackend*>(self)->on_module_unloading(module.module);
}

void SassBackend::on_module_unloading(CUmodule module) {
  std::lock_guard lock(mutex_);
  if (patched_.erase(module) == 0) return;
  for (auto it = entry_of_.begin(); it != entry_of_.end();) {
    if (it->second.module != module) {
      ++it;
      continue;
    }
    EntryTable& table = tables_[it->second.context];
    table.free.push_back(it->second.index);
    table.producers_of[it->second.index] = 0;
    it = entry_of_.erase(it);
  }
}

void SassBackend::skip_kernel(const std::string& kernel, std::string reason) {
  if (skipped_kernels_.insert(kernel).second) skipped_.push_back({kernel, std::move(reason)});
}

void SassBackend::on_module_loaded(const sanitizer::ModuleData& loaded) {
  if (is_tools_own(loaded.cubin, loaded.cubin_bytes)) return;
  std::lock_guard lock(mutex_);
  const std::string_view image = loaded.cubin != nullptr ? std::string_view(loaded.cubin, loaded.cubin_bytes) : "";
  if (const std::optional<std::string> library = library_code_in(image)) {
    library_code_.insert(*library);
    return;
  }
  const std::string name = "a module of " + std::to_string(loaded.cubin_bytes) + " bytes of machine code";
  if (!patches_loaded_.contains(loaded.context)) {
    const sanitizer::Result added = api_.add_patches(device_sass_patch_fatbin().data(), loaded.context);
    if (added != sanitizer::kSuccess) {
      skipped_.push_back({name, failure("loading the SASS back end's patches", added)});
      return;
    }
    patches_loaded_.insert(loaded.context);
  }
  constexpr std::pair<sanitizer::Instruction, const char*> kPatches[] = {
      {sanitizer::Instruction::kBlockEnter, "barracuda_sass_block_enter"},
      {sanitizer::Instruction::kBlockExit, "barracuda_sass_block_exit"},
      {sanitizer::Instruction::kGlobalMemoryAccess, "barracuda_sass_global_access"},
      {sanitizer::Instruction::kSharedMemoryAccess, "barracuda_sass_shared_access"},
      {sanitizer::Instruction::kBarrier, "barracuda_sass_barrier"},
      {sanitizer::Instruction::kSyncwarp, "barracuda_sass_syncwarp"},
  };
  for (const auto& [instruction, callback] : kPatches) {
    const sanitizer::Result result = api_.patch_instructions(static_cast<int>(instruction), loaded.module, callback);
    if (result != sanitizer::kSuccess) {
      skipped_.push_back({name, failure("patching its instructions", result)});
      return;
    }
  }
  const sanitizer::Result result = api_.patch_module(loaded.module);
  if (result != sanitizer::kSuccess) {
    skipped_.push_back({name, failure("patching it", result)});
    return;
  }
  // Source lines where the module has a line table (the cubin is ours only during this call).
  fatbin::KernelLines lines;
  try {
    if (loaded.cubin != nullptr) lines = fatbin::read_cubin_lines({reinterpret_cast<const std::byte*>(loaded.cubin), loaded.cubin_bytes});
  } catch (const std::exception& e) {
    message_("barracuda: " + name + ": its line table is not understood (" + e.what() + "); sites named by offset");
  }
  patched_[loaded.module] = std::move(lines);
}

std::optional<CUdeviceptr> SassBackend::launch_slot_word(CUfunction function, std::string_view kernel,
                                                         const QueueHost& queues) {
  if (!active_) return std::nullopt;
  const DriverApi& driver = driver_api();
  CUmodule module = nullptr;
  if (driver.func_get_module(&module, function) != CUDA_SUCCESS) {
    // A CUkernel (cudaLaunchKernel passes those): its function in the current context.
    CUfunction in_context = nullptr;
    if (driver.kernel_get_function(&in_context, reinterpret_cast<CUkernel>(function)) != CUDA_SUCCESS ||
        driver.func_get_module(&module, in_context) != CUDA_SUCCESS) {
      return std::nullopt;
    }
    function = in_context;
  }
  std::lock_guard lock(mutex_);
  if (!patched_.contains(module)) return std::nullopt;
  const std::optional<Entry> entry = kernel_entry(module, function, kernel);
  if (!entry) return std::nullopt;
  EntryTable& table = tables_.at(entry->context);
  const CUdeviceptr address = table.memory->address() + uint64_t{entry->index} * sizeof(SassKernelData);
  if (table.producers_of[entry->index] != queues.device_address()) {
    // Between launches of the kernel (the monitor issues none while another runs on old queues).
    const CUdeviceptr producers = queues.device_address();
    if (driver.memcpy_htod(address + offsetof(SassKernelData, producers), &producers, sizeof producers) != CUDA_SUCCESS) {
      return std::nullopt;
    }
    table.producers_of[entry->index] = producers;
  }
  return address + offsetof(SassKernelData, launch_slot);
}

std::optional<SassBackend::Entry> SassBackend::kernel_entry(CUmodule module, CUfunction function,
                                                            std::string_view kernel) {
  if (const auto found = entry_of_.find(function); found != entry_of_.end()) return found->second;
  CUcontext context = nullptr;
  driver_api().ctx_get_current(&context);
  const std::string name(kernel);
  EntryTable& entries = tables_[context];
  try {
    if (!entries.memory) {
      entries.memory = std::make_unique<ToolDeviceMemory>(size_t{kMaxKernels} * sizeof(SassKernelData));
      entries.producers_of.assign(kMaxKernels, 0);
    }
  } catch (const std::exception& e) {
    skip_kernel(name, std::string("no device memory for the SASS back end: ") + e.what());
    return std::nullopt;
  }
  if (entries.free.empty() && entries.next >= kMaxKernels) {
    skip_kernel(name, "the SASS back end checks up to 4096 kernels of one GPU at a time");
    return std::nullopt;
  }
  uint64_t pc = 0, bytes = 0;
  if (const sanitizer::Result found = api_.function_pc_and_size(module, name.c_str(), &pc, &bytes);
      found != sanitizer::kSuccess) {
    skip_kernel(name, failure("finding the kernel's code", found));
    return std::nullopt;
  }
  // One site per instruction, named by its offset, with its source line where the module has a line table.
  const fatbin::KernelLines& module_lines = patched_.at(module);
  const auto kernel_lines = module_lines.find(name);
  trace::ModuleTable table{0, next_site_, {name}, {}};
  const uint32_t sites = sass_site_count(bytes);
  table.sites.reserve(sites);
  for (uint32_t i = 0; i + 1 < sites; ++i) {
    const uint64_t offset = uint64_t{i} * kSassInstructionBytes;
    trace::SiteInfo site{name + "+" + fatbin::hex(offset) + " (SASS)"};
    if (kernel_lines != module_lines.end()) {
      if (const fatbin::SassLine* row = fatbin::line_at(kernel_lines->second, offset)) {
        site.file = row->file;
        site.line = row->line;
      }
    }
    table.sites.push_back(std::move(site));
  }
  table.sites.push_back({name + " (SASS, in a function it calls)"});
  const uint32_t index = entries.free.empty() ? entries.next : entries.free.back();
  const SassKernelData data{nullptr, pc, bytes, kNoLaunchSlot, next_site_};
  const CUdeviceptr address = entries.memory->address() + uint64_t{index} * sizeof(SassKernelData);
  if (driver_api().memcpy_htod(address, &data, sizeof data) != CUDA_SUCCESS) return std::nullopt;
  if (const sanitizer::Result set = api_.set_callback_data(function, reinterpret_cast<const void*>(address));
      set != sanitizer::kSuccess) {
    skip_kernel(name, failure("giving the kernel its data", set));
    return std::nullopt;
  }
  next_site_ += sites;
  sites_.add(std::move(table));
  if (entries.free.empty()) {
    ++entries.next;
  } else {
    entries.free.pop_back();
  }
  const Entry entry{module, context, index};
  entry_of_.emplace(function, entry);
  entries.producers_of[index] = 0;
  if (std::find(kernels_.begin(), kernels_.end(), name) == kernels_.end()) kernels_.push_back(name);
  return entry;
}

std::string SassBackend::failure(const char* what, sanitizer::Result result) const {
  return std::string(what) + " failed: " + api_.describe(result);
}

std::vector<SkippedModule> SassBackend::skipped() const {
  std::lock_guard lock(mutex_);
  return skipped_;
}

std::vector<std::string> SassBackend::kernels() const {
  std::lock_guard lock(mutex_);
  return kernels_;
}

std::set<std::string> SassBackend::library_code() const {
  std::lock_guard lock(mutex_);
  return library_code_;
}

}  // namespace barracuda::runtime
