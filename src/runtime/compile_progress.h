#pragma once
// A progress line for a compile that takes a while: a module's instrumented PTX can take seconds to
// compile (a thrust program's 27 kernels took 10.8 s on a cold cache), and a run that says nothing
// meanwhile looks hung. While a CompileProgress lives, a thread waits `after`; if the compile is still
// running then, it says `what` once through `message`. Destroying it ends the wait at once.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace barracuda::runtime {

class CompileProgress {
 public:
  using Message = std::function<void(const std::string&)>;
  // No thread when there is no `message` to say it through.
  CompileProgress(Message message, std::chrono::milliseconds after, std::string what);
  ~CompileProgress();
  CompileProgress(const CompileProgress&) = delete;
  CompileProgress& operator=(const CompileProgress&) = delete;

  // Whether the line was said (the compile outlasted `after`). Final once the object is destroyed or
  // finish() returned.
  bool reported() const;
  // Ends the wait (the compile is over); the destructor does the same.
  void finish();

 private:
  mutable std::mutex mutex_;
  std::condition_variable done_;
  bool finished_ = false;
  bool reported_ = false;
  std::thread waiter_;
};

}  // namespace barracuda::runtime
