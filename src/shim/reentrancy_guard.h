#pragma once
// Marks the current thread as being inside a shim hook. The driver, nvJitLink and our own transformer
// may call back into hooked entry points; those nested calls must go straight to the driver.

namespace barracuda::shim {

class ReentrancyGuard {
 public:
  ReentrancyGuard() : nested_(depth_ > 0) { ++depth_; }
  ~ReentrancyGuard() { --depth_; }
  ReentrancyGuard(const ReentrancyGuard&) = delete;
  ReentrancyGuard& operator=(const ReentrancyGuard&) = delete;

  // True when an enclosing hook on this thread is already handling the call.
  bool nested() const { return nested_; }
  // True when a hook is running on this thread (whether or not it holds a guard of its own here).
  static bool inside_hook() { return depth_ > 0; }

 private:
  static inline thread_local int depth_ = 0;
  bool nested_;
};

}  // namespace barracuda::shim
