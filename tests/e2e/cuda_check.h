#pragma once
// For the end-to-end fixtures' main paths: a failed CUDA runtime call prints what failed and makes the
// enclosing function return 1.
#include <cstdio>

#define CHECK(call)                                                       \
  do {                                                                    \
    cudaError_t status_ = (call);                                         \
    if (status_ != cudaSuccess) {                                         \
      std::printf("%s failed: %s\n", #call, cudaGetErrorString(status_)); \
      return 1;                                                           \
    }                                                                     \
  } while (0)
