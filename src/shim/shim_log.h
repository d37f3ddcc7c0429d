#pragma once
// Observation mode: one text line per module load, link input and launch, appended to the file named by
// BARRACUDA_SHIM_LOG. Temporary switch until the BARRACUDA_OPTIONS table (branch `report`) is merged,
// where it becomes the `shim_log` option.
//
// Line formats (fields separated by one space, values never contain spaces):
//   load id=<n> entry=<cuModuleLoadData|...> kind=<fatbin-wrapper|fatbin|elf|ptx|unknown> size=<bytes|?>
//        replaced=<yes|no> result=<CUresult>
//   link entry=<cuLinkAddData|cuLinkAddFile|nvJitLinkAddData|nvJitLinkAddFile> type=<CUjitInputType> size=<bytes, 0 for a file> name=<name or path|->
//        result=<CUresult>
//   launch entry=<cuLaunchKernel[_ptsz]|...> kernel=<mangled name|?> module=<load id|?> grid=<x,y,z>
//        block=<x,y,z> shmem=<bytes> stream=<0x...> result=<CUresult>
//        (each kernel node of a graph launch replayed node by node: entry=cuGraphLaunch[_ptsz] and the
//        node's kernel; a graph launch not replayed: entry=cuGraphLaunch[_ptsz] kernel=? grid=0,0,0 ...)
//   graph not replayed: <why, in words>      (after the first launch of an instantiated graph not replayed)
//   nvrtc cubin size=<cubin bytes> ptx=<PTX bytes>      (an NVRTC cubin handed to the app, with its PTX)
//   alloc entry=<cuMemAlloc_v2|...> base=<0x...> size=<bytes> frames=<host frames taken> caller=<object of the
//        innermost one|?>
//   release entry=<cuMemFree_v2|cuMemFreeAsync|cuMemUnmap> base=<0x...> size=<bytes, 0 for a free>
//   unload module=<0x...> library=<0x...>
#include <string_view>

#include "shim/launch_observer.h"
#include "shim/memory_observer.h"
#include "shim/module_observer.h"
#include "shim/runtime_compilation_observer.h"

namespace barracuda::shim {

inline constexpr std::string_view kShimLogVariable = "BARRACUDA_SHIM_LOG";

class ShimLog final : public ModuleObserver,
                      public LaunchObserver,
                      public RuntimeCompilationObserver,
                      public MemoryObserver {
 public:
  // Takes ownership of a file descriptor opened for appending.
  explicit ShimLog(int fd) : fd_(fd) {}
  ~ShimLog() override;
  ShimLog(const ShimLog&) = delete;
  ShimLog& operator=(const ShimLog&) = delete;

  void on_module_load(const ModuleLoad& load) override;
  void on_link_input(const LinkInput& input) override;
  void on_cubin_compiled(const RuntimeCompiledCubin& compiled) override;
  void before_launch(const LaunchCall& launch) override;
  void after_launch(const LaunchCall& launch, CUresult result) override;
  void on_allocation(const DeviceAllocation& allocation) override;
  void on_release(const DeviceRelease& release) override;
  void on_unload(const LoadedHandle& handle) override;

 private:
  // Each line goes out in one write() on an O_APPEND descriptor, so concurrent threads and processes
  // sharing the file never interleave within a line.
  void write_line(const char* format, ...) __attribute__((format(printf, 2, 3)));

  int fd_;
};

// Opens the file named by BARRACUDA_SHIM_LOG (appending, created if missing) and registers a ShimLog as
// module, launch, runtime compilation and memory observer. Does nothing when the variable is unset or empty; says on stderr why when
// the file cannot be opened.
void install_shim_log_from_environment();

}  // namespace barracuda::shim
