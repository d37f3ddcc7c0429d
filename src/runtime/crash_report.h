#pragma once
// When the application dies of a fault under the tool, say so and print where (the frames name
// libbarracuda.so offsets that `addr2line -e libbarracuda.so` resolves), then let the fault take its
// normal course: same signal, same exit status, core dump as configured.
namespace barracuda::runtime {

void install_crash_report();

}  // namespace barracuda::runtime
