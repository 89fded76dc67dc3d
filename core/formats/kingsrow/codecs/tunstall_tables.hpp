// The Tunstall code tables of the Kingsrow WLD formats V1 and V2 (kingsrow-format.md section 10),
// as converted at configure time by cmake/KingsrowTables.cmake. They are upstream data and are
// not part of the repository, so a build may lack them: then `catalogs` is 0 and
// `unavailable_reason` says how to provide them.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace egdb::kingsrow {

enum class TunstallVersion : std::uint8_t { V1, V2 };

struct TunstallTableData {
    int catalogs = 0;                              // 30 (V1) or 50 (V2); 0 when absent
    std::span<const std::uint16_t> run_lengths;    // catalogs x 256: positions covered by a code
    std::span<const std::uint16_t> run_offsets;    // catalogs x 256: offset of its run list
    std::span<const std::uint8_t> value_runs;      // (v, lo, hi) triples, each list ended by 6
    std::string_view unavailable_reason;           // empty when present

    bool available() const noexcept { return catalogs > 0; }
};

// Defined in the generated source (build directory).
TunstallTableData builtin_tunstall_tables(TunstallVersion version) noexcept;

}  // namespace egdb::kingsrow
