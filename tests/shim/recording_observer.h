#pragma once
// Test helper: an observer registered once per test binary that keeps copies of what the hooks reported.
#include <string>
#include <vector>

#include "shim/shim_runtime.h"

namespace barracuda::shim::testing {

struct RecordedLaunch {
  HookedSymbol entry;
  std::string kernel_name;
  ModuleId module;
  Dim3 grid, block;
  unsigned shared_mem_bytes;
  CUstream stream;
  CUresult result;
};

class RecordingObserver final : public ModuleObserver, public LaunchObserver {
 public:
  // The process-wide instance, registered with the shim on first use; cleared by each call.
  static RecordingObserver& fresh() {
    static RecordingObserver* const instance = [] {
      auto* observer = new RecordingObserver();
      add_module_observer(*observer);
      add_launch_observer(*observer);
      return observer;
    }();
    instance->loads.clear();
    instance->links.clear();
    instance->launches.clear();
    instance->launches_begun = 0;
    return *instance;
  }

  void on_module_load(const ModuleLoad& load) override { loads.push_back(load); }
  void on_link_input(const LinkInput& input) override { links.push_back(input); }
  void before_launch(const LaunchCall&) override { ++launches_begun; }
  void after_launch(const LaunchCall& launch, CUresult result) override {
    launches.push_back({launch.entry, std::string(launch.kernel_name), launch.module, launch.grid, launch.block,
                        launch.shared_mem_bytes, launch.stream, result});
  }

  std::vector<ModuleLoad> loads;
  std::vector<LinkInput> links;
  std::vector<RecordedLaunch> launches;
  int launches_begun = 0;
};

}  // namespace barracuda::shim::testing
