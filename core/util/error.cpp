#include "core/util/error.hpp"

#include <new>

namespace egdb {

std::string_view to_string(ErrorKind kind) noexcept {
    switch (kind) {
        case ErrorKind::InvalidArgument: return "invalid argument";
        case ErrorKind::InvalidNotation: return "invalid notation";
        case ErrorKind::NoDatabase: return "no database";
        case ErrorKind::LookupNotPossible: return "lookup not possible";
        case ErrorKind::CorruptData: return "corrupt data";
        case ErrorKind::Io: return "I/O error";
        case ErrorKind::Unsupported: return "unsupported";
        case ErrorKind::Cancelled: return "cancelled";
        case ErrorKind::Internal: return "internal error";
    }
    return "internal error";
}

ErrorKind kind_of(const std::exception& e) noexcept {
    if (const auto* error = dynamic_cast<const Error*>(&e)) return error->kind();
    if (dynamic_cast<const std::invalid_argument*>(&e) != nullptr || dynamic_cast<const std::out_of_range*>(&e) != nullptr ||
        dynamic_cast<const std::length_error*>(&e) != nullptr) {
        return ErrorKind::InvalidArgument;
    }
    return ErrorKind::Internal;
}

}  // namespace egdb
