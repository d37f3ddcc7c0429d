#include "runtime/crash_report.h"

#include <execinfo.h>
#include <signal.h>
#include <unistd.h>

#include <array>
#include <cstring>

namespace barracuda::runtime {
namespace {

constexpr std::array kFaults = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};

// Async-signal-safe only: write(2) and backtrace_symbols_fd (backtrace() is primed at install time,
// so it does not load libgcc inside the handler).
void report_fault(int signal_number) {
  constexpr char kMessage[] = "barracuda: the application received a fatal signal under the tool; stack:\n";
  ssize_t ignored = write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
  (void)ignored;
  std::array<void*, 64> frames;
  int count = backtrace(frames.data(), static_cast<int>(frames.size()));
  backtrace_symbols_fd(frames.data(), count, STDERR_FILENO);
  signal(signal_number, SIG_DFL);
  raise(signal_number);
}

}  // namespace

void install_crash_report() {
  std::array<void*, 1> warm_up;
  backtrace(warm_up.data(), 1);
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_handler = report_fault;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;
  for (int fault : kFaults) {
    struct sigaction previous;
    // Leave a handler the environment already installed (a debugger, a sanitizer) in place.
    if (sigaction(fault, nullptr, &previous) == 0 && previous.sa_handler == SIG_DFL) sigaction(fault, &action, nullptr);
  }
}

}  // namespace barracuda::runtime
