# Project-wide compile flags: warnings for our own C++ code, sanitizers on request.
add_library(barracuda_flags INTERFACE)
target_compile_options(barracuda_flags INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wshadow -Wnon-virtual-dtor -Wno-missing-field-initializers>)
target_include_directories(barracuda_flags INTERFACE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src)

# BARRACUDA_DCHECK (barracuda/dcheck.h) is checked in debug and sanitizer builds.
if(BARRACUDA_SANITIZE OR CMAKE_BUILD_TYPE STREQUAL "Debug")
  target_compile_definitions(barracuda_flags INTERFACE BARRACUDA_DCHECKS)
endif()

if(BARRACUDA_SANITIZE)
  set(sanitizer_flags -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  # Quoted so the flag list stays inside the generator expression; CUDA code and nvcc links are left alone.
  add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:${sanitizer_flags}>")
  add_link_options("$<$<LINK_LANGUAGE:C,CXX>:${sanitizer_flags}>")
endif()

# Fuzz targets: libFuzzer comes with clang; gcc builds skip them.
function(barracuda_add_fuzzer name source)
  if(BARRACUDA_FUZZ AND CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    add_executable(${name} ${source})
    target_compile_options(${name} PRIVATE -fsanitize=fuzzer)
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
    target_link_libraries(${name} PRIVATE ${ARGN})
    set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz)
  endif()
endfunction()
