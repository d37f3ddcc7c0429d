#include "runtime/compile_progress.h"

#include <utility>

namespace barracuda::runtime {

CompileProgress::CompileProgress(Message message, std::chrono::milliseconds after, std::string what) {
  if (!message) return;
  waiter_ = std::thread([this, message = std::move(message), after, what = std::move(what)] {
    std::unique_lock lock(mutex_);
    if (done_.wait_for(lock, after, [this] { return finished_; })) return;
    reported_ = true;
    lock.unlock();
    message(what);
  });
}

CompileProgress::~CompileProgress() { finish(); }

void CompileProgress::finish() {
  {
    std::lock_guard lock(mutex_);
    finished_ = true;
  }
  done_.notify_all();
  if (waiter_.joinable()) waiter_.join();
}

bool CompileProgress::reported() const {
  std::lock_guard lock(mutex_);
  return reported_;
}

}  // namespace barracuda::runtime
