# Cross-compiling egdb.dll for i686 Windows with Debian's MinGW-w64 (package g++-mingw-w64-i686).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR i686)
set(CMAKE_C_COMPILER i686-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER i686-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER i686-w64-mingw32-windres)
# Libraries Debian does not build for MinGW-w64 (zstd) come from this prefix, which
# scripts/setup.sh fills from Debian's source packages (their CMake packages are found there).
get_filename_component(_egdb_default_prefix "${CMAKE_CURRENT_LIST_DIR}/../../build/deps/i686-w64-mingw32" ABSOLUTE)
set(EGDB_MINGW_PREFIX "${_egdb_default_prefix}" CACHE PATH
    "Prefix holding the i686-w64-mingw32 builds of egdb's dependencies (zstd)")
set(CMAKE_FIND_ROOT_PATH /usr/i686-w64-mingw32 ${EGDB_MINGW_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# The DLL carries its C++ runtime, so that it loads into Excel without MinGW's DLLs beside it.
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static -static-libgcc -static-libstdc++")
# VBA and the Kingsrow DLL use undecorated names: export egdb_open, not egdb_open@16.
set(CMAKE_SHARED_LINKER_FLAGS_INIT "${CMAKE_SHARED_LINKER_FLAGS_INIT} -Wl,--kill-at")
