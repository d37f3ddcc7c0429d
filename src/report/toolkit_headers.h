#pragma once
// Whether a source file is one of the CUDA toolkit's own headers (thrust, CUB, libcu++, cooperative
// groups, the runtime's headers), wherever the toolkit was installed on the machine that compiled the
// program. Diagnostics located there are left out by default, as a compiler leaves out warnings from
// system headers: they describe the library's code, which the user cannot change (races there are
// still reported: they are about the user's data).
#include <string_view>

namespace barracuda::report {

bool in_toolkit_headers(std::string_view path);

}  // namespace barracuda::report
