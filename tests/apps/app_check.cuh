// What every corpus program shares: stop with a message on a CUDA error, as real programs do.
#pragma once
#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(call)                                                                      \
  do {                                                                                        \
    cudaError_t status_ = (call);                                                             \
    if (status_ != cudaSuccess) {                                                             \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                      \
                   cudaGetErrorString(status_));                                              \
      std::exit(1);                                                                           \
    }                                                                                         \
  } while (0)
