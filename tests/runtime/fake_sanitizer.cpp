// A stand-in for libsanitizer-public.so (the Compute Sanitizer API) on machines without it: records what
// the SASS back end asks of it, and lets a test fire the callbacks the driver would (fake_sanitizer_fire).
// Only the functions runtime/sanitizer_api.h resolves; signatures as that header declares them.
#include <cuda.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using Callback = void (*)(void* userdata, int domain, uint32_t cbid, const void* cbdata);
Callback g_callback = nullptr;
void* g_userdata = nullptr;
std::vector<int> g_domains;
int g_patch_loads = 0;
std::vector<std::string> g_patched_instructions;  // "INSTRUCTION:CALLBACK"
std::vector<CUmodule> g_patched_modules;

}  // namespace

extern "C" {

int sanitizerSubscribe(void** subscriber, Callback callback, void* userdata) {
  g_callback = callback;
  g_userdata = userdata;
  *subscriber = &g_callback;
  return 0;
}
int sanitizerEnableDomain(uint32_t enable, void*, int domain) {
  if (enable) g_domains.push_back(domain);
  return 0;
}
int sanitizerAddPatches(const void* image, CUcontext) {
  if (image == nullptr) return 1;
  ++g_patch_loads;
  return 0;
}
int sanitizerPatchInstructions(int instruction, CUmodule, const char* callback) {
  g_patched_instructions.push_back(std::to_string(instruction) + ":" + callback);
  return 0;
}
int sanitizerPatchModule(CUmodule module) {
  g_patched_modules.push_back(module);
  return 0;
}
int sanitizerSetCallbackData(CUfunction, const void*) { return 0; }
int sanitizerGetFunctionPcAndSize(CUmodule, const char*, uint64_t* pc, uint64_t* bytes) {
  *pc = 0x1000;
  *bytes = 0x100;
  return 0;
}
int sanitizerGetResultString(int, const char** text) {
  *text = "FAKE_RESULT";
  return 0;
}

// Test hooks.
void fake_sanitizer_fire(int domain, uint32_t cbid, const void* data) {
  if (g_callback) g_callback(g_userdata, domain, cbid, data);
}
int fake_sanitizer_domains(int at) { return at < static_cast<int>(g_domains.size()) ? g_domains[at] : -1; }
int fake_sanitizer_patch_loads() { return g_patch_loads; }
int fake_sanitizer_patched_instruction_count() { return static_cast<int>(g_patched_instructions.size()); }
const char* fake_sanitizer_patched_instruction(int at) { return g_patched_instructions[at].c_str(); }
int fake_sanitizer_patched_module_count() { return static_cast<int>(g_patched_modules.size()); }
CUmodule fake_sanitizer_patched_module(int at) { return g_patched_modules[at]; }

}  // extern "C"
