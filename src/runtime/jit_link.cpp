#include "runtime/jit_link.h"

#include <nvJitLink.h>

#include <memory>

namespace barracuda::runtime {
namespace {

struct HandleDeleter {
  void operator()(nvJitLinkHandle h) const { nvJitLinkDestroy(&h); }
};
using Handle = std::unique_ptr<std::remove_pointer_t<nvJitLinkHandle>, HandleDeleter>;

std::string error_log(nvJitLinkHandle h) {
  size_t size = 0;
  if (nvJitLinkGetErrorLogSize(h, &size) != NVJITLINK_SUCCESS || size == 0) return {};
  std::string log(size, '\0');
  if (nvJitLinkGetErrorLog(h, log.data()) != NVJITLINK_SUCCESS) return {};
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

void check(nvJitLinkResult r, nvJitLinkHandle h, const std::string& step) {
  if (r == NVJITLINK_SUCCESS) return;
  std::string message = "nvJitLink " + step + " failed (error " + std::to_string(static_cast<int>(r)) + ")";
  if (h) {
    std::string log = error_log(h);
    if (!log.empty()) message += ":\n" + log;
  }
  throw JitError(message);
}

}  // namespace

std::vector<std::string> jit_options(const JitRequest& request) {
  std::vector<std::string> options{"-arch=sm_" + std::to_string(request.sm_arch)};
  for (const std::string& o : request.ptxas_options) options.push_back("-Xptxas=" + o);
  return options;
}

std::vector<char> link_to_cubin(const JitRequest& request) {
  if (request.inputs.empty()) throw JitError("nvJitLink: nothing to link");
  std::vector<std::string> options = jit_options(request);
  std::vector<const char*> argv;
  for (const std::string& o : options) argv.push_back(o.c_str());
  // nvJitLink keeps the name pointers (it prints them in link errors), so they outlive the handle.
  std::vector<std::string> names;
  names.reserve(request.inputs.size());
  nvJitLinkHandle raw = nullptr;
  check(nvJitLinkCreate(&raw, static_cast<uint32_t>(argv.size()), argv.data()), nullptr, "create");
  Handle handle(raw);
  for (const PtxInput& input : request.inputs) {
    const std::string& name = names.emplace_back(input.name);
    check(nvJitLinkAddData(raw, NVJITLINK_INPUT_PTX, input.text.data(), input.text.size(), name.c_str()), raw,
          "add " + name);
  }
  check(nvJitLinkComplete(raw), raw, "link");
  size_t size = 0;
  check(nvJitLinkGetLinkedCubinSize(raw, &size), raw, "cubin size");
  std::vector<char> cubin(size);
  check(nvJitLinkGetLinkedCubin(raw, cubin.data()), raw, "cubin");
  return cubin;
}

}  // namespace barracuda::runtime
