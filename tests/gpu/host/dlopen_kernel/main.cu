// Loads a shared library with dlopen (next to this executable) and calls the entry point that
// launches its kernel: the racy kernel lives in code the executable did not link.
#include <dlfcn.h>
#include <climits>
#include <cstdio>
#include <string>
#include <unistd.h>

int main() {
  char self[PATH_MAX] = {};
  if (readlink("/proc/self/exe", self, sizeof self - 1) < 0) return 1;
  std::string dir(self);
  std::string path = dir.substr(0, dir.rfind('/')) + "/libdlopen_kernel_plugin.so";
  void* plugin = dlopen(path.c_str(), RTLD_NOW);
  if (!plugin) {
    std::fprintf(stderr, "dlopen: %s\n", dlerror());
    return 1;
  }
  auto run = reinterpret_cast<int (*)()>(dlsym(plugin, "run_plugin"));
  return run ? run() : 1;
}
// BUILD: -cudart shared
// EXPECT: race inter-block global WAW A A
