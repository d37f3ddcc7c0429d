#pragma once
// CHECK(call) for the CUDA runtime test apps: a failing call ends the app with exit code 1 and the call
// and cudart's message on stderr, so a GPU test failure says what broke.
#include <cstdio>
#include <cstdlib>

inline void check_runtime_call(cudaError_t error, const char* call) {
  if (error == cudaSuccess) return;
  std::fprintf(stderr, "%s failed: %s\n", call, cudaGetErrorString(error));
  std::exit(1);
}

#define CHECK(call) check_runtime_call(call, #call)
