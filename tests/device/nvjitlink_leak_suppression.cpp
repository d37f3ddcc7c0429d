// nvJitLink leaks its internal state when a link fails, and when it links for an architecture other than
// sm_90 (both seen with CUDA 13.0); LeakSanitizer would fail every ASan test that makes such a link.
// Suppress leaks allocated inside it only.
extern "C" const char* __lsan_default_suppressions() { return "leak:libnvJitLink.so\n"; }
