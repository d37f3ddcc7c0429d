// The progress line of a long compile (runtime/compile_progress.h): said once when the compile outlasts
// its wait, never when it ends first, and never without a message sink.
#include "runtime/compile_progress.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace barracuda::runtime {
namespace {

using namespace std::chrono_literals;

struct Said {
  std::mutex mutex;
  std::vector<std::string> lines;
  CompileProgress::Message sink() {
    return [this](const std::string& line) {
      std::lock_guard lock(mutex);
      lines.push_back(line);
    };
  }
};

TEST(CompileProgress, ACompileThatOutlastsTheWaitIsAnnouncedOnce) {
  Said said;
  {
    CompileProgress progress(said.sink(), 20ms, "compiling instrumented module 3");
    // A loaded machine may start the waiting thread late: give it seconds, not milliseconds.
    const auto give_up = std::chrono::steady_clock::now() + 10s;
    while (!progress.reported() && std::chrono::steady_clock::now() < give_up) std::this_thread::sleep_for(10ms);
    EXPECT_TRUE(progress.reported());
  }
  EXPECT_EQ(said.lines, std::vector<std::string>{"compiling instrumented module 3"});
}

TEST(CompileProgress, AQuickCompileSaysNothingAndDoesNotWaitForTheTimer) {
  Said said;
  const auto start = std::chrono::steady_clock::now();
  {
    CompileProgress progress(said.sink(), 10s, "compiling");
    progress.finish();
    EXPECT_FALSE(progress.reported());
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s) << "finish() ends the wait";
  EXPECT_TRUE(said.lines.empty());
}

TEST(CompileProgress, NoSinkNoThread) {
  CompileProgress progress(nullptr, 0ms, "compiling");
  std::this_thread::sleep_for(20ms);
  EXPECT_FALSE(progress.reported());
}

}  // namespace
}  // namespace barracuda::runtime
