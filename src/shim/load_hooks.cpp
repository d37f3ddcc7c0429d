// Module loads go through the transformer and are announced to the module observers; the lookups that
// turn a module into kernel handles feed the kernel registry.
#include <fstream>
#include <iterator>
#include <optional>
#include <string>

#include "shim/interceptors.h"
#include "shim/real_driver.h"
#include "shim/reentrancy_guard.h"
#include "shim/shim_runtime.h"

namespace barracuda::shim {
namespace {

ModuleImage describe_image(HookedSymbol entry, const void* image) {
  ImageKind kind = classify_image(image);
  return ModuleImage{shim_runtime().next_module_id(), entry, image, kind, image_size(image, kind)};
}

LoadedHandle loaded_handle(CUmodule module) { return LoadedHandle{module, nullptr}; }
LoadedHandle loaded_handle(CUlibrary library) { return LoadedHandle{nullptr, library}; }

// `load(image)` performs the driver call on the given image and writes *handle on success.
template <typename Handle, typename Load>
CUresult observe_module_load(HookedSymbol entry, const void* image, Handle* handle, Load&& load) {
  ReentrancyGuard guard;
  if (guard.nested()) return load(image);
  ShimRuntime& runtime = shim_runtime();
  ModuleImage original = describe_image(entry, image);
  const void* loaded = image;
  ModuleTransformer* transformer = runtime.transformer.load(std::memory_order_acquire);
  if (transformer != nullptr) {
    if (const void* replacement = transformer->transform(original)) loaded = replacement;
  }
  CUresult result = load(loaded);
  if (result == CUDA_SUCCESS && handle != nullptr) {
    runtime.kernels.add_module(*handle, original.id);
    if (loaded != image) transformer->loaded(original, loaded_handle(*handle));
  }
  ModuleLoad load_event{original, loaded, result};
  runtime.module_observers.for_each([&](ModuleObserver& observer) { observer.on_module_load(load_event); });
  return result;
}

// A module file's bytes, NUL-terminated (a PTX file need not end in one); null when it cannot be read,
// and the driver then reports the failure itself.
std::optional<std::string> read_module_file(const char* path) {
  if (path == nullptr) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) return std::nullopt;
  bytes.push_back('\0');
  return bytes;
}

// Modules loaded from a file go through the transformer like any other: the file is read here, and a
// replacement is loaded from memory with the driver's own load-from-memory entry point (`load_data`);
// without one, the driver loads the file itself as the application asked.
template <typename Handle, typename LoadFile, typename LoadData>
CUresult observe_file_load(HookedSymbol entry, const char* path, Handle* handle, LoadFile&& load_file,
                           LoadData&& load_data) {
  std::optional<std::string> bytes = read_module_file(path);
  if (!bytes) return load_file();
  return observe_module_load(entry, bytes->data(), handle, [&](const void* image) {
    return image == bytes->data() ? load_file() : load_data(image);
  });
}

void announce_link_input(const LinkInput& input) {
  ReentrancyGuard guard;
  if (guard.nested()) return;
  shim_runtime().module_observers.for_each([&](ModuleObserver& observer) { observer.on_link_input(input); });
}

}  // namespace

CUresult intercept_library_load_data(const DriverEntry& entry, CUlibrary* library, const void* code,
                                     CUjit_option* jit_options, void** jit_option_values,
                                     unsigned int jit_option_count, CUlibraryOption* library_options,
                                     void** library_option_values, unsigned int library_option_count) {
  auto real = entry.real_as<PFN_cuLibraryLoadData_v12000>();
  return observe_module_load(entry.symbol, code, library, [&](const void* image) {
    return real(library, image, jit_options, jit_option_values, jit_option_count, library_options,
                library_option_values, library_option_count);
  });
}

CUresult intercept_module_load_data(const DriverEntry& entry, CUmodule* module, const void* image) {
  auto real = entry.real_as<PFN_cuModuleLoadData_v2000>();
  return observe_module_load(entry.symbol, image, module, [&](const void* loaded) { return real(module, loaded); });
}

CUresult intercept_module_load_data_ex(const DriverEntry& entry, CUmodule* module, const void* image,
                                       unsigned int option_count, CUjit_option* options, void** option_values) {
  auto real = entry.real_as<PFN_cuModuleLoadDataEx_v2010>();
  return observe_module_load(entry.symbol, image, module, [&](const void* loaded) {
    return real(module, loaded, option_count, options, option_values);
  });
}

CUresult intercept_module_load_fat_binary(const DriverEntry& entry, CUmodule* module, const void* fatbin) {
  auto real = entry.real_as<PFN_cuModuleLoadFatBinary_v2000>();
  return observe_module_load(entry.symbol, fatbin, module, [&](const void* loaded) { return real(module, loaded); });
}

CUresult intercept_module_load(const DriverEntry& entry, CUmodule* module, const char* path) {
  auto real = entry.real_as<PFN_cuModuleLoad_v2000>();
  return observe_file_load(
      entry.symbol, path, module, [&] { return real(module, path); },
      [&](const void* image) {
        static const auto load_data = reinterpret_cast<PFN_cuModuleLoadData_v2000>(libcuda_symbol("cuModuleLoadData"));
        return load_data != nullptr ? load_data(module, image) : CUDA_ERROR_NOT_INITIALIZED;
      });
}

CUresult intercept_library_load_from_file(const DriverEntry& entry, CUlibrary* library, const char* path,
                                          CUjit_option* jit_options, void** jit_option_values,
                                          unsigned int jit_option_count, CUlibraryOption* library_options,
                                          void** library_option_values, unsigned int library_option_count) {
  auto real = entry.real_as<PFN_cuLibraryLoadFromFile_v12000>();
  return observe_file_load(
      entry.symbol, path, library,
      [&] {
        return real(library, path, jit_options, jit_option_values, jit_option_count, library_options,
                    library_option_values, library_option_count);
      },
      [&](const void* image) {
        static const auto load_data = reinterpret_cast<PFN_cuLibraryLoadData_v12000>(libcuda_symbol("cuLibraryLoadData"));
        return load_data != nullptr ? load_data(library, image, jit_options, jit_option_values, jit_option_count,
                                                library_options, library_option_values, library_option_count)
                                    : CUDA_ERROR_NOT_INITIALIZED;
      });
}

CUresult intercept_link_add_data(const DriverEntry& entry, CUlinkState state, CUjitInputType type, void* data,
                                 size_t size, const char* name, unsigned int option_count, CUjit_option* options,
                                 void** option_values) {
  auto real = entry.real_as<PFN_cuLinkAddData_v6050>();
  CUresult result = real(state, type, data, size, name, option_count, options, option_values);
  announce_link_input(LinkInput{{Linker::kDriver, state}, type, data, size, name, false, result});
  return result;
}

CUresult intercept_link_add_file(const DriverEntry& entry, CUlinkState state, CUjitInputType type, const char* path,
                                 unsigned int option_count, CUjit_option* options, void** option_values) {
  auto real = entry.real_as<PFN_cuLinkAddFile_v6050>();
  CUresult result = real(state, type, path, option_count, options, option_values);
  announce_link_input(LinkInput{{Linker::kDriver, state}, type, nullptr, 0, path, true, result});
  return result;
}

CUresult intercept_link_complete(const DriverEntry& entry, CUlinkState state, void** cubin, size_t* size) {
  CUresult result = entry.real_as<PFN_cuLinkComplete_v5050>()(state, cubin, size);
  ReentrancyGuard guard;
  if (!guard.nested()) {
    const bool linked = result == CUDA_SUCCESS && cubin != nullptr && size != nullptr;
    LinkOutput output{{Linker::kDriver, state}, linked ? *cubin : nullptr, linked ? *size : 0, result};
    shim_runtime().module_observers.for_each([&](ModuleObserver& observer) { observer.on_link_complete(output); });
  }
  return result;
}

CUresult intercept_link_destroy(const DriverEntry& entry, CUlinkState state) {
  {
    ReentrancyGuard guard;
    if (!guard.nested()) {
      shim_runtime().module_observers.for_each([&](ModuleObserver& observer) { observer.on_link_destroy({Linker::kDriver, state}); });
    }
  }
  return entry.real_as<PFN_cuLinkDestroy_v5050>()(state);
}

CUresult intercept_module_get_function(const DriverEntry& entry, CUfunction* function, CUmodule module,
                                       const char* name) {
  CUresult result = entry.real_as<PFN_cuModuleGetFunction_v2000>()(function, module, name);
  if (result == CUDA_SUCCESS && function != nullptr && name != nullptr) {
    shim_runtime().kernels.add_kernel(*function, module, name);
  }
  return result;
}

CUresult intercept_library_get_kernel(const DriverEntry& entry, CUkernel* kernel, CUlibrary library,
                                      const char* name) {
  CUresult result = entry.real_as<PFN_cuLibraryGetKernel_v12000>()(kernel, library, name);
  if (result == CUDA_SUCCESS && kernel != nullptr && name != nullptr) {
    shim_runtime().kernels.add_kernel(*kernel, library, name);
  }
  return result;
}

CUresult intercept_kernel_get_function(const DriverEntry& entry, CUfunction* function, CUkernel kernel) {
  CUresult result = entry.real_as<PFN_cuKernelGetFunction_v12000>()(function, kernel);
  if (result == CUDA_SUCCESS && function != nullptr) shim_runtime().kernels.add_alias(*function, kernel);
  return result;
}

}  // namespace barracuda::shim
