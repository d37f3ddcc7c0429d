#pragma once
// CHECK(call) and read_file() for the driver-API test apps (linked with -lcuda, or the fake libcuda): a
// failing call or a missing input ends the app with exit code 1 and says what broke on stderr.
#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

inline void check_driver_call(CUresult result, const char* call) {
  if (result == CUDA_SUCCESS) return;
  const char* name = nullptr;
  cuGetErrorName(result, &name);
  std::fprintf(stderr, "%s failed: %s (%d)\n", call, name != nullptr ? name : "?", int(result));
  std::exit(1);
}

#define CHECK(call) check_driver_call(call, #call)

inline std::string read_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path);
    std::exit(1);
  }
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
