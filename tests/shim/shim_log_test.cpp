#include "shim/shim_log.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace barracuda::shim {
namespace {

class ShimLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = ::testing::TempDir() + "shim_log_test_" + std::to_string(::getpid()) + ".log";
    std::remove(path_.c_str());
    log_ = std::make_unique<ShimLog>(::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644));
  }
  void TearDown() override { std::remove(path_.c_str()); }

  std::string contents() {
    std::ifstream in(path_);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  std::string path_;
  std::unique_ptr<ShimLog> log_;
};

TEST_F(ShimLogTest, ModuleLoadLine) {
  const char* ptx = ".version 9.0";
  ModuleImage image{ModuleId{4}, {Hook::ModuleLoadDataEx, false}, ptx, ImageKind::PtxText, 13};
  log_->on_module_load({image, "replacement", CUDA_SUCCESS});
  ModuleImage unknown{ModuleId{5}, {Hook::LibraryLoadData, false}, ptx, ImageKind::Unknown, std::nullopt};
  log_->on_module_load({unknown, ptx, CUDA_ERROR_INVALID_IMAGE});
  EXPECT_EQ(contents(),
            "load id=4 entry=cuModuleLoadDataEx kind=ptx size=13 replaced=yes result=0\n"
            "load id=5 entry=cuLibraryLoadData kind=unknown size=? replaced=no result=200\n");
}

TEST_F(ShimLogTest, LaunchLineIsWrittenAfterTheLaunch) {
  LaunchCall launch{{Hook::LaunchKernel, true}, nullptr, "_Z3addPfS_", ModuleId{2}, {4, 2, 1}, {256, 1, 1}, 64,
                    reinterpret_cast<CUstream>(0xabc0)};
  log_->before_launch(launch);
  EXPECT_EQ(contents(), "");
  log_->after_launch(launch, CUDA_SUCCESS);
  launch.kernel_name = {};
  launch.module = ModuleId::Unknown;
  launch.stream = nullptr;
  log_->after_launch(launch, CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(contents(),
            "launch entry=cuLaunchKernel_ptsz kernel=_Z3addPfS_ module=2 grid=4,2,1 block=256,1,1 shmem=64 "
            "stream=0xabc0 result=0\n"
            "launch entry=cuLaunchKernel_ptsz kernel=? module=? grid=4,2,1 block=256,1,1 shmem=64 stream=0x0 "
            "result=1\n");
}

TEST_F(ShimLogTest, LinkInputLine) {
  log_->on_link_input({{Linker::kDriver, nullptr}, CU_JIT_INPUT_PTX, "x", 1234, "kernels.ptx", false, CUDA_SUCCESS});
  log_->on_link_input({{Linker::kDriver, nullptr}, CU_JIT_INPUT_CUBIN, "x", 10, nullptr, false, CUDA_SUCCESS});
  log_->on_link_input({{Linker::kNvJitLink, nullptr}, CU_JIT_INPUT_PTX, nullptr, 0, "/tmp/k.ptx", true, CUDA_ERROR_FILE_NOT_FOUND});
  EXPECT_EQ(contents(),
            "link entry=cuLinkAddData type=1 size=1234 name=kernels.ptx result=0\n"
            "link entry=cuLinkAddData type=0 size=10 name=- result=0\n"
            "link entry=nvJitLinkAddFile type=1 size=0 name=/tmp/k.ptx result=301\n");
}

TEST_F(ShimLogTest, NvrtcCubinLine) {
  log_->on_cubin_compiled({"\x7f" "ELF", 4528, ".version 9.0\n"});
  EXPECT_EQ(contents(), "nvrtc cubin size=4528 ptx=13\n");
}

}  // namespace
}  // namespace barracuda::shim
