#pragma once
// The runtime of libbarracuda.so: reads BARRACUDA_OPTIONS when the library loads, plugs the module
// instrumenter and the launch monitor into the shim, and writes the report when the process exits.
namespace barracuda::runtime {

// Called once from the library's constructor. Never throws; a bad BARRACUDA_OPTIONS ends the process
// with the usage-error exit code after saying what is wrong.
void start_session_from_environment();

// Called from InitializeInjection, when the CUDA driver loads libbarracuda.so as its injection library
// (CUDA_INJECTION64_PATH): starts the SASS back end (runtime/sass_backend.h) if option sass is on.
void start_machine_code_checking();

}  // namespace barracuda::runtime
