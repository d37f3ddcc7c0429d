// Prints probe_value(): 1 natively, 11 with probe_interposer preloaded.
#include <cstdio>

extern "C" int probe_value();

int main() {
  std::printf("probe %d\n", probe_value());
  return 0;
}
