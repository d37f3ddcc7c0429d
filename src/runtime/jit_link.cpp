#include "runtime/jit_link.h"

#include <nvJitLink.h>

#include <charconv>
#include <memory>

#include "device/runtime_ptx.h"

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

std::vector<char> link_once(const JitRequest& request, uint32_t register_cap) {
  if (request.inputs.empty()) throw JitError("nvJitLink: nothing to link");
  std::vector<std::string> options = jit_options(request, register_cap);
  std::vector<const char*> argv;
  for (const std::string& o : options) argv.push_back(o.c_str());
  // nvJitLink keeps the name pointers (it prints them in link errors), so they outlive the handle.
  std::vector<std::string> names;
  names.reserve(request.inputs.size());
  nvJitLinkHandle raw = nullptr;
  check(nvJitLinkCreate(&raw, static_cast<uint32_t>(argv.size()), argv.data()), nullptr, "create (" + options.front() + ")");
  Handle handle(raw);
  for (const LinkInput& input : request.inputs) {
    const std::string& name = names.emplace_back(input.name);
    const nvJitLinkInputType type = input.kind == LinkInputKind::kObject    ? NVJITLINK_INPUT_CUBIN
                                    : input.kind == LinkInputKind::kLibrary ? NVJITLINK_INPUT_LIBRARY
                                                                            : NVJITLINK_INPUT_PTX;
    check(nvJitLinkAddData(raw, type, input.text.data(), input.text.size(), name.c_str()), raw, "add " + name);
  }
  check(nvJitLinkComplete(raw), raw, "link");
  size_t size = 0;
  check(nvJitLinkGetLinkedCubinSize(raw, &size), raw, "cubin size");
  std::vector<char> cubin(size);
  check(nvJitLinkGetLinkedCubin(raw, cubin.data()), raw, "cubin");
  return cubin;
}

}  // namespace

std::string lto_ir_to_ptx(const std::vector<std::string>& lto_ir, std::string_view arch) {
  if (lto_ir.empty()) throw JitError("nvJitLink: nothing to link");
  const std::string arch_option = "-arch=" + std::string(arch);
  const char* argv[] = {arch_option.c_str(), "-lto", "-ptx"};
  nvJitLinkHandle raw = nullptr;
  check(nvJitLinkCreate(&raw, 3, argv), nullptr, "create (" + arch_option + " -lto -ptx)");
  Handle handle(raw);
  for (const std::string& input : lto_ir) {
    check(nvJitLinkAddData(raw, NVJITLINK_INPUT_LTOIR, input.data(), input.size(), "LTO-IR"), raw, "add LTO-IR");
  }
  check(nvJitLinkComplete(raw), raw, "link");
  size_t size = 0;
  check(nvJitLinkGetLinkedPtxSize(raw, &size), raw, "PTX size");
  std::string ptx(size, '\0');
  check(nvJitLinkGetLinkedPtx(raw, ptx.data()), raw, "PTX");
  while (!ptx.empty() && ptx.back() == '\0') ptx.pop_back();
  return ptx;
}

LinkInput device_runtime_input(std::string_view arch) {
  if (arch == "sm_90" || arch == "sm_90a") {
    return {"barracuda device runtime (sm_90 object)", device_runtime_sm90_object(), LinkInputKind::kObject,
            device_runtime_ptx()};
  }
  return {"barracuda device runtime", device_runtime_ptx()};
}

std::vector<std::string> jit_options(const JitRequest& request, uint32_t register_cap) {
  std::vector<std::string> options{"-arch=" + request.arch};
  if (register_cap != 0) options.push_back("-maxrregcount=" + std::to_string(register_cap));
  // ptxas compiles the module's functions on every core. nvJitLink's own -split-compile does not reach
  // PTX inputs (one thread); forwarded to its ptxas, this one does.
  options.push_back(std::string(kParallelPtxas));
  for (const std::string& o : request.ptxas_options) options.push_back("-Xptxas=" + o);
  return options;
}

LinkedCubin link_to_cubin(const JitRequest& request) {
  try {
    return {link_once(request, 0), 0};
  } catch (const JitError& error) {
    uint32_t limit = lowest_register_limit(error.what());
    if (limit == 0) throw;
    JitRequest capped = request;
    for (LinkInput& input : capped.inputs) {
      if (input.kind == LinkInputKind::kObject && !input.ptx_fallback.empty()) {
        input = {input.name, input.ptx_fallback};
      }
    }
    return {link_once(capped, limit), limit};
  }
}

}  // namespace barracuda::runtime
