# Every third-party library comes from a Debian package (scripts/setup.sh installs them).
find_package(PkgConfig REQUIRED)
pkg_check_modules(LIBELF REQUIRED IMPORTED_TARGET libelf)
pkg_check_modules(LZ4 REQUIRED IMPORTED_TARGET liblz4)
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)
pkg_check_modules(XXHASH REQUIRED IMPORTED_TARGET libxxhash)
find_package(ZLIB REQUIRED)
find_package(TBB REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 REQUIRED)
find_package(GTest REQUIRED)
find_package(Threads REQUIRED)
find_package(CUDAToolkit REQUIRED)
find_program(FILECHECK_EXECUTABLE FileCheck HINTS /usr/lib/llvm-14/bin)
find_program(PTXAS_EXECUTABLE ptxas HINTS ${CUDAToolkit_BIN_DIR})
# CMake 3.25's FindCUDAToolkit predates nvJitLink: import it by hand when the target is missing.
if(NOT TARGET CUDA::nvJitLink)
  find_library(NVJITLINK_LIBRARY nvJitLink HINTS ${CUDAToolkit_LIBRARY_DIR} REQUIRED)
  add_library(CUDA::nvJitLink SHARED IMPORTED)
  set_target_properties(CUDA::nvJitLink PROPERTIES
    IMPORTED_LOCATION ${NVJITLINK_LIBRARY}
    INTERFACE_INCLUDE_DIRECTORIES ${CUDAToolkit_INCLUDE_DIRS})
endif()
