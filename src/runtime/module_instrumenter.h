#pragma once
// The shim's ModuleTransformer: turns each GPU module the application loads into an instrumented
// cubin (fat binary -> best PTX for the device -> instrumentation passes -> nvJitLink with the device
// runtime, cached), and after the load points the module's `__barracuda_queues` at the event queues.
// Modules it cannot instrument load unchanged and are recorded with the reason.
#include <cuda.h>

#include <deque>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "runtime/cubin_cache.h"
#include "runtime/site_registry.h"
#include "shim/module_transformer.h"

namespace barracuda::runtime {

struct SkippedModule {
  std::string module;  // "module 3" or the kernels it holds
  std::string reason;
};

struct InstrumenterConfig {
  std::function<unsigned()> device_arch;  // compute capability major * 10 + minor of the current device
  CubinCache cache{default_cache_dir()};
  bool verbose = false;
  std::function<void(const std::string&)> message;  // progress and warnings
  std::function<void(const trace::ModuleTable&)> instrumented;  // each module's sites, once compiled
};

class ModuleInstrumenter final : public shim::ModuleTransformer {
 public:
  // `queues` is called after a successful load of an instrumented module and returns the device
  // address of the queue arena (allocating it on first use); 0 means no queues: the module's kernels
  // must then not be run instrumented, which the caller learns through is_instrumented().
  ModuleInstrumenter(InstrumenterConfig config, SiteRegistry& sites, std::function<CUdeviceptr()> queues);

  const void* transform(const shim::ModuleImage& image) override;
  void loaded(const shim::ModuleImage& image, const shim::LoadedHandle& handle) override;

  bool is_instrumented(shim::ModuleId module) const;
  std::vector<SkippedModule> skipped() const;
  std::vector<std::string> instrumented_kernels() const;

 private:
  const void* instrument(const shim::ModuleImage& image);
  void skip(const shim::ModuleImage& image, std::string reason);

  InstrumenterConfig config_;
  SiteRegistry& sites_;
  std::function<CUdeviceptr()> queues_;
  mutable std::mutex mutex_;
  std::deque<std::vector<char>> images_;  // replacement cubins: the driver may keep pointing into them
  std::set<shim::ModuleId> instrumented_;
  std::vector<SkippedModule> skipped_;
  std::vector<std::string> kernels_;
};

}  // namespace barracuda::runtime
