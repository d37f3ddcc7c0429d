# cmake -DOBJECT=in.o -DOUTPUT=out.cpp -DHEADER=dir/name.h -DFUNCTION=name -P embed_object.cmake:
# writes the bytes of OBJECT as the std::string_view returned by barracuda::FUNCTION(), declared in HEADER.
file(READ ${OBJECT} object_hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," object_bytes "${object_hex}")
string(LENGTH "${object_hex}" hex_length)
math(EXPR byte_count "${hex_length} / 2")
file(WRITE ${OUTPUT} "// Generated from ${OBJECT} by device/embed_object.cmake. Do not edit.
#include \"${HEADER}\"

namespace barracuda {

std::string_view ${FUNCTION}() {
  static constexpr char kObject[${byte_count}] = {${object_bytes}};
  return {kObject, sizeof(kObject)};
}

}  // namespace barracuda
")
