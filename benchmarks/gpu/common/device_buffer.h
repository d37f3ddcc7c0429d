// An owning device allocation of `size` elements of T, with whole-buffer copies to and from the host.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <vector>

#include "cuda_check.h"

namespace bench {

template <typename T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t size) : size_(size) { check(cudaMalloc(&data_, bytes()), "cudaMalloc"); }
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host); }
  ~DeviceBuffer() { cudaFree(data_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* get() const { return data_; }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(T); }

  void upload(const std::vector<T>& host) {
    if (host.size() != size_) throw std::invalid_argument("DeviceBuffer::upload: size mismatch");
    check(cudaMemcpy(data_, host.data(), bytes(), cudaMemcpyHostToDevice), "upload");
  }
  std::vector<T> download() const {
    std::vector<T> host(size_);
    check(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost), "download");
    return host;
  }
  void fill_zero() { check(cudaMemset(data_, 0, bytes()), "cudaMemset"); }

 private:
  T* data_ = nullptr;
  std::size_t size_;
};

}  // namespace bench
