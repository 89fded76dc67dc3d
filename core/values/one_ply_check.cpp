#include "core/values/one_ply_check.hpp"

#include "core/notation/fen.hpp"

namespace egdb {

const char* to_string(WldValue v) noexcept {
    switch (v) {
        case WldValue::Win: return "win";
        case WldValue::Loss: return "loss";
        case WldValue::Draw: return "draw";
    }
    return "?";
}

std::string describe(const PositionValue& value) {
    if (value.wld == WldValue::Draw) return "draw";
    return std::string(to_string(value.wld)) + " dtw=" + std::to_string(value.dtw) + " mtc=" + std::to_string(value.mtc);
}

std::optional<std::string> check_one_ply(const Position& position, Color side_to_move, const PositionValue& claimed,
                                         const SolvedLookup& values) {
    const PositionValue derived = value_from_successors(position, side_to_move, values);
    if (derived == claimed) return std::nullopt;
    return to_fen(position, side_to_move) + ": stored " + describe(claimed) + ", successors give " + describe(derived);
}

}  // namespace egdb
