#pragma once
// The SASS back end: checks modules that reach the driver as machine code only (cuBLAS and other
// libraries, Triton, PyTorch's kernels, cubin-only builds). Through NVIDIA's Compute Sanitizer
// patching API, each such module gets calls to the patch module's callbacks (device/sass_patch.cu) at
// its memory accesses, barriers and block entry and exit; they log into the same queues, in the same
// record format, as PTX-instrumented code, so the same engine and report serve both back ends.
//
// The driver enables the API only in a process that loaded the tool as its injection library
// (CUDA_INJECTION64_PATH, which `barracuda run` and the preload library set to libbarracuda.so): its
// InitializeInjection calls start(). Measured on the H200 (CUDA 13, driver 580): under LD_PRELOAD
// alone sanitizerAddPatches refuses every call.
#include <cuda.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "fatbin/cubin_lines.h"
#include "runtime/module_instrumenter.h"
#include "runtime/sanitizer_api.h"
#include "runtime/site_registry.h"
#include "runtime/tool_device_memory.h"

namespace barracuda::runtime {

class QueueHost;

class SassBackend {
 public:
  using Message = std::function<void(const std::string&)>;
  SassBackend(SiteRegistry& sites, Message message);
  ~SassBackend();
  SassBackend(const SassBackend&) = delete;
  SassBackend& operator=(const SassBackend&) = delete;

  // Opens the sanitizer library and subscribes to module loads; false (the reason given to `message`)
  // when it cannot, and every module without PTX then stays unchecked as before.
  bool start();
  bool active() const { return active_; }

  // A launch of `function` (a CUfunction or CUkernel) of a module this back end patched: its kernel's
  // entry is pointed at `queues`, and the address of the entry's launch-slot word is returned (the
  // launch monitor names the launch there, in the launch's stream). nullopt for a function of any
  // other module, or when the entry cannot be made (the reason is among skipped()).
  std::optional<CUdeviceptr> launch_slot_word(CUfunction function, std::string_view kernel, const QueueHost& queues);

  // Modules it could not patch, kernels it checked, and libraries whose kernels it left alone by design.
  std::vector<SkippedModule> skipped() const;
  std::vector<std::string> kernels() const;
  std::set<std::string> library_code() const;

 private:
  static void on_callback(void* self, int domain, uint32_t cbid, const void* data);
  void on_module_loaded(const sanitizer::ModuleData& module);
  // A module about to be unloaded: its kernels' entries are free again (a later module may get the same
  // CUmodule and CUfunction handles).
  void on_module_unloading(CUmodule module);
  // Under mutex_: says once per kernel why it is not checked.
  void skip_kernel(const std::string& kernel, std::string reason);
  struct Entry {
    CUmodule module;
    CUcontext context;  // whose table holds it
    uint32_t index;     // in that table
  };
  // Under mutex_: the kernel's entry (in the current context's table), made on first use; nullopt (and a
  // skipped entry) on failure.
  std::optional<Entry> kernel_entry(CUmodule module, CUfunction function, std::string_view kernel);
  std::string failure(const char* what, sanitizer::Result result) const;

  SiteRegistry& sites_;
  Message message_;
  sanitizer::Library api_;
  sanitizer::SubscriberHandle subscriber_ = nullptr;
  bool active_ = false;

  mutable std::mutex mutex_;
  std::set<CUcontext> patches_loaded_;  // contexts holding the patch module
  std::map<CUmodule, fatbin::KernelLines> patched_;  // with each module's line table (-lineinfo), if any
  // The kernels' entries of one context (each GPU's kernels read theirs from their own memory).
  struct EntryTable {
    std::unique_ptr<ToolDeviceMemory> memory;  // kMaxKernels SassKernelData
    std::vector<uint32_t> free;                // of unloaded modules' kernels
    uint32_t next = 0;                         // entries ever used
    std::vector<CUdeviceptr> producers_of;     // per entry: the producer block it was last pointed at
  };
  std::map<CUcontext, EntryTable> tables_;
  std::map<CUfunction, Entry> entry_of_;   // by the function the module holds
  std::set<std::string> library_code_;
  std::set<std::string, std::less<>> skipped_kernels_;
  uint32_t next_site_ = kFirstSassSite;
  std::vector<std::string> kernels_;
  std::vector<SkippedModule> skipped_;
};

}  // namespace barracuda::runtime
