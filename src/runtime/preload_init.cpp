// What libbarracuda.so sets up when it is loaded: the shim's optional interception log, then the
// runtime that instruments modules and checks launches.
#include "runtime/crash_report.h"
#include "runtime/session.h"
#include "shim/shim_log.h"

namespace {

__attribute__((constructor)) void start_barracuda() {
  barracuda::runtime::install_crash_report();
  barracuda::shim::install_shim_log_from_environment();
  barracuda::runtime::start_session_from_environment();
}

}  // namespace

// The CUDA driver calls this when it loads libbarracuda.so as its injection library
// (CUDA_INJECTION64_PATH, set by start_session_from_environment): the one way a process gets the
// Compute Sanitizer API that the SASS back end uses. Non-zero: loaded successfully.
extern "C" __attribute__((visibility("default"))) int InitializeInjection() {
  barracuda::runtime::start_machine_code_checking();
  return 1;
}
