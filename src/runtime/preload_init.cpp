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
