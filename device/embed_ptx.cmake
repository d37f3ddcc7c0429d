# cmake -DPTX=in.ptx -DOUTPUT=out.cpp -DHEADER=dir/name.h -DFUNCTION=name -P embed_ptx.cmake:
# writes the PTX text as the std::string_view returned by barracuda::FUNCTION(), declared in HEADER.
file(READ ${PTX} ptx_text)
string(FIND "${ptx_text}" ")barracuda_ptx\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${PTX} contains the raw-string delimiter used to embed it")
endif()
file(WRITE ${OUTPUT} "// Generated from ${PTX} by device/embed_ptx.cmake. Do not edit.
#include \"${HEADER}\"

namespace barracuda {

std::string_view ${FUNCTION}() {
  static constexpr char kPtx[] = R\"barracuda_ptx(${ptx_text})barracuda_ptx\";
  return {kPtx, sizeof(kPtx) - 1};
}

}  // namespace barracuda
")
