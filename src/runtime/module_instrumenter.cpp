#include "runtime/module_instrumenter.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>
#include <sstream>

#include "barracuda/queue.h"
#include "barracuda/version.h"
#include "fatbin/error.h"
#include "fatbin/image.h"
#include "fatbin/ptx_select.h"
#include "fatbin/writer.h"
#include "ptx/parser.h"
#include "barracuda/device_launch.h"
#include "ptx/passes/device_launch_copies.h"
#include "ptx/passes/instrument.h"
#include "ptx/passes/runtime_call.h"
#include "ptx/printer.h"
#include "runtime/compile_progress.h"
#include "runtime/cuda_device_runtime_library.h"
#include "runtime/driver_api.h"
#include "runtime/library_code.h"

namespace barracuda::runtime {
namespace {

// PTX whose .target is the arch-specific variant of the device's target (sm_90a for sm_90) must be
// linked for that variant: it may use instructions (wgmma, setmaxnreg) that plain sm_90 rejects.
bool targets_arch_specific(const ptx::Module& module, std::string_view device_target) {
  for (const ptx::ModuleItem& item : module.items) {
    const auto* target = std::get_if<ptx::TargetDirective>(&item);
    if (target == nullptr) continue;
    for (std::string_view name : target->targets) {
      if (name.size() == device_target.size() + 1 && name.starts_with(device_target) && name.back() == 'a') return true;
    }
  }
  return false;
}

// The architectures to compile a module for: the current GPU's first, then the process's other GPUs'
// (distinct), lowest first.
std::vector<unsigned> target_archs(unsigned arch, const std::function<std::vector<unsigned>()>& others) {
  std::vector<unsigned> targets{arch};
  if (!others) return targets;
  std::vector<unsigned> rest = others();
  std::sort(rest.begin(), rest.end());
  for (const unsigned other : rest) {
    if (std::find(targets.begin(), targets.end(), other) == targets.end()) targets.push_back(other);
  }
  return targets;
}

// A fat binary holding `cubins` (one per architecture), as cuModuleLoadData and cuLibraryLoadData take
// it: the driver picks each GPU's own.
std::vector<char> fat_binary_of(const std::vector<std::pair<unsigned, std::vector<char>>>& cubins) {
  std::vector<fatbin::Entry> entries;
  for (const auto& [arch, cubin] : cubins) {
    fatbin::Entry entry;
    entry.kind = fatbin::EntryKind::Cubin;
    entry.arch = fatbin::SmArch{arch};
    entry.version = fatbin::IsaVersion{1, 8};  // as nvcc 13 writes its cubins' entries
    entry.flags = fatbin::flag::k64Bit | fatbin::flag::kHostLinux;
    const auto* bytes = reinterpret_cast<const std::byte*>(cubin.data());
    entry.payload.assign(bytes, bytes + cubin.size());
    entries.push_back(std::move(entry));
  }
  const std::vector<std::byte> container = fatbin::write_container(entries);
  const auto* begin = reinterpret_cast<const char*>(container.data());
  return {begin, begin + container.size()};
}

const std::string kCacheKeyVersion = "barracuda " + std::string(kToolVersion);
// A compile longer than this gets a progress line while it runs (issue "Performance I", item 4).
constexpr std::chrono::milliseconds kCompileProgressAfter{1000};

// One PTX text to instrument and the ptxas options it came with.
struct PtxSource {
  std::string_view text;
  std::string_view ptxas_options;
};

// Why a bare cubin may still be checkable: NVRTC's PTX is only at hand for cubins compiled while
// barracuda watched (a program's own cache of NVRTC output, such as CuPy's, outlives that).
const std::string kCubinOnlyHint =
    "; a cubin NVRTC compiled in a run not under barracuda is not recognised (clear the program's kernel "
    "cache, e.g. CUPY_CACHE_DIR)";

// The shared object (or executable) whose mapped image holds `image`, as "libcufft.so.12": a cubin
// that lies in one was built with it (a library's kernels), not compiled at run time.
std::optional<std::string> shipped_in(const void* image) {
  Dl_info info{};
  if (dladdr(image, &info) == 0 || info.dli_fname == nullptr || *info.dli_fname == '\0') return std::nullopt;
  return std::filesystem::path(info.dli_fname).filename().string();
}

std::string module_name(shim::ModuleId id) { return "module " + std::to_string(static_cast<unsigned>(id)); }

// The entry's ptxas options block as separate arguments ("-O3 -lineinfo" -> {"-O3", "-lineinfo"}).
std::vector<std::string> split_options(std::string_view text) {
  std::vector<std::string> options;
  std::istringstream in{std::string(text)};
  for (std::string word; in >> word;) options.push_back(word);
  return options;
}

// Kernels launched from the device (dynamic parallelism) call the device runtime's launch functions.
// Their grids would log under their parent's launch, which the engine cannot tell apart yet: such
// modules are declined with that reason rather than checked wrongly.
// The module's own .global variables (not those it declares .extern, nor the instrumentation's).
std::vector<std::string> global_variable_names(const ptx::Module& module) {
  std::vector<std::string> names;
  for (const ptx::ModuleItem& item : module.items) {
    const auto* variable = std::get_if<ptx::VariableDeclaration>(&item);
    if (variable != nullptr && variable->space == ptx::StateSpace::Global && variable->linkage != ptx::Linkage::Extern) {
      names.emplace_back(variable->name);
    }
  }
  return names;
}

std::vector<std::string> kernel_names(const ptx::Module& module) {
  std::vector<std::string> names;
  for (const ptx::Function* function : module.functions()) {
    // A kernel's copies for its launches from the device are the kernel.
    if (function->is_entry && function->is_definition && !function->name.starts_with(ptx::passes::kUncheckedPrefix) &&
        !function->name.starts_with(BARRACUDA_CHILD_KERNEL_PREFIX)) {
      names.emplace_back(function->name);
    }
  }
  return names;
}

}  // namespace

ModuleInstrumenter::ModuleInstrumenter(InstrumenterConfig config, SiteRegistry& sites,
                                       std::function<SharedQueues()> queues)
    : config_(std::move(config)), sites_(sites), queues_(std::move(queues)) {}

const void* ModuleInstrumenter::transform(const shim::ModuleImage& image) {
  // Runs inside a driver entry point called from C: nothing may escape.
  try {
    if (config_.module_seen) config_.module_seen();
    return instrument(image);
  } catch (const std::exception& e) {
    skip(image, e.what());
  } catch (...) {
    skip(image, "unknown error");
  }
  return nullptr;
}

const void* ModuleInstrumenter::instrument(const shim::ModuleImage& image) {
  if (image.kind == shim::ImageKind::Unknown) {
    skip(image, "unrecognised image format");
    return nullptr;
  }
  // Option sass_only: every module goes to the SASS back end, PTX or not (the back ends' differential).
  if (config_.machine_code_only && config_.machine_code_checked && config_.machine_code_checked()) return nullptr;
  const auto start = std::chrono::steady_clock::now();
  const fatbin::Image decoded = fatbin::read_image(image.data, image.size);
  const unsigned arch = config_.device_arch();
  // With GPUs of several architectures, the PTX for the lowest, compiled for each (PTX compiles for
  // later architectures); where the module has none that low, the current GPU's alone.
  std::vector<unsigned> targets = target_archs(arch, config_.other_device_archs);
  // One PTX per container: a relocatable-device-code (-rdc) module keeps each object's PTX in its own
  // prelinked container, and only all of them linked together make the module.
  std::vector<PtxSource> sources;
  for (const unsigned ptx_arch : {*std::min_element(targets.begin(), targets.end()), arch}) {
    for (const fatbin::Entry* entry : fatbin::select_ptx_per_container(decoded.containers, fatbin::SmArch{ptx_arch})) {
      sources.push_back({entry->text(), entry->ptxas_options});
    }
    if (!sources.empty()) break;
    targets = {arch};
  }
  // A cubin compiled at run time (NVRTC, a JIT link) may still have its PTX at hand.
  std::optional<RuntimeCompiledModule> runtime_compiled;
  if (sources.empty() && image.kind == shim::ImageKind::Elf && image.size && config_.runtime_compiled) {
    runtime_compiled = config_.runtime_compiled(image.data, *image.size);
    if (runtime_compiled && !runtime_compiled->not_checkable.empty()) {
      skip(image, runtime_compiled->not_checkable);
      return nullptr;
    }
    if (runtime_compiled && !runtime_compiled->lto_ir.empty()) {
      // LTO-IR becomes PTX the way the application's link optimised it (nvJitLink -lto).
      runtime_compiled->ptx.push_back(lto_ir_to_ptx(runtime_compiled->lto_ir, "sm_" + std::to_string(arch)));
    }
    if (runtime_compiled) {
      for (const std::string& text : runtime_compiled->ptx) sources.push_back({text, {}});
    }
  }
  if (sources.empty()) {
    if (config_.machine_code_checked && config_.machine_code_checked()) {
      if (config_.message) config_.message(module_name(image.id) + " has no PTX: left to the SASS back end");
      return nullptr;
    }
    const std::optional<std::string> library = shipped_in(image.data);
    skip(image, "no PTX for sm_" + std::to_string(arch) + " in the module (cubin only" +
                    (library ? ", shipped in " + *library + ")" : ")") +
                    (image.kind == shim::ImageKind::Elf && !library ? kCubinOnlyHint : ""));
    return nullptr;
  }
  for (const PtxSource& source : sources) {
    if (std::optional<std::string> library = library_code_in(source.text)) {
      if (config_.message) config_.message(module_name(image.id) + " is library code, not checked: " + *library);
      std::lock_guard lock(mutex_);
      library_code_.insert(std::move(*library));
      return nullptr;
    }
  }
  std::vector<std::string> texts;
  std::vector<trace::ModuleTable> tables;
  std::vector<std::string> kernels;
  std::vector<std::string> variables;
  ptx::passes::UnloggedMemory unlogged;
  std::map<std::string, std::vector<uint32_t>> read_only;
  std::set<std::string, std::less<>> global_checkable;
  std::set<std::string, std::less<>> grid_sync_kernels;
  bool links_device_runtime = false;
  std::vector<std::string> unchecked_children;  // kernels launched from the device whose child grids run unchecked
  uint32_t next_site = sites_.next_id();
  std::string link_arch = "sm_" + std::to_string(arch);
  for (const PtxSource& source : sources) {
    ptx::ParseResult parsed = ptx::parse(std::string(source.text));
    if (!parsed) {
      skip(image, "PTX not understood: " + parsed.error.to_string());
      return nullptr;
    }
    if (ptx::passes::launches_from_the_device(*parsed.module)) {
      if (!cuda_device_runtime_library()) {
        skip(image, "it launches kernels from the device (dynamic parallelism) and libcudadevrt.a, which it must be "
                    "linked with, was not found (set CUDA_HOME to the CUDA toolkit)");
        return nullptr;
      }
      links_device_runtime = true;
    }
    ptx::passes::DeviceLaunchedKernels children = ptx::passes::copy_device_launched_kernels(*parsed.module);
    if (!children.checked) {
      for (std::string& kernel : children.kernels) unchecked_children.push_back(std::move(kernel));
    }
    if (targets_arch_specific(*parsed.module, link_arch)) link_arch += 'a';
    std::vector<std::string> object_variables = global_variable_names(*parsed.module);
    variables.insert(variables.end(), object_variables.begin(), object_variables.end());
    ptx::passes::InstrumentOptions pass_options = config_.passes;
    pass_options.first_site_id = next_site;
    ptx::passes::InstrumentResult result = ptx::passes::instrument_module(*parsed.module, pass_options);
    next_site += static_cast<uint32_t>(result.sites.sites().size());
    if (result.statistics.hardened_instructions != 0 && config_.message) {
      config_.message(module_name(image.id) + ": harden: " + std::to_string(result.statistics.hardened_instructions) +
                      " instructions given a fence after them or a wider scope");
    }
    if (result.perturbation_declined && config_.message) {
      config_.message(module_name(image.id) + " runs without schedule perturbation: " + *result.perturbation_declined);
    }
    if (result.block_order_declined && config_.message) {
      config_.message(module_name(image.id) + " keeps the natural block order: " + *result.block_order_declined);
    }
    unlogged.merge(result.unlogged_memory);
    read_only.merge(result.read_only_parameters);
    global_checkable.merge(result.global_checkable_kernels);
    grid_sync_kernels.merge(result.grid_sync_kernels);
    std::vector<std::string> object_kernels = kernel_names(*parsed.module);
    kernels.insert(kernels.end(), object_kernels.begin(), object_kernels.end());
    tables.push_back(module_table(static_cast<uint32_t>(image.id), result.sites, std::move(object_kernels)));
    texts.push_back(ptx::to_string(*parsed.module));
  }

  const std::string name = module_name(image.id);
  size_t ptx_bytes = 0;
  for (const std::string& text : texts) ptx_bytes += text.size();
  // A compile that outlasts a second says so while it runs (a cache hit never does).
  CompileProgress progress(config_.message, kCompileProgressAfter,
                           "compiling instrumented " + name + " (" + std::to_string(kernels.size()) + " kernels, " +
                               std::to_string((ptx_bytes + 1023) >> 10) + " KiB of PTX); this can take a while");
  // An arch-specific target (sm_90a) is the current GPU's alone.
  if (link_arch.back() == 'a') targets = {arch};
  bool compiled = false;
  std::vector<std::pair<unsigned, std::vector<char>>> cubins;
  for (const unsigned target : targets) {
    const std::string target_arch = target == arch ? link_arch : "sm_" + std::to_string(target);
    JitRequest request{{}, target_arch, split_options(sources.front().ptxas_options)};
    for (const std::string& text : texts) request.inputs.push_back({name, text});
    request.inputs.push_back(device_runtime_input(target_arch));
    if (links_device_runtime) {
      request.inputs.push_back({"libcudadevrt.a", *cuda_device_runtime_library(), LinkInputKind::kLibrary});
    }
    bool compiled_now = false;
    cubins.emplace_back(target, cached_link_to_cubin(config_.cache, request, kCacheKeyVersion, &compiled_now));
    compiled |= compiled_now;
  }
  std::vector<char> cubin = cubins.size() == 1 ? std::move(cubins.front().second) : fat_binary_of(cubins);
  const std::chrono::nanoseconds elapsed = std::chrono::steady_clock::now() - start;
  progress.finish();
  if ((progress.reported() || config_.verbose) && config_.message) {
    config_.message(name + (compiled ? " compiled in " : " loaded from cache in ") +
                    std::to_string(std::chrono::duration<double>(elapsed).count()) + " s");
  }
  for (trace::ModuleTable& table : tables) {
    if (config_.instrumented) config_.instrumented(table);
    sites_.add(std::move(table));
  }
  std::lock_guard lock(mutex_);
  if (!unchecked_children.empty()) {
    std::string names;
    for (const std::string& kernel : unchecked_children) names += (names.empty() ? "" : ", ") + kernel;
    skipped_.push_back({name + " (" + names + ")",
                        "child grids launched from the device (dynamic parallelism) run unchecked: a launch the "
                        "instrumentation could not follow; launches of these kernels from the host are checked"});
  }
  if (links_device_runtime) launches_from_device_.insert(image.id);
  if (config_.passes.log_nothing) skipped_.push_back({name, "hardened and run without logging (harden_only)"});
  kernels_.insert(kernels_.end(), kernels.begin(), kernels.end());
  variables_[image.id] = std::move(variables);
  if (!unlogged.empty()) unlogged_[image.id] = std::move(unlogged);
  if (!read_only.empty()) read_only_parameters_[image.id] = std::move(read_only);
  if (!global_checkable.empty()) global_checkable_[image.id] = std::move(global_checkable);
  if (!grid_sync_kernels.empty()) grid_sync_kernels_[image.id] = std::move(grid_sync_kernels);
  if (compiled) {
    ++totals_.compiled;
    totals_.compile_time += elapsed;
  } else {
    ++totals_.cached;
    totals_.cache_load_time += elapsed;
  }
  return images_.emplace_back(std::move(cubin)).data();
}

void ModuleInstrumenter::loaded(const shim::ModuleImage& image, const shim::LoadedHandle& handle) {
  {
    std::lock_guard lock(mutex_);
    handles_[image.id] = handle;
  }
  // A library loads without a current context (cudart's lazy loading does so on a thread that has
  // not used the runtime yet): its queue pointer is then set before its first launch.
  connect(image.id, handle);
}

std::optional<std::string> ModuleInstrumenter::connect(shim::ModuleId id, const shim::LoadedHandle& handle) {
  const DriverApi& api = driver_api();
  const RelaxedCaptureMode relaxed;
  SharedQueues queues;
  try {
    queues = queues_();
  } catch (const std::exception& e) {
    return std::string("cannot set up the event queues: ") + e.what();
  }
  if (queues == nullptr) return std::string("event queues unavailable");
  CUdeviceptr global = 0;
  size_t bytes = 0;
  CUresult found = handle.library != nullptr
                       ? api.library_get_global(&global, &bytes, handle.library, BARRACUDA_QUEUES_SYMBOL)
                       : api.module_get_global(&global, &bytes, handle.module, BARRACUDA_QUEUES_SYMBOL);
  if (found == CUDA_SUCCESS && bytes != sizeof(CUdeviceptr)) found = CUDA_ERROR_INVALID_VALUE;
  if (found != CUDA_SUCCESS) return "event queues unavailable (" + describe(found) + ")";
  try {
    queues->point_module_at_queues(global);
  } catch (const std::exception& e) {
    return std::string("event queues unavailable (") + e.what() + ")";
  }
  if (const uint64_t seed = config_.passes.perturb_seed; seed != 0) {
    // Only modules the perturbation pass rewrote define it (schedule_perturbation.h).
    CUdeviceptr seed_global = 0;
    size_t seed_bytes = 0;
    const CUresult has_seed =
        handle.library != nullptr
            ? api.library_get_global(&seed_global, &seed_bytes, handle.library, BARRACUDA_PERTURB_SEED_SYMBOL)
            : api.module_get_global(&seed_global, &seed_bytes, handle.module, BARRACUDA_PERTURB_SEED_SYMBOL);
    if (has_seed == CUDA_SUCCESS && seed_bytes == sizeof(uint32_t)) {
      try {
        queues->set_perturbation_seed(seed_global, static_cast<uint32_t>(seed ^ (seed >> 32)));
      } catch (const std::exception& e) {
        return std::string("cannot set the perturbation seed (") + e.what() + ")";
      }
    }
  }
  bool first_in_context = false;
  {
    std::lock_guard lock(mutex_);
    const std::pair key{id, queues->context()};
    first_in_context = !pointed_at_.contains(key);
    pointed_at_[key] = queues->id();
  }
  if (first_in_context) locate_variables(id, handle);
  return std::nullopt;
}

void ModuleInstrumenter::locate_variables(shim::ModuleId id, const shim::LoadedHandle& handle) {
  if (!config_.variable_located) return;
  std::vector<std::string> names;
  {
    std::lock_guard lock(mutex_);
    if (const auto found = variables_.find(id); found != variables_.end()) names = found->second;
  }
  const DriverApi& api = driver_api();
  const void* owner = handle.library != nullptr ? static_cast<const void*>(handle.library) : handle.module;
  for (const std::string& name : names) {
    CUdeviceptr base = 0;
    size_t bytes = 0;
    const CUresult found = handle.library != nullptr ? api.library_get_global(&base, &bytes, handle.library, name.c_str())
                                                     : api.module_get_global(&base, &bytes, handle.module, name.c_str());
    if (found == CUDA_SUCCESS) config_.variable_located(owner, name, base, bytes);
  }
}

std::optional<CUdeviceptr> ModuleInstrumenter::launch_slot_global(shim::ModuleId module, std::string_view kernel) {
  shim::LoadedHandle handle;
  CUcontext context = nullptr;
  driver_api().ctx_get_current(&context);
  std::tuple<shim::ModuleId, CUcontext, std::string> key{module, context, std::string(kernel)};
  {
    std::lock_guard lock(mutex_);
    if (const auto found = launch_slot_globals_.find(key); found != launch_slot_globals_.end()) return found->second;
    const auto loaded = handles_.find(module);
    if (loaded == handles_.end()) return std::nullopt;
    handle = loaded->second;
  }
  const std::string name = ptx::passes::launch_slot_global(kernel);
  const DriverApi& api = driver_api();
  CUdeviceptr global = 0;
  size_t bytes = 0;
  const CUresult found = handle.library != nullptr ? api.library_get_global(&global, &bytes, handle.library, name.c_str())
                                                   : api.module_get_global(&global, &bytes, handle.module, name.c_str());
  if (found != CUDA_SUCCESS || bytes != sizeof(uint32_t)) return std::nullopt;
  std::lock_guard lock(mutex_);
  launch_slot_globals_.emplace(std::move(key), global);
  return global;
}

bool ModuleInstrumenter::ready_to_log(shim::ModuleId module, const QueueHost& queues) {
  shim::LoadedHandle handle;
  {
    std::lock_guard lock(mutex_);
    if (const auto state = pointed_at_.find({module, queues.context()});
        state != pointed_at_.end() && state->second == queues.id()) {
      return true;
    }
    const auto loaded = handles_.find(module);
    if (loaded == handles_.end()) return false;
    handle = loaded->second;
  }
  const std::optional<std::string> failure = connect(module, handle);
  if (!failure) return true;
  // With a null queue pointer the device runtime logs nothing; the kernels still run correctly.
  std::lock_guard lock(mutex_);
  if (reported_.insert(module).second) skipped_.push_back({module_name(module), *failure});
  return false;
}

void ModuleInstrumenter::queues_released() {
  std::lock_guard lock(mutex_);
  pointed_at_.clear();
  launch_slot_globals_.clear();
}

std::vector<SkippedModule> ModuleInstrumenter::skipped() const {
  std::lock_guard lock(mutex_);
  return skipped_;
}

std::set<std::string> ModuleInstrumenter::library_code() const {
  std::lock_guard lock(mutex_);
  return library_code_;
}

std::vector<std::string> ModuleInstrumenter::instrumented_kernels() const {
  std::lock_guard lock(mutex_);
  return kernels_;
}

std::vector<uint32_t> ModuleInstrumenter::read_only_parameters(shim::ModuleId module, std::string_view kernel) const {
  std::lock_guard lock(mutex_);
  auto found = read_only_parameters_.find(module);
  if (found == read_only_parameters_.end()) return {};
  auto parameters = found->second.find(std::string(kernel));
  return parameters == found->second.end() ? std::vector<uint32_t>{} : parameters->second;
}

bool ModuleInstrumenter::launches_from_device(shim::ModuleId module) const {
  std::lock_guard lock(mutex_);
  return launches_from_device_.contains(module);
}

bool ModuleInstrumenter::global_checkable(shim::ModuleId module, std::string_view kernel) const {
  std::lock_guard lock(mutex_);
  auto found = global_checkable_.find(module);
  return found != global_checkable_.end() && found->second.contains(kernel);
}

bool ModuleInstrumenter::grid_syncs(shim::ModuleId module, std::string_view kernel) const {
  std::lock_guard lock(mutex_);
  auto found = grid_sync_kernels_.find(module);
  return found != grid_sync_kernels_.end() && found->second.contains(kernel);
}

std::map<std::string, uint64_t> ModuleInstrumenter::unlogged_memory(shim::ModuleId module,
                                                                    std::string_view kernel) const {
  std::lock_guard lock(mutex_);
  auto found = unlogged_.find(module);
  if (found == unlogged_.end()) return {};
  auto kinds = found->second.find(std::string(kernel));
  return kinds == found->second.end() ? std::map<std::string, uint64_t>{} : kinds->second;
}

InstrumentationTotals ModuleInstrumenter::totals() const {
  std::lock_guard lock(mutex_);
  return totals_;
}

void ModuleInstrumenter::skip(const shim::ModuleImage& image, std::string reason) {
  if (config_.message) config_.message(module_name(image.id) + " runs uninstrumented: " + reason);
  std::lock_guard lock(mutex_);
  skipped_.push_back({module_name(image.id), std::move(reason)});
}

}  // namespace barracuda::runtime
