// What libbarracuda.so sets up when it is loaded.
#include "shim/shim_log.h"

namespace {

__attribute__((constructor)) void start_barracuda_shim() { barracuda::shim::install_shim_log_from_environment(); }

}  // namespace
