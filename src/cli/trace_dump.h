#pragma once
// `barracuda replay --dump`: a trace printed as text, one line per module site, launch and record,
// for reading what the instrumented code logged when a verdict looks wrong.
#include <istream>
#include <ostream>

#include "barracuda/record_view.h"

namespace barracuda::cli {

// One record (header plus its address payload slots) as one line; `payload` holds exactly the
// slots record_slots() gives for the header's address mode, minus the header.
void print_record(std::ostream& out, const RecordHeader& header, const RecordHeader* payload);

// Every item of the trace, in file order. Throws trace::TraceFormatError on a malformed trace.
void dump_trace(std::istream& in, std::ostream& out);

}  // namespace barracuda::cli
