// The one type of a database: the upstream EGDB_TYPE values (kingsrow-format.md 3.1, 12.6) and
// egdb's native format. Readers, writers, the probing API and the C ABI all use this enum; only
// the C ABI turns it into the integer constants of egdb.h.
#pragma once

#include <cstdint>
#include <string_view>

namespace egdb {

enum class DatabaseType : std::uint8_t {
    WldRunlen = 0,
    MtcRunlen = 1,
    WldHuffman = 2,  // no driver exists (kingsrow-format.md 9); never opened
    WldTunV1 = 3,
    WldTunV2 = 4,
    Dtw = 5,
    Native = 100,
};

// "EGDB_WLD_TUN_V2", ..., "EGDB_NATIVE".
std::string_view name_of(DatabaseType type) noexcept;

}  // namespace egdb
