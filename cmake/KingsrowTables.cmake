# The Tunstall code tables of the Kingsrow WLD formats V1 and V2 (kingsrow-format.md section 10).
# They are upstream data, not ours to commit: this script finds them in EGDB_KINGSROW_TABLES
# (default ../shared/kingsrow-tables when that folder exists), or else downloads the two files
# pinned below from the upstream repository, checks their SHA-256 either way, and converts them
# into constant arrays in a generated source of egdb_formats. Without valid tables the build still
# succeeds; opening a V1 or V2 database then fails with a message naming EGDB_KINGSROW_TABLES.
#
# Included from core/CMakeLists.txt after egdb_formats is defined.

set(EGDB_KINGSROW_TABLES_COMMIT a678103a68e680cdeda25c8f3059d7a749091a1d)
# SHA-256 of the pinned files (../shared/kingsrow-tables/SHA256SUMS).
set(EGDB_KINGSROW_TABLES_SHA256_v1 dda9892cc5e6d8dbb3df8e0a07c821589a4f13695aab7c8ad1796e4840a5b527)
set(EGDB_KINGSROW_TABLES_SHA256_v2 c000a78bbfdfc43f36779a0f1dc5ab529d597562003ed73f343ec83958a18401)

set(_egdb_tables_default "")
if(EXISTS "${EGDB_SHARED_DIR}/kingsrow-tables/tunstall_decompress_v1.txt")
  set(_egdb_tables_default "${EGDB_SHARED_DIR}/kingsrow-tables")
endif()
set(EGDB_KINGSROW_TABLES "${_egdb_tables_default}" CACHE PATH
    "Folder holding tunstall_decompress_v1.txt and tunstall_decompress_v2.txt (Kingsrow V1/V2 tables)")
option(EGDB_KINGSROW_TABLES_DOWNLOAD
       "Download the pinned Kingsrow Tunstall tables when EGDB_KINGSROW_TABLES does not provide them" ON)

# Sets ${out_path} to a verified copy of tunstall_decompress_<version>.txt, or to "" and
# ${out_reason} to why not.
function(egdb_find_tunstall_table version out_path out_reason)
  set(name "tunstall_decompress_${version}.txt")
  set(expected "${EGDB_KINGSROW_TABLES_SHA256_${version}}")
  set(reason "")
  if(EGDB_KINGSROW_TABLES)
    set(candidate "${EGDB_KINGSROW_TABLES}/${name}")
    if(EXISTS "${candidate}")
      file(SHA256 "${candidate}" actual)
      if(actual STREQUAL expected)
        set(${out_path} "${candidate}" PARENT_SCOPE)
        return()
      endif()
      set(reason "${candidate} has SHA-256 ${actual}, expected ${expected}")
      message(WARNING "egdb: ${reason}")
    else()
      set(reason "${candidate} does not exist")
    endif()
  else()
    set(reason "EGDB_KINGSROW_TABLES is not set")
  endif()

  if(NOT EGDB_KINGSROW_TABLES_DOWNLOAD)
    set(${out_path} "" PARENT_SCOPE)
    set(${out_reason} "${reason}; downloading is disabled (EGDB_KINGSROW_TABLES_DOWNLOAD=OFF)" PARENT_SCOPE)
    return()
  endif()
  set(downloaded "${CMAKE_BINARY_DIR}/kingsrow-tables/${name}")
  if(EXISTS "${downloaded}")
    file(SHA256 "${downloaded}" actual)
    if(actual STREQUAL expected)
      set(${out_path} "${downloaded}" PARENT_SCOPE)
      return()
    endif()
    file(REMOVE "${downloaded}")
  endif()
  set(url "https://raw.githubusercontent.com/eygilbert/egdb_intl/${EGDB_KINGSROW_TABLES_COMMIT}/egdb/${name}")
  message(STATUS "egdb: ${reason}; downloading ${url}")
  # No EXPECTED_HASH here: its failure is a configure error, and a missing table must not be one.
  file(DOWNLOAD "${url}" "${downloaded}.part" TIMEOUT 60 INACTIVITY_TIMEOUT 20 STATUS status)
  list(GET status 0 code)
  list(GET status 1 text)
  if(code EQUAL 0)
    file(SHA256 "${downloaded}.part" actual)
    if(actual STREQUAL expected)
      file(RENAME "${downloaded}.part" "${downloaded}")
      set(${out_path} "${downloaded}" PARENT_SCOPE)
      return()
    endif()
    set(text "SHA-256 ${actual}, expected ${expected}")
  endif()
  file(REMOVE "${downloaded}.part")
  set(${out_path} "" PARENT_SCOPE)
  set(${out_reason} "${reason}; downloading ${url} failed: ${text}" PARENT_SCOPE)
endfunction()

# Converts one table file (section 10: per catalog N `runlength_t<N>` and `runvalues_t<N>`, 256
# numbers each, then `value_runs`, then the catalog list) into C++ array definitions appended to
# ${out_var}. Checks the shape, so a file of the wrong layout fails here and not at run time.
function(egdb_convert_tunstall_table path version catalogs out_var)
  file(READ "${path}" text)
  string(REGEX REPLACE "/\\*[^*]*\\*/" "" text "${text}")
  if(version STREQUAL "v2")
    set(suffix "_v2")
  else()
    set(suffix "")
  endif()
  set(lengths "")
  set(offsets "")
  math(EXPR last "${catalogs} - 1")
  foreach(n RANGE ${last})
    foreach(kind runlength runvalues)
      string(REGEX MATCH "static unsigned short ${kind}_t${n}${suffix}\\[\\] = {([^}]*)}" found "${text}")
      if(NOT found)
        message(FATAL_ERROR "egdb: ${path}: array ${kind}_t${n}${suffix} not found")
      endif()
      string(REGEX MATCHALL "[0-9]+" numbers "${CMAKE_MATCH_1}")
      list(LENGTH numbers count)
      if(NOT count EQUAL 256)
        message(FATAL_ERROR "egdb: ${path}: ${kind}_t${n}${suffix} has ${count} entries, expected 256")
      endif()
      list(JOIN numbers "," joined)
      if(kind STREQUAL "runlength")
        string(APPEND lengths "${joined},\n")
      else()
        string(APPEND offsets "${joined},\n")
      endif()
    endforeach()
  endforeach()
  string(REGEX MATCH "static unsigned char value_runs${suffix}\\[\\] = {([^}]*)}" found "${text}")
  if(NOT found)
    message(FATAL_ERROR "egdb: ${path}: array value_runs${suffix} not found")
  endif()
  string(REGEX MATCHALL "[0-9]+" runs "${CMAKE_MATCH_1}")
  list(LENGTH runs run_count)
  list(JOIN runs "," runs_joined)
  # The catalog list must pair runlength_tN with runvalues_tN in order N = 0, 1, ...
  string(REGEX MATCHALL "{runlength_t([0-9]+)${suffix}, runvalues_t([0-9]+)${suffix}}" pairs "${text}")
  list(LENGTH pairs pair_count)
  if(NOT pair_count EQUAL catalogs)
    message(FATAL_ERROR "egdb: ${path}: the catalog list has ${pair_count} entries, expected ${catalogs}")
  endif()
  set(n 0)
  foreach(pair IN LISTS pairs)
    if(NOT pair STREQUAL "{runlength_t${n}${suffix}, runvalues_t${n}${suffix}}")
      message(FATAL_ERROR "egdb: ${path}: catalog ${n} is ${pair}")
    endif()
    math(EXPR n "${n} + 1")
  endforeach()
  set(code "${${out_var}}")
  string(APPEND code "constexpr std::uint16_t k_${version}_run_lengths[] = {\n${lengths}};\n")
  string(APPEND code "constexpr std::uint16_t k_${version}_run_offsets[] = {\n${offsets}};\n")
  string(APPEND code "constexpr std::uint8_t k_${version}_value_runs[] = {\n${runs_joined}};\n")
  string(APPEND code "static_assert(std::size(k_${version}_value_runs) == ${run_count});\n\n")
  set(${out_var} "${code}" PARENT_SCOPE)
endfunction()

set(_egdb_tables_code "")
set(_egdb_tables_cases "")
foreach(_version v1 v2)
  if(_version STREQUAL "v1")
    set(_catalogs 30)
    set(_enum V1)
  else()
    set(_catalogs 50)
    set(_enum V2)
  endif()
  egdb_find_tunstall_table(${_version} _path _reason)
  if(_path)
    egdb_convert_tunstall_table("${_path}" ${_version} ${_catalogs} _egdb_tables_code)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_path}")
    string(APPEND _egdb_tables_cases
      "        case TunstallVersion::${_enum}:\n"
      "            return TunstallTableData{${_catalogs}, k_${_version}_run_lengths, k_${_version}_run_offsets,\n"
      "                                     k_${_version}_value_runs, \"\"};\n")
    message(STATUS "egdb: Kingsrow Tunstall table ${_version} from ${_path}")
  else()
    string(REPLACE "\"" "'" _reason "${_reason}")
    string(REPLACE "\\" "/" _reason "${_reason}")
    string(APPEND _egdb_tables_cases
      "        case TunstallVersion::${_enum}:\n"
      "            return TunstallTableData{0, {}, {}, {},\n"
      "                \"egdb was built without the Kingsrow Tunstall table tunstall_decompress_${_version}.txt (${_reason}). \"\n"
      "                \"Reconfigure with -DEGDB_KINGSROW_TABLES=<folder holding tunstall_decompress_v1.txt and \"\n"
      "                \"tunstall_decompress_v2.txt> (SHA-256 pinned in cmake/KingsrowTables.cmake) and rebuild.\"};\n")
    message(WARNING "egdb: no Kingsrow Tunstall table ${_version}: ${_reason}. "
                    "V1/V2 databases will not open; set EGDB_KINGSROW_TABLES to provide it.")
  endif()
endforeach()

set(_egdb_tables_source "// Generated by cmake/KingsrowTables.cmake from the Kingsrow Tunstall tables. Do not edit.
#include \"core/formats/kingsrow/codecs/tunstall_tables.hpp\"

#include <cstdint>
#include <iterator>

namespace egdb::kingsrow {
namespace {

${_egdb_tables_code}}  // namespace

TunstallTableData builtin_tunstall_tables(TunstallVersion version) noexcept {
    switch (version) {
${_egdb_tables_cases}    }
    return {};
}

}  // namespace egdb::kingsrow
")
set(_egdb_tables_file "${CMAKE_CURRENT_BINARY_DIR}/generated/kingsrow_tunstall_tables.cpp")
# Rewrite only when the content changes, so reconfiguring does not rebuild egdb_formats.
file(WRITE "${_egdb_tables_file}.new" "${_egdb_tables_source}")
configure_file("${_egdb_tables_file}.new" "${_egdb_tables_file}" COPYONLY)
target_sources(egdb_formats PRIVATE "${_egdb_tables_file}")
