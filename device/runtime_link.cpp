#include "device/runtime_link.h"

#include <nvJitLink.h>

#include <memory>

#include "device/runtime_ptx.h"

namespace barracuda {
namespace {

struct HandleCloser {
  void operator()(nvJitLinkHandle* handle) const {
    nvJitLinkDestroy(handle);
    delete handle;
  }
};
using LinkHandle = std::unique_ptr<nvJitLinkHandle, HandleCloser>;

std::string error_log(nvJitLinkHandle handle, nvJitLinkResult result, std::string_view step) {
  std::string log = std::string(step) + " failed (nvJitLink error " + std::to_string(result) + ")";
  size_t size = 0;
  if (nvJitLinkGetErrorLogSize(handle, &size) == NVJITLINK_SUCCESS && size > 1) {
    std::string text(size, '\0');
    nvJitLinkGetErrorLog(handle, text.data());
    text.resize(size - 1);  // the log is NUL-terminated
    log += ":\n" + text;
  }
  return log;
}

}  // namespace

LinkedCubin link_with_device_runtime(const std::vector<PtxModule>& modules, int sm) {
  LinkedCubin linked;
  std::string arch = "-arch=sm_" + std::to_string(sm);
  const char* options[] = {arch.c_str()};
  LinkHandle handle(new nvJitLinkHandle{});
  if (nvJitLinkResult result = nvJitLinkCreate(handle.get(), 1, options); result != NVJITLINK_SUCCESS) {
    linked.error_log = "nvJitLinkCreate(" + arch + ") failed (nvJitLink error " + std::to_string(result) + ")";
    return linked;
  }
  std::vector<PtxModule> inputs = modules;
  inputs.push_back({"barracuda device runtime", device_runtime_ptx()});
  // nvJitLink keeps the name pointers until it completes: the strings must outlive the handle's use.
  std::vector<std::string> names(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    names[i] = inputs[i].name;
    nvJitLinkResult result =
        nvJitLinkAddData(*handle, NVJITLINK_INPUT_PTX, inputs[i].text.data(), inputs[i].text.size(), names[i].c_str());
    if (result != NVJITLINK_SUCCESS) {
      linked.error_log = error_log(*handle, result, "adding " + names[i]);
      return linked;
    }
  }
  if (nvJitLinkResult result = nvJitLinkComplete(*handle); result != NVJITLINK_SUCCESS) {
    linked.error_log = error_log(*handle, result, "linking for " + arch);
    return linked;
  }
  size_t size = 0;
  nvJitLinkGetLinkedCubinSize(*handle, &size);
  linked.cubin.resize(size);
  nvJitLinkGetLinkedCubin(*handle, linked.cubin.data());
  return linked;
}

}  // namespace barracuda
