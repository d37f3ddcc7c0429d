#include "runtime/termination_flush.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <array>
#include <cstring>
#include <ctime>
#include <thread>

#include "shim/termination_signals.h"

namespace barracuda::runtime {
namespace {

// How long the thread that took the signal waits for the watcher to flush and end the process before
// it ends the process itself (a flush stuck behind a lock that thread held must not hang the app).
constexpr int kFlushWaitSteps = 200;
constexpr long kFlushWaitStepNanoseconds = 50'000'000;  // 200 x 50 ms: 10 s

int g_wake_fd = -1;        // write end of the watcher's pipe
pid_t g_owner = 0;         // the process whose report the watcher writes
std::function<void(int)>* g_flush = nullptr;

void die_by(int signal_number) {
  signal(signal_number, SIG_DFL);
  sigset_t unblock;
  sigemptyset(&unblock);
  sigaddset(&unblock, signal_number);
  pthread_sigmask(SIG_UNBLOCK, &unblock, nullptr);
  kill(getpid(), signal_number);
}

// Async-signal-safe: getpid, write, nanosleep, and for a forked child (whose watcher does not exist)
// the default action at once. The handler does not return: natively the signal ends the process, so
// the application must not run on (a sleep() it was in would return early, and its exit path would
// race the watcher's report). It waits for the watcher, which writes the report and ends the process.
void on_termination(int signal_number) {
  const unsigned char number = static_cast<unsigned char>(signal_number);
  if (getpid() == g_owner && write(g_wake_fd, &number, 1) == 1) {
    for (int step = 0; step < kFlushWaitSteps; ++step) {
      struct timespec wait = {0, kFlushWaitStepNanoseconds};
      nanosleep(&wait, nullptr);
    }
  }
  die_by(signal_number);
}

void watch(int read_fd) {
  // The watcher itself never takes the signals: they go to the application's threads, whose handler
  // wakes it.
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, nullptr);
  unsigned char number = 0;
  while (read(read_fd, &number, 1) != 1) {
  }
  (*g_flush)(number);
  die_by(number);
}

}  // namespace

void flush_on_termination(std::function<void(int)> flush) {
  if (g_flush != nullptr) return;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return;
  g_flush = new std::function<void(int)>(std::move(flush));  // lives until the process ends
  g_wake_fd = fds[1];
  g_owner = getpid();
  std::thread(watch, fds[0]).detach();
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_handler = on_termination;
  sigemptyset(&action.sa_mask);
  for (int signal_number : shim::kTerminationSignals) {
    struct sigaction previous;
    // Only where nobody set a disposition: an ignored SIGHUP (nohup) or a handler stays.
    if (sigaction(signal_number, nullptr, &previous) == 0 && previous.sa_handler == SIG_DFL) {
      sigaction(signal_number, &action, nullptr);
    }
  }
}

}  // namespace barracuda::runtime
