// The preload library's dlsym. glibc's dlsym resolves RTLD_NEXT relative to its caller's return
// address, so a C++ wrapper that called it would make every RTLD_NEXT lookup in the process relative to
// the shim. This stub asks route_dlsym first and otherwise tail-jumps into the real dlsym with the
// caller's return address, arguments and stack untouched.
#include "shim/dlsym_route.h"
#include "shim/real_driver.h"

namespace {

void* unresolved_dlsym(void*, const char*) { return nullptr; }

}  // namespace

extern "C" __attribute__((visibility("hidden"))) void* barracuda_shim_route_dlsym(void* handle, const char* name) {
  return barracuda::shim::route_dlsym(handle, name);
}

extern "C" __attribute__((visibility("hidden"))) void* barracuda_shim_forward_dlsym() {
  barracuda::shim::DlsymFunction real = barracuda::shim::real_dlsym();
  return reinterpret_cast<void*>(real != nullptr ? real : &unresolved_dlsym);
}

#if defined(__x86_64__)
// System V x86-64: arguments in rdi/rsi; two pushes and 8 bytes keep rsp 16-byte aligned at the calls.
asm(R"(
  .text
  .globl dlsym
  .type dlsym, @function
dlsym:
  .cfi_startproc
  pushq %rdi
  .cfi_adjust_cfa_offset 8
  pushq %rsi
  .cfi_adjust_cfa_offset 8
  subq $8, %rsp
  .cfi_adjust_cfa_offset 8
  call barracuda_shim_route_dlsym
  testq %rax, %rax
  jz 1f
  addq $24, %rsp
  .cfi_remember_state
  .cfi_adjust_cfa_offset -24
  ret
  .cfi_restore_state
1:
  call barracuda_shim_forward_dlsym
  movq %rax, %r11
  addq $8, %rsp
  .cfi_adjust_cfa_offset -8
  popq %rsi
  .cfi_adjust_cfa_offset -8
  popq %rdi
  .cfi_adjust_cfa_offset -8
  jmp *%r11
  .cfi_endproc
  .size dlsym, .-dlsym
)");
#else
#error "barracuda's dlsym trampoline is written for x86-64 only"
#endif
