#pragma once
// Run-time options of the preloaded library. One X-macro table drives the Options struct, parsing of
// BARRACUDA_OPTIONS ("key=value:key=value"), defaults, the help=1 table and formatting back to that
// string (what `barracuda run` does with its flags). Values cannot contain ':'.
#include <stdexcept>
#include <string>
#include <string_view>

#include "options/option_values.h"

namespace barracuda::options {

// X(name, value kind, default, help)
#define BARRACUDA_OPTION_TABLE(X)                                                                            \
  X(report, TextValue, "", "write the JSON report to this file (%p: the pid; child processes insert their pid)") \
  X(sarif, TextValue, "", "write a SARIF 2.1.0 report to this file (named per process like report)")        \
  X(error_exitcode, ExitCodeValue, 66, "exit code when new races or barrier divergence are found")          \
  X(print_limit, CountValue, 100, "races and diagnostics printed in full on stderr (0: all)")               \
  X(kernel_name, RegexValue, "", "check only launches of kernels whose (mangled) name matches this regex (empty: all)")      \
  X(launch_skip, CountValue, 0, "skip checking the first N launches (of kernels kernel_name selects)")       \
  X(launch_count, CountValue, 0, "check at most N launches after launch_skip (0: no limit)")                 \
  X(launch_sample, CountValue, 0, "check at most K launches of each kernel, run the rest unchecked (0: all)") \
  X(suppressions, TextValue, "", "ThreadSanitizer-style suppressions file (race:PATTERN lines)")            \
  X(baseline, TextValue, "", "previous JSON report: races found in it are known, not new")                   \
  X(quiet, BoolValue, false, "print only the final summary line")                                            \
  X(verbose, BoolValue, false, "print progress (JIT of large modules) and statistics")                      \
  X(same_value_races, BoolValue, false, "report same-value write-write pairs (a flag many threads set) as races, not warnings") \
  X(unfenced_acquire_races, BoolValue, false, "report hand-offs through a spin on an atomic with no acquire fence after it as races, not warnings") \
  X(warn_redundant_barriers, BoolValue, false, "also warn about barriers that ordered no conflicting accesses") \
  X(toolkit_diagnostics, BoolValue, false, "also report diagnostics (barrier divergences and warnings) located in the CUDA toolkit's own headers (thrust, CUB, cooperative groups); races there are always reported") \
  X(log_read_only, BoolValue, false, "also log loads through the read-only path (ld.global.nc: __ldg, const __restrict__; ldu), which cannot race in a correct program, and loads through kernel parameters the kernel never writes through") \
  X(log_write_free_loads, BoolValue, false, "also log and check shared loads in barrier intervals in which no thread of the block can write shared memory (a tile read between the barriers that follow and precede its stores), which cannot race (on anyway with warn_redundant_barriers, which needs every access)") \
  X(filter_repeated_reads, BoolValue, false, "a lane does not log a load that repeats the last access its function logged, with nothing logged since (a spin's re-reads; an acquire load only where it also read the same value): a same-epoch read, not sent; the launch stays racy or race-free, the pairs reported may differ (off with warn_redundant_barriers). Off until measured on a GPU") \
  X(device_global_check, BoolValue, true, "check the global memory of kernels synchronised only by __syncthreads on the GPU in launches nothing runs beside (legacy default stream, no non-blocking streams), in the allocations their arguments point into, sending only its races (0: every global access to the host; off anyway with warn_redundant_barriers or the lockstep warp model)") \
  X(device_barrier_count, BoolValue, true, "in launches whose global memory the GPU checks, count block barriers there instead of logging each warp's, and check barrier divergence there (0: a barrier record per warp and barrier, the host checks divergence)") \
  X(device_shared_check, BoolValue, true, "check the shared memory of kernels synchronised only by __syncthreads on the GPU, sending only its races (0: every shared access to the host; off anyway with warn_redundant_barriers or the lockstep warp model, which need every access)") \
  X(sass, BoolValue, true, "check modules that have no PTX (libraries, Triton, cubin-only builds) through their machine code (the Compute Sanitizer API; needs CUDA_INJECTION64_PATH, which barracuda sets)") \
  X(sass_only, BoolValue, false, "check every module through its machine code, also those with PTX (the SASS back end's differential against the PTX one)") \
  X(block_order, BlockOrderValue, BlockOrder::kNatural, "natural, reverse or shuffle: the order in which checked kernels' logical blocks start (%ctaid read through a bijection; for races that only some block orders show)") \
  X(block_order_seed, CountValue, 1, "block_order=shuffle: the seed of the permutation (each seed another order)") \
  X(perturb, CountValue, 0, "SEED: before atomics, fences, barriers and spin reads, warps chosen by the seed sleep a few microseconds, so runs with different seeds see other orders (barracuda run --explore N; 0: off)") \
  X(harden, TextValue, "", "an earlier JSON report: apply the fences and scopes `barracuda harden` proposes for its races to the PTX before checking (empty: none)") \
  X(harden_only, BoolValue, false, "run the code, hardened as harden says, without logging or checking anything (whether the fix removes a symptom, at close to native speed; the run is reported as not checked)") \
  X(warp_model, WarpModelValue, WarpModel::kIndependent, "its (independent thread scheduling) or lockstep") \
  X(queue_bytes, ByteSizeValue, 0, "page-locked memory per event queue (0: 64 MiB for all at first, grown 4x after a launch that half-fills one, up to 1/16 of free host memory, 1M-64M each)") \
  X(drain_threads, CountValue, 0, "host threads draining the queues into the engine (0: hardware threads - 1)") \
  X(cache_dir, TextValue, "", "cache of instrumented modules (empty: $XDG_CACHE_HOME/barracuda)")           \
  X(record, TextValue, "", "write a binary event trace to this file (for barracuda replay; per process like report)") \
  X(record_limit, ByteSizeValue, 0, "record: stop adding records to the trace after this many bytes of them, keeping it readable (0: no limit)") \
  X(timeout, CountValue, 0, "barracuda run: stop the app with SIGTERM after this many seconds, keeping what was checked (0: never)") \
  X(explore, CountValue, 0, "barracuda run: run the app N times with perturb=SEED, SEED+1, ... (perturb's value, else 1) and merge the reports, each finding naming the first seed that showed it (0: one run)") \
  X(log_path, TextValue, "", "write barracuda's messages to this file instead of stderr")                    \
  X(help, BoolValue, false, "print this table")

struct Options {
#define BARRACUDA_OPTION_FIELD(name, kind, default_value, help) kind::type name = default_value;
  BARRACUDA_OPTION_TABLE(BARRACUDA_OPTION_FIELD)
#undef BARRACUDA_OPTION_FIELD
  friend bool operator==(const Options&, const Options&) = default;
};

class OptionsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses "key=value:key=value" on top of `options` (empty entries are skipped). Throws OptionsError
// naming the key for unknown keys, missing '=', bad values and quiet together with verbose.
void parse_options(std::string_view text, Options& options);

// The options that differ from the defaults, as a BARRACUDA_OPTIONS string.
std::string format_options(const Options& options);

// The help=1 table: name, kind, default, description.
std::string options_help();

}  // namespace barracuda::options
