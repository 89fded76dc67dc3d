#include "core/formats/database_type.hpp"

namespace egdb {

std::string_view name_of(DatabaseType type) noexcept {
    switch (type) {
        case DatabaseType::WldRunlen: return "EGDB_WLD_RUNLEN";
        case DatabaseType::MtcRunlen: return "EGDB_MTC_RUNLEN";
        case DatabaseType::WldHuffman: return "EGDB_WLD_HUFFMAN";
        case DatabaseType::WldTunV1: return "EGDB_WLD_TUN_V1";
        case DatabaseType::WldTunV2: return "EGDB_WLD_TUN_V2";
        case DatabaseType::Dtw: return "EGDB_DTW";
        case DatabaseType::Native: return "EGDB_NATIVE";
    }
    return "EGDB_UNKNOWN_TYPE";
}

}  // namespace egdb
