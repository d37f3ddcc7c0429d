#pragma once
// The PTX behind cubins the application compiled at run time. Such a cubin holds no PTX to instrument,
// but its PTX passed through the process on the way:
//   - NVRTC still holds a program's PTX when the application takes its cubin
//     (shim/runtime_compilation_observer.h);
//   - a JIT link (cuLinkAddData / cuLinkAddFile, then cuLinkComplete; or the application's own nvJitLink)
//     was given its PTX inputs (shim/module_observer.h).
// Kept by the cubin's content, because the application may copy the cubin before loading it. NVRTC
// PTX is also kept on disk beside the cubin cache, because programs keep NVRTC's cubins in caches of
// their own and load them in later runs without compiling again.
#include <cuda.h>

#include <cstddef>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "shim/module_observer.h"
#include "shim/runtime_compilation_observer.h"

namespace barracuda::runtime {

// What is known of a cubin compiled at run time.
struct RuntimeCompiledModule {
  // Linked together, the PTX modules and the LTO-IR (once turned into PTX: jit_link.h) make the
  // cubin's code; both empty if not checkable.
  std::vector<std::string> ptx;
  std::vector<std::string> lto_ir;
  std::string not_checkable;  // why not
};

class RuntimeCompiledPtx final : public shim::RuntimeCompilationObserver, public shim::ModuleObserver {
 public:
  // `dir` keeps NVRTC's PTX for later runs; empty: only this process's cubins are known.
  explicit RuntimeCompiledPtx(std::filesystem::path dir) : dir_(std::move(dir)) {}

  void on_cubin_compiled(const shim::RuntimeCompiledCubin& compiled) override;
  void on_module_load(const shim::ModuleLoad&) override {}
  void on_link_input(const shim::LinkInput& input) override;
  void on_link_complete(const shim::LinkOutput& output) override;
  void on_link_destroy(shim::LinkId link) override;

  // What is known of the cubin at `cubin` (`size` bytes: its ELF extent, as shim::image_size gives it):
  // compiled by NVRTC or linked by cuLinkComplete in this run, or by NVRTC in an earlier run with the
  // same directory.
  std::optional<RuntimeCompiledModule> find(const void* cubin, std::size_t size) const;

 private:
  void remember(const void* cubin, std::size_t size, RuntimeCompiledModule module);
  std::filesystem::path entry_path(const std::string& key) const { return dir_ / (key + ".ptx"); }

  std::filesystem::path dir_;
  mutable std::mutex mutex_;
  std::map<std::string, RuntimeCompiledModule> modules_;  // by cubin key
  std::map<shim::LinkId, RuntimeCompiledModule> links_;  // the inputs of each link in progress
};

}  // namespace barracuda::runtime
