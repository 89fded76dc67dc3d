// Perft against ../shared/oracles/perft.txt (counts from the upstream driver's perft test).
#include "core/rules/perft.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/notation/fen.hpp"
#include "tests/shared_dir.hpp"
#include "tests/test_positions.hpp"

namespace egdb {
namespace {

struct PerftCase {
    std::string fen;
    int depth;
    std::uint64_t nodes;
};

std::vector<PerftCase> read_perft_oracle(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::vector<PerftCase> cases;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream fields(line);
        PerftCase c;
        std::string depth, nodes;
        std::getline(fields, c.fen, '|');
        std::getline(fields, depth, '|');
        std::getline(fields, nodes, '|');
        c.depth = std::stoi(depth);
        c.nodes = std::stoull(nodes);
        cases.push_back(c);
    }
    return cases;
}

TEST(Perft, MatchesOracleCounts) {
    EGDB_REQUIRE_SHARED_FILE(oracle, "oracles/perft.txt");
    const auto cases = read_perft_oracle(oracle);
    ASSERT_GE(cases.size(), 10U) << "perft oracle looks truncated";
    // Counts up to this many leaves run in a few seconds; deeper ones (start position depth 11)
    // are checked by `egdb bench perft`. Sanitizer builds only run the small ones.
    const std::uint64_t limit = test::quick_mode() ? 2'000'000 : 300'000'000;
    int checked = 0;
    for (const PerftCase& c : cases) {
        if (c.nodes > limit) continue;
        const FenPosition fp = parse_fen(c.fen);
        EXPECT_EQ(perft(fp.position, fp.side_to_move, c.depth), c.nodes) << c.fen << " depth " << c.depth;
        ++checked;
    }
    EXPECT_GE(checked, test::quick_mode() ? 6 : 14);
}

TEST(Perft, ParallelEqualsSerial) {
    const FenPosition fp = parse_fen("W:W31-50:B1-20");
    EXPECT_EQ(perft_parallel(fp.position, fp.side_to_move, 6, 2), perft(fp.position, fp.side_to_move, 6));
    EXPECT_EQ(perft(fp.position, fp.side_to_move, 0), 1U);
}

}  // namespace
}  // namespace egdb
