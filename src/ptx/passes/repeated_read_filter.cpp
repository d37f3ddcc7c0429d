// Option filter_repeated_reads (issue 17 item 3: FastTrack's same-epoch read, applied where the read
// happens). A lane skips logging a plain, relaxed or volatile load when the last access its function
// logged was this same load of this same address and nothing was logged since: a spin re-reading a
// flag or a predecessor's status word (CUB's decoupled look-back) sends one record, not one per
// iteration. An acquire load (logged once it has read) is skipped only where it also read the same
// value: a spin on a counter (a cooperative-groups grid sync: thread 0 of each block spins with
// ld.acquire.gpu until the last block's atom.add.release flips it) logs each value it sees once, and
// the read that ends the spin, which read the newest value, is logged and acquires all the skipped
// ones would have (a release that rewrote the same value is the exception: its acquire is lost, which
// can only add a race report, never hide one). What the engine sees differently:
//  - the skipped read is a same-epoch read: every synchronising instruction is logged, or followed by
//    a reset (below), and any runtime call resets the filter (RuntimeCallBuilder::forget_repeated_read),
//    so the thread's clock has not moved since the logged read; the engine would have skipped it too
//    (Worker::check_read) unless a write was checked in between;
//  - a write by another thread unordered with the skipped read is unordered with the logged one as
//    well, so the launch is still racy; but the pair reported may be another one: FastTrack's rule
//    clears a location's reads at a write ordered after them, and when that write and the later one
//    are both atomics they do not race, so only the repeat would have met the later write;
//  - the thread's last read, which a later fence acquires from, is the logged one's address;
//  - exceptions: a barrier that diverged moves on the clock of a thread that skipped it without a
//    record of that thread (the run is reported for the divergence anyway), and a repeat can be what
//    proves a barrier useful (redundant-barrier warnings: the option is off with them).
// Measured on random launches (Differential.RepeatedReadsChangeNoVerdict, 200,000 traces with repeats
// added): the same racy or race-free verdicts and divergent barriers everywhere; other racing site
// pairs in 1.8 % of them, other redundant barriers in 0.04 %.
// The check is two setp and a branch per load; the registers live in each function.
#include "ptx/passes/pass_context.h"

namespace barracuda::ptx::passes {
namespace {

// Instructions that synchronise, or call code that may, without a runtime call of their own in every
// configuration: the filter forgets its last read after each (a reset after a logged one is harmless).
// Warp votes, shuffles and matches are left out: they order no memory, and the engine, which never
// sees them, keeps the thread's epoch across them (CUB's look-back votes on every re-read).
bool may_synchronise(Opcode opcode) {
  switch (opcode) {
    case Opcode::Call:
    case Opcode::Bar:
    case Opcode::Barrier:
    case Opcode::Membar:
    case Opcode::Fence:
    case Opcode::Atom:
    case Opcode::Red:
    case Opcode::RedAsync:
    case Opcode::Mbarrier:
    case Opcode::Cp:
    case Opcode::Griddepcontrol:
      return true;
    default:
      return false;
  }
}

}  // namespace

void forget_repeated_reads_after_synchronisation(PassContext& context, const std::vector<StatementIterator>& instructions) {
  if (!context.calls.filters_repeated_reads()) return;
  for (StatementIterator position : instructions) {
    const Instruction& instruction = std::get<Instruction>(*position);
    if (may_synchronise(instruction.opcode)) context.calls.forget_repeated_read(std::next(position), instruction.debug_location);
  }
}

}  // namespace barracuda::ptx::passes
