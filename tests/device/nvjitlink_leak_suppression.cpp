// nvJitLink leaks its internal error state when a link fails (seen with CUDA 13.0); LeakSanitizer
// would fail every ASan test that checks a failing link. Suppress leaks allocated inside it only.
extern "C" const char* __lsan_default_suppressions() { return "leak:libnvJitLink.so\n"; }
