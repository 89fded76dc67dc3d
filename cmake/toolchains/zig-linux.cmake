# Cross-compiling egdb for Linux with Zig's clang (PyPI: ziglang) against an old glibc, so that the
# wheels and the jar's natives run on every distribution their manylinux2014 tag promises
# (glibc 2.17 and later), on x86_64 and aarch64 alike. Zig brings the glibc stubs of the version
# asked for and links its own libc++ statically: the libraries then need only the C library.
#   cmake -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/zig-linux.cmake -DEGDB_ZIG_ARCH=aarch64 ...
# EGDB_ZIG: the zig executable (default: the one of build/venv, installed by scripts/setup.sh).
set(EGDB_ZIG_ARCH "x86_64" CACHE STRING "Target processor: x86_64 or aarch64")
set(EGDB_ZIG_GLIBC "2.17" CACHE STRING "Oldest glibc the binaries must run on")
get_filename_component(_egdb_root "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
if(NOT EGDB_ZIG)
  file(GLOB _egdb_zig_found "${_egdb_root}/build/venv/lib/python3*/site-packages/ziglang/zig")
  list(GET _egdb_zig_found 0 _egdb_zig_default)
  set(EGDB_ZIG "${_egdb_zig_default}" CACHE FILEPATH "The zig executable")
endif()
if(NOT EXISTS "${EGDB_ZIG}")
  message(FATAL_ERROR "zig not found (EGDB_ZIG='${EGDB_ZIG}'): run scripts/setup.sh, or pip install ziglang")
endif()
# try_compile projects read this file again: they need the same choices.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES EGDB_ZIG EGDB_ZIG_ARCH EGDB_ZIG_GLIBC)

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ${EGDB_ZIG_ARCH})
set(_egdb_zig_target "${EGDB_ZIG_ARCH}-linux-gnu.${EGDB_ZIG_GLIBC}")
# CMake takes a compiler as one program, so `zig cc -target ...` is wrapped in small scripts,
# written only when their text changes (ccache then keeps recognising them).
set(_egdb_wrappers "${CMAKE_BINARY_DIR}/zig-${_egdb_zig_target}")
# The target is a compiler flag, not part of the wrapper, so that ccache (which takes the wrapper
# as the compiler) sees it in every command line it hashes.
foreach(_egdb_tool IN ITEMS cc c++ ar ranlib)
  set(_egdb_line "exec \"${EGDB_ZIG}\" ${_egdb_tool} \"$@\"")
  file(CONFIGURE OUTPUT "${_egdb_wrappers}/zig-${_egdb_tool}.in" CONTENT "#!/bin/sh\n${_egdb_line}\n" @ONLY)
  file(COPY_FILE "${_egdb_wrappers}/zig-${_egdb_tool}.in" "${_egdb_wrappers}/zig-${_egdb_tool}" ONLY_IF_DIFFERENT)
  file(CHMOD "${_egdb_wrappers}/zig-${_egdb_tool}" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE
       GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
endforeach()
set(CMAKE_C_COMPILER_TARGET ${_egdb_zig_target})
set(CMAKE_CXX_COMPILER_TARGET ${_egdb_zig_target})
set(CMAKE_C_COMPILER "${_egdb_wrappers}/zig-cc")
set(CMAKE_CXX_COMPILER "${_egdb_wrappers}/zig-c++")
set(CMAKE_AR "${_egdb_wrappers}/zig-ar" CACHE FILEPATH "Archiver")
set(CMAKE_RANLIB "${_egdb_wrappers}/zig-ranlib" CACHE FILEPATH "Archive indexer")

# The binaries are shipped as built (the wheels take them from the build folder): without
# debug information and symbol tables (Zig's clang keeps some even at -O3), 3-4 MB each instead of
# 40. The C ABI's exported symbols stay: they are in the dynamic symbol table.
foreach(_egdb_kind IN ITEMS EXE SHARED MODULE)
  set(CMAKE_${_egdb_kind}_LINKER_FLAGS_INIT "-s")
endforeach()

# Libraries come from the target's prefix only (zstd, built by scripts/setup.sh), never from the
# host's /usr, whose headers and libraries belong to another glibc (and maybe another processor).
set(EGDB_ZIG_PREFIX "${_egdb_root}/build/deps/${_egdb_zig_target}" CACHE PATH
    "Prefix holding this target's builds of egdb's dependencies (zstd)")
set(CMAKE_FIND_ROOT_PATH ${EGDB_ZIG_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
