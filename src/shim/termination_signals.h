#pragma once
// The signals after which barracuda still writes its report (runtime/termination_flush.h), and a guard
// that holds them off while a thread runs the tool's own code.
//
// Why: the handler of those signals does not return until the report is written, and writing it takes
// the tool's locks and needs its threads to make progress. Taken inside the tool's code, the signal
// would stop the thread there: holding a lock the report needs, or waiting on a condition variable,
// which glibc's pthread_cond_broadcast then waits for forever (measured on the H100: SIGTERM during a
// launch of gpubench-gaussian left the checker thread in pthread_cond_broadcast, the watcher stuck,
// and the run ended with no report). Held off, the signal goes to another thread, or waits until this
// one leaves the tool's code.
#include <pthread.h>
#include <signal.h>

#include <array>

namespace barracuda::shim {

inline constexpr std::array kTerminationSignals = {SIGTERM, SIGINT, SIGHUP};

class TerminationSignalsDeferred {
 public:
  TerminationSignalsDeferred() {
    sigset_t deferred;
    sigemptyset(&deferred);
    for (int signal_number : kTerminationSignals) sigaddset(&deferred, signal_number);
    pthread_sigmask(SIG_BLOCK, &deferred, &previous_);
  }
  ~TerminationSignalsDeferred() { pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }
  TerminationSignalsDeferred(const TerminationSignalsDeferred&) = delete;
  TerminationSignalsDeferred& operator=(const TerminationSignalsDeferred&) = delete;

 private:
  sigset_t previous_;
};

}  // namespace barracuda::shim
