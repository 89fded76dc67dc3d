// PDN and Hub move strings from arbitrary text, on a position also read from the input: the first
// line is a FEN (or a Hub position), the rest the move. A move that parses must be legal, and its
// PDN and Hub strings must parse back to it; anything else must fail with an InvalidNotation error.
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "core/notation/fen.hpp"
#include "core/notation/hub_move.hpp"
#include "core/notation/hub_position.hpp"
#include "core/notation/move_notation.hpp"
#include "core/notation/pdn_move.hpp"
#include "core/rules/movegen.hpp"
#include "fuzz/fuzz_support.hpp"

namespace {

void require(bool condition) {
    if (!condition) std::abort();
}

bool is_legal(const egdb::Position& pos, egdb::Color side, const egdb::Move& move) {
    egdb::MoveList list;
    const int count = egdb::generate_moves(pos, side, list);
    for (int i = 0; i < count; ++i) {
        if (list[i] == move) return true;
    }
    return false;
}

template <class Parse>
void try_move(const egdb::FenPosition& at, std::string_view text, Parse&& parse) {
    try {
        const egdb::Move move = parse(at.position, at.side_to_move, text);
        require(is_legal(at.position, at.side_to_move, move));
        for (const egdb::MoveNotation notation : {egdb::MoveNotation::Pdn, egdb::MoveNotation::Hub}) {
            const std::string written = egdb::move_text(at.position, at.side_to_move, move, notation);
            require(!written.empty());
            require(egdb::parse_move(at.position, at.side_to_move, written) == move);
        }
    } catch (const egdb::Error& e) {
        require(e.kind() == egdb::ErrorKind::InvalidNotation);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = egdb::fuzz::as_text(data, size);
    const std::size_t newline = text.find('\n');
    if (newline == std::string_view::npos) return 0;
    const std::string_view position_text = text.substr(0, newline);
    const std::string_view move_text = text.substr(newline + 1);
    std::optional<egdb::FenPosition> at = egdb::try_parse_fen(position_text);
    if (!at) at = egdb::try_parse_hub_position(position_text);
    if (!at) return 0;
    try_move(*at, move_text, [](auto& p, auto s, auto t) { return egdb::parse_move(p, s, t); });
    try_move(*at, move_text, [](auto& p, auto s, auto t) { return egdb::parse_pdn_move(p, s, t); });
    try_move(*at, move_text, [](auto& p, auto s, auto t) { return egdb::parse_hub_move(p, s, t); });
    return 0;
}
