// FEN (with the Lidraughts suffixes and the PDN tag dialect) and Hub position strings from
// arbitrary text. A parse either fails with the notation's error or yields a position that writes
// back to text which parses to the same position: a parser that accepts something it cannot
// represent, or a writer that disagrees with the parser, aborts the run.
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "core/notation/fen.hpp"
#include "core/notation/hub_position.hpp"
#include "fuzz/fuzz_support.hpp"

namespace {

void require(bool condition) {
    if (!condition) std::abort();
}

void check_round_trips(const egdb::FenPosition& parsed) {
    require(egdb::is_well_formed(parsed.position));
    const std::string fen = egdb::to_fen(parsed.position, parsed.side_to_move);
    require(egdb::parse_fen(fen) == parsed);
    const std::string hub = egdb::to_hub_position(parsed.position, parsed.side_to_move);
    require(egdb::parse_hub_position(hub) == parsed);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = egdb::fuzz::as_text(data, size);
    std::string error;
    if (const std::optional<egdb::FenPosition> fen = egdb::try_parse_fen(text, &error)) {
        check_round_trips(*fen);
    } else {
        require(!error.empty());  // a refusal always says why
    }
    error.clear();
    if (const std::optional<egdb::FenPosition> hub = egdb::try_parse_hub_position(text, &error)) {
        check_round_trips(*hub);
    } else {
        require(!error.empty());
    }
    // The throwing form must agree with the non-throwing one.
    try {
        const egdb::FenPosition fen = egdb::parse_fen(text);
        require(egdb::try_parse_fen(text) == fen);
    } catch (const egdb::FenError&) {
        require(!egdb::try_parse_fen(text).has_value());
    }
    return 0;
}
