#include "core/formats/kingsrow/result.hpp"

namespace egdb::kingsrow {

std::string_view name_of(WldResult r) noexcept {
    switch (r) {
        case WldResult::SubdbUnavailable: return "EGDB_SUBDB_UNAVAILABLE";
        case WldResult::NotInCache: return "EGDB_NOT_IN_CACHE";
        case WldResult::Unknown: return "EGDB_UNKNOWN";
        case WldResult::Win: return "EGDB_WIN";
        case WldResult::Loss: return "EGDB_LOSS";
        case WldResult::Draw: return "EGDB_DRAW";
        case WldResult::DrawOrLoss: return "EGDB_DRAW_OR_LOSS";
        case WldResult::WinOrDraw: return "EGDB_WIN_OR_DRAW";
    }
    return "unknown result";
}

}  // namespace egdb::kingsrow
