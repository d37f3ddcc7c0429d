// A SIGTERM to a process under the preload: the report is flushed, the process ends by the signal as
// natively, and the application never runs on after it (its sleep() must not return early and let
// main() reach its exit path beside the watcher).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "runtime/termination_flush.h"

namespace barracuda::runtime {
namespace {

TEST(TerminationFlush, FlushesThenEndsByTheSignalWithoutLettingTheAppRunOn) {
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(pipe_fds[0]);
    const int out = pipe_fds[1];
    flush_on_termination([out](int signal_number) {
      usleep(300'000);  // a report takes a while to build: the app must not use that time to go on
      const char flushed = signal_number == SIGTERM ? 'F' : 'f';
      (void)!write(out, &flushed, 1);
    });
    (void)!write(out, "R", 1);  // ready: the handlers are in place
    sleep(30);                   // interrupted by the signal's handler natively too
    (void)!write(out, "X", 1);   // the application ran on after the signal: must not happen
    _exit(0);
  }
  close(pipe_fds[1]);
  char ready = 0;
  ASSERT_EQ(read(pipe_fds[0], &ready, 1), 1);
  ASSERT_EQ(ready, 'R');
  usleep(100'000);  // the child is in its sleep()
  kill(child, SIGTERM);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  std::string seen;
  char c = 0;
  while (read(pipe_fds[0], &c, 1) == 1) seen += c;
  close(pipe_fds[0]);
  EXPECT_EQ(seen, "F") << "the flush ran once, with SIGTERM, and the app did not go on";
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
}

}  // namespace
}  // namespace barracuda::runtime
