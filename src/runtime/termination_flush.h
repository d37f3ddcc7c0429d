#pragma once
// A run stopped by SIGTERM, SIGINT or SIGHUP (CI timeouts, `timeout`, `barracuda run --timeout`,
// Ctrl-C) still writes what was checked before it: the signal wakes a watcher thread, which calls
// `flush` (the report: anything may run there, unlike in a signal handler), then lets the signal take
// its normal course (default action, same exit status as natively). Signals the application handles
// itself are left to it; a process forked without exec does not flush its parent's report.
#include <functional>

namespace barracuda::runtime {

// Installs the handlers once; `flush` receives the signal number.
void flush_on_termination(std::function<void(int)> flush);

}  // namespace barracuda::runtime
