// Hub position strings: the `pos=` value of the Hub protocol (Scan's protocol.txt, version 2,
// section "1) position"), as pydraughts' HubEngine, lidraughts-bot and dame-rs's `dame hub` send
// it. One character for the side to move, `W` or `B`, then one character per square 1..50 in
// order: `w` white man, `b` black man, `W` white king, `B` black king, `e` empty; 51 in all.
// The start position is `Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww`.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/board/position.hpp"
#include "core/notation/fen.hpp"
#include "core/notation/notation_error.hpp"

namespace egdb {

// Characters of a Hub position: the side letter and the 50 squares.
inline constexpr std::size_t kHubPositionLength = 1 + kNumSquares;

// Parses a Hub position. Whitespace around it is skipped; everything else must be exactly the 51
// characters above, with the letters' case as the protocol gives them (the case of a square
// letter tells a man from a king, so no other case can be accepted for it, and the side letter
// is the upper-case one the protocol shows). Rejected with a NotationError naming the character
// and its byte offset: any other character, a wrong length, and the positions parse_fen rejects
// too (a man on its own promotion row, more than kMaxFenPiecesPerSide pieces of one colour).
FenPosition parse_hub_position(std::string_view text);

// The same without exceptions: nullopt on error, with the message in *error when given.
std::optional<FenPosition> try_parse_hub_position(std::string_view text, std::string* error = nullptr) noexcept;

// The Hub position string of a position (51 characters). parse_hub_position(to_hub_position(p,
// c)) == FenPosition{p, c} for every well-formed position with at most kMaxFenPiecesPerSide
// pieces per side.
std::string to_hub_position(const Position& position, Color side);

}  // namespace egdb
