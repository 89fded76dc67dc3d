# What `cmake --install` puts into a prefix, for C and C++ programs built against egdb:
#   include/egdb/egdb.h                               the C interface: #include <egdb/egdb.h>
#   include/egdb/core/...                             the C++ library's headers:
#                                                     #include <egdb/core/probe/database.hpp>
#   lib/libegdb.so                                    the C ABI (egdb::egdb_c)
#   lib/libegdb.a                                     the C++ core with the C ABI (egdb::egdb)
#   bin/egdb (and bin/egdb-mpi when built)            the programs
#   lib/cmake/egdb/                                   find_package(egdb CONFIG), with a version file
#   lib/pkgconfig/egdb.pc                             pkg-config (Libs: the shared library)
# The Python package installs its own files (component "python", bindings/python), and only those.
# Included from the top-level CMakeLists.txt after every target is defined.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(EGDB_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/egdb" CACHE STRING
    "Where the CMake package of egdb is installed, relative to the prefix")

install(FILES ${PROJECT_SOURCE_DIR}/capi/egdb.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/egdb COMPONENT development)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/core/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/egdb/core
        COMPONENT development FILES_MATCHING PATTERN "*.hpp")

install(TARGETS egdb_c EXPORT egdbTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)
install(TARGETS egdb_static EXPORT egdbTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)
foreach(program egdb egdb-mpi)
  if(TARGET ${program})
    install(TARGETS ${program} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
  endif()
endforeach()

install(EXPORT egdbTargets NAMESPACE egdb:: DESTINATION ${EGDB_INSTALL_CMAKEDIR} COMPONENT development)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/egdbConfig.cmake.in
  ${PROJECT_BINARY_DIR}/egdbConfig.cmake INSTALL_DESTINATION ${EGDB_INSTALL_CMAKEDIR})
# 0.x: a minor version may change the interface, so only the same major.minor is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/egdbConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/egdbConfig.cmake ${PROJECT_BINARY_DIR}/egdbConfigVersion.cmake
        DESTINATION ${EGDB_INSTALL_CMAKEDIR} COMPONENT development)

# egdb.pc finds its prefix from its own location (${pcfiledir}), so that a prefix given only at
# install time (cmake --install build --prefix DIR) or moved afterwards stays correct.
file(RELATIVE_PATH EGDB_PC_PREFIX_FROM_PCFILEDIR "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
string(REGEX REPLACE "/$" "" EGDB_PC_PREFIX_FROM_PCFILEDIR "${EGDB_PC_PREFIX_FROM_PCFILEDIR}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/egdb.pc.in ${PROJECT_BINARY_DIR}/egdb.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/egdb.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
        COMPONENT development)
