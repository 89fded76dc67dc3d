#include "core/formats/kingsrow/text_index/lookup_front_end.hpp"

#include <stdexcept>
#include <string>

#include "core/util/error.hpp"

namespace egdb::kingsrow {

MissingValues missing_values_of(DbType type) {
    switch (type) {
        case DbType::WldRunlen: return {2, 1, 0, 0, 0, 0, -1, 9};
        case DbType::WldTunV1: return {2, 1, -2, 0, -2, 0, -1, 8};
        case DbType::WldTunV2: return {2, 1, -2, 0, -2, 0, -1, 9};
        case DbType::MtcRunlen: return {1, 1, 1, 1, 1, 1, 1, 8};
        default: throw InvalidArgumentError(std::string(name_of(type)) + " has no text-indexed lookup");
    }
}

}  // namespace egdb::kingsrow
