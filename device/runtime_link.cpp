#include "device/runtime_link.h"

#include <nvJitLink.h>

#include <charconv>
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

// nvJitLink reports "entry function 'k' with max regcount of 80 calls function 'f' with regcount of 91".
uint32_t lowest_register_limit(std::string_view log) {
  constexpr std::string_view kMarker = "with max regcount of ";
  uint32_t lowest = 0;
  for (size_t at = log.find(kMarker); at != std::string_view::npos; at = log.find(kMarker, at + 1)) {
    uint32_t limit = 0;
    std::from_chars(log.data() + at + kMarker.size(), log.data() + log.size(), limit);
    if (limit != 0 && (lowest == 0 || limit < lowest)) lowest = limit;
  }
  return lowest;
}

LinkedCubin link_once(const std::vector<PtxModule>& inputs, std::string_view target, uint32_t register_cap) {
  LinkedCubin linked;
  linked.register_cap = register_cap;
  std::vector<std::string> options = {"-arch=" + std::string(target)};
  if (register_cap != 0) options.push_back("-maxrregcount=" + std::to_string(register_cap));
  std::vector<const char*> option_pointers;
  for (const std::string& option : options) option_pointers.push_back(option.c_str());
  LinkHandle handle(new nvJitLinkHandle{});
  nvJitLinkResult created =
      nvJitLinkCreate(handle.get(), static_cast<uint32_t>(option_pointers.size()), option_pointers.data());
  if (created != NVJITLINK_SUCCESS) {
    linked.error_log = "nvJitLinkCreate(" + options.front() + ") failed (nvJitLink error " + std::to_string(created) + ")";
    return linked;
  }
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
    linked.error_log = error_log(*handle, result, "linking for " + options.front());
    return linked;
  }
  size_t size = 0;
  nvJitLinkGetLinkedCubinSize(*handle, &size);
  linked.cubin.resize(size);
  nvJitLinkGetLinkedCubin(*handle, linked.cubin.data());
  return linked;
}

}  // namespace

LinkedCubin link_with_device_runtime(const std::vector<PtxModule>& modules, std::string_view target) {
  std::vector<PtxModule> inputs = modules;
  inputs.push_back({"barracuda device runtime", device_runtime_ptx()});
  LinkedCubin linked = link_once(inputs, target, 0);
  if (linked.cubin.empty()) {
    if (uint32_t limit = lowest_register_limit(linked.error_log)) linked = link_once(inputs, target, limit);
  }
  return linked;
}

}  // namespace barracuda
