// The generator's solver core (core/generate): solves every slice of up to kMaxTestPieces pieces
// once, then checks the solution against the Kingsrow oracles (WLD of example positions, the
// highest MTC of every slice and side), against itself one ply deep (the `egdb verify` rule), and
// against a one-thread solve.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/generate/build_driver.hpp"
#include "core/generate/king_placements.hpp"
#include "core/generate/men_order.hpp"
#include "core/values/one_ply_check.hpp"
#include "core/values/solved_lookup.hpp"
#include "core/generate/slice_solver.hpp"
#include "core/generate/solution_store.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/notation/fen.hpp"
#include "core/rules/movegen.hpp"
#include "tests/shared_dir.hpp"
#include "tests/test_positions.hpp"

namespace egdb {
namespace {

using test::make_position;

// 4 pieces in well under a minute in Release; sanitizer builds (EGDB_TEST_QUICK) stop at 3.
int max_test_pieces() { return test::quick_mode() ? 3 : 4; }
constexpr int kThreads = 2;

// The solution shared by the tests of this file, built on first use.
const SolutionStore& solved_store() {
    static const std::unique_ptr<SolutionStore> store = [] {
        auto s = std::make_unique<SolutionStore>();
        solve_slices(max_test_pieces(), *s, {kThreads, {}});
        return s;
    }();
    return *store;
}

WldValue parse_wld(const std::string& word) {
    if (word == "win") return WldValue::Win;
    if (word == "loss") return WldValue::Loss;
    if (word == "draw") return WldValue::Draw;
    throw std::runtime_error("bad WLD word " + word);
}

TEST(GenerateValues, DistanceCodeParityGivesWld) {
    EXPECT_EQ(wld_of_code(0), WldValue::Loss);
    EXPECT_EQ(wld_of_code(1), WldValue::Win);
    EXPECT_EQ(wld_of_code(kDrawCode), WldValue::Draw);
    EXPECT_EQ(decode_value(kDrawCode, 7), (PositionValue{WldValue::Draw, 0, 0}));
    EXPECT_EQ(decode_value(12, 5), (PositionValue{WldValue::Loss, 12, 5}));
}

TEST(GenerateOrder, DependenciesComeFirst) {
    const std::vector<SliceId> order = build_order(5);
    EXPECT_EQ(order.size(), 3u + 6u + 14u + 22u);  // section 1.5, canonical slices of 2..5 pieces
    std::map<SliceId, std::size_t> position;
    for (std::size_t i = 0; i < order.size(); ++i) position[order[i]] = i;
    const auto canonical = [](SliceId s) { return is_canonical(s) ? s : color_reversed(s); };
    for (const SliceId s : order) {
        // Promotions: one man fewer, one king more, same pieces.
        if (s.nbm > 0) {
            EXPECT_LT(position.at(canonical({s.nbm - 1, s.nbk + 1, s.nwm, s.nwk})), position.at(s));
        }
        if (s.nwm > 0) {
            EXPECT_LT(position.at(canonical({s.nbm, s.nbk, s.nwm - 1, s.nwk + 1})), position.at(s));
        }
    }
}

// Calls read(side, q, t, read_at) for every legal move of either side in `p` that leaves both
// colours on the board: q is the position after it, t the canonical slice a lookup of q asks the
// store for and read_at the side to move there (a reversal to the canonical orientation swaps it).
template <class Read>
void for_each_read(const Position& p, Read&& read) {
    for (const Color side : {Color::Black, Color::White}) {
        MoveList moves;
        generate_moves(p, side, moves);
        for (const Move& m : moves) {
            const Position q = apply_move(p, side, m);
            if (has_empty_side(q)) continue;
            const SliceId t = slice_of(q);
            if (is_canonical(t)) {
                read(side, q, t, opposite(side));
            } else {
                read(side, q, color_reversed(t), side);
            }
        }
    }
}

// successor_slices must hold every slice a move leads to (the verifier keeps exactly those in
// memory), and each of them is built before the slice.
TEST(GenerateOrder, SuccessorSlicesHoldEveryMoveAndComeFirst) {
    const std::vector<SliceId> order = build_order(5);
    std::mt19937_64 rng(20240611);
    const int samples = test::quick_mode() ? 300 : 3000;
    for (std::size_t k = 0; k < order.size(); ++k) {
        const SliceId s = order[k];
        const std::vector<SliceId> successors = successor_slices(s);
        const std::vector<SuccessorRead> reads = successor_reads(s);
        std::vector<SideSet> seen(reads.size());
        for (const SliceId t : successors) {
            EXPECT_TRUE(is_canonical(t)) << s.to_string() << " -> " << t.to_string();
            EXPECT_LT(std::find(order.begin(), order.end(), t) - order.begin(), static_cast<std::ptrdiff_t>(k))
                << s.to_string() << " -> " << t.to_string();
        }
        for (int n = 0; n < samples; ++n) {
            const Position p = test::random_position(rng, s.nbm, s.nbk, s.nwm, s.nwk);
            for_each_read(p, [&](Color side, const Position& q, SliceId t, Color read_at) {
                if (t == s) return;
                EXPECT_NE(std::find(successors.begin(), successors.end(), t), successors.end())
                    << to_fen(p, side) << " -> " << to_fen(q, opposite(side));
                // successor_reads names the side to move the store is asked for there.
                const auto read = std::find_if(reads.begin(), reads.end(), [&](const SuccessorRead& r) { return r.slice == t; });
                ASSERT_NE(read, reads.end()) << s.to_string() << " -> " << t.to_string();
                EXPECT_TRUE(read->sides.contains(read_at)) << to_fen(p, side) << " -> " << to_fen(q, opposite(side));
                seen[static_cast<std::size_t>(read - reads.begin())] |= SideSet::only(read_at);
            });
        }
        // The same slices, in the same order, each read at some side.
        ASSERT_EQ(reads.size(), successors.size());
        for (std::size_t i = 0; i < reads.size(); ++i) {
            EXPECT_EQ(reads[i].slice, successors[i]);
            EXPECT_FALSE(reads[i].sides.empty());
            EXPECT_TRUE(reads[i].sides.contains(seen[i])) << s.to_string() << " -> " << reads[i].slice.to_string();
        }
    }
}

// The sides successor_reads names are exactly those some move reaches, over every position of
// every slice of up to 3 pieces: a side named but never reached would be decoded for nothing. A
// read is nearly always at one side to move; 1110 reads 0110 at both (a white man takes a black
// man, Black to move; or takes the king and promotes, 1001 with Black to move, which is 0110
// with White to move reversed).
TEST(GenerateOrder, SuccessorSidesAreExactlyThoseMovesReach) {
    std::size_t two_sided = 0;
    for (const SliceId s : build_order(3)) {
        const std::vector<SuccessorRead> reads = successor_reads(s);
        std::vector<SideSet> seen(reads.size());
        const SliceIndexer indexer(s);
        for (std::uint64_t i = 0; i < indexer.size(); ++i) {
            for_each_read(indexer.position_at(i), [&](Color, const Position&, SliceId t, Color read_at) {
                const auto read = std::find_if(reads.begin(), reads.end(), [&](const SuccessorRead& r) { return r.slice == t; });
                if (read != reads.end()) seen[static_cast<std::size_t>(read - reads.begin())] |= SideSet::only(read_at);
            });
        }
        for (std::size_t k = 0; k < reads.size(); ++k) {
            EXPECT_EQ(seen[k], reads[k].sides) << s.to_string() << " -> " << reads[k].slice.to_string();
            if (reads[k].sides.count() == 2) ++two_sided;
        }
    }
    EXPECT_EQ(two_sided, 1u);  // 1110 -> 0110
}

// A level reads only the next more advanced one (solved_level.hpp): every man move that stays
// in the slice raises the advancement by exactly one.
TEST(GenerateOrder, ManMovesLeadToTheNextLevel) {
    const SliceId slice{1, 0, 2, 0};
    const SliceIndexer& indexer = slice_indexer(slice);
    const auto levels = men_configuration_levels(slice);
    const std::uint64_t block = indexer.size() / men_configurations(slice.nbm, slice.nwm);
    std::vector<int> level_of(men_configurations(slice.nbm, slice.nwm));
    std::size_t total = 0;
    for (std::size_t l = 0; l < levels.size(); ++l) {
        if (l > 0) {
            EXPECT_LT(levels[l].advancement, levels[l - 1].advancement);
        }
        for (const std::uint64_t men : levels[l].configurations) {
            level_of[men] = levels[l].advancement;
            EXPECT_EQ(men_advancement(indexer.position_at(men * block)), levels[l].advancement);
        }
        total += levels[l].configurations.size();
    }
    ASSERT_EQ(total, level_of.size());
    for (std::uint64_t men = 0; men < level_of.size(); ++men) {
        const Position p = indexer.position_at(men * block);
        for (const Color side : {Color::Black, Color::White}) {
            MoveList moves;
            generate_moves(p, side, moves);
            for (const Move& m : moves) {
                const Position q = apply_move(p, side, m);
                if (m.is_capture() || slice_of(q) != slice) continue;
                EXPECT_EQ(level_of[indexer.index_of(q) / block], level_of[men] + 1) << to_fen(p, side);
            }
        }
    }
}

TEST(GenerateKingPlacements, AgreeWithTheSliceIndexer) {
    for (const SliceId slice : {SliceId{1, 1, 1, 1}, SliceId{0, 2, 1, 1}, SliceId{2, 0, 0, 2}, SliceId{0, 1, 0, 3}}) {
        const SliceIndexer& indexer = slice_indexer(slice);
        const KingPlacements kings(slice);
        const std::uint64_t block = kings.block_size();
        ASSERT_EQ(indexer.size() % block, 0u);
        for (std::uint64_t index = 0; index < indexer.size(); index += 7) {
            const Position p = indexer.position_at(index);
            const Bitboard men = p.men(Color::Black) | p.men(Color::White);
            ASSERT_EQ(kings.position(p.men(Color::Black), p.men(Color::White), index % block), p);
            ASSERT_EQ(kings.local_index(men, p.kings(Color::Black), p.kings(Color::White)), index % block);
        }
    }
}

// KingStepRanks against the rank of the whole group: every group of 1 to 5 kings on random
// logical squares, every king of it moved to every logical square not taken by the others.
TEST(GenerateKingPlacements, OneKingStepRanksAreTheGroupsRanks) {
    std::mt19937_64 random(25);
    for (int kings = 1; kings <= kMaxPiecesPerSide; ++kings) {
        for (int trial = 0; trial < 200; ++trial) {
            Bitboard group = 0;
            while (std::popcount(group) < kings) group |= Bitboard{1} << (random() % 50);
            for (Bitboard movers = group; movers != 0; movers &= movers - 1) {
                const Bitboard others = group & ~lowest_bit(movers);
                const KingStepRanks ranks(others);
                for (unsigned y = 0; y < 50; ++y) {
                    if ((others >> y & 1) != 0) continue;
                    ASSERT_EQ(ranks.rank(y), detail::group_rank(others | Bitboard{1} << y, kings)) << "kings " << kings << " others " << others << " square " << y;
                }
            }
        }
    }
}

TEST(GenerateSolve, SimpleEndings) {
    const SolutionStore& store = solved_store();
    // A lone king cannot catch a lone king: draw.
    EXPECT_EQ(store.value(make_position({.white_kings = {2}, .black_kings = {26}}), Color::Black).wld, WldValue::Draw);
    // Black to move captures the last white piece: a win in one ply; a conversion by the
    // canonical Black (slice 0110) counts kStrongerSideConversionPlies in MTC.
    const Position capture = make_position({.white_men = {31}, .black_kings = {26}});
    EXPECT_EQ(store.value(capture, Color::Black), (PositionValue{WldValue::Win, 1, kStrongerSideConversionPlies}));
    // White to move must take 31 with its king and is then taken: White's conversion.
    const Position forced = make_position({.white_kings = {22}, .black_men = {27}, .black_kings = {36}});
    EXPECT_EQ(store.value(forced, Color::White).mtc, kOtherSideConversionPlies);
    // Black's king on 26 moves; White's man on 28 must then move and is lost: 1 + White's man move.
    EXPECT_EQ(store.value(make_position({.white_men = {28}, .black_kings = {26}}), Color::Black).mtc,
              1 + kOtherSideConversionPlies);
    // Non-canonical orientation (White has more pieces): White is the canonical Black.
    EXPECT_EQ(conversion_plies(make_position({.white_kings = {22, 23}, .black_kings = {36}}), Color::White),
              kStrongerSideConversionPlies);
    // Colour-symmetric slice: neither side is stronger, each conversion counts
    // kOtherSideConversionPlies. Black's king on 27 takes White's on 22: a win in one ply (0101).
    for (const Color mover : {Color::Black, Color::White}) {
        EXPECT_EQ(conversion_plies(make_position({.white_kings = {22}, .black_kings = {36}}), mover),
                  kOtherSideConversionPlies);
    }
    EXPECT_EQ(store.value(make_position({.white_kings = {22}, .black_kings = {27}}), Color::Black),
              (PositionValue{WldValue::Win, 1, kOtherSideConversionPlies}));
    // The same with colours reversed, White to move (the stored Black side, reversed).
    EXPECT_EQ(store.value(make_position({.white_kings = {24}, .black_kings = {29}}), Color::White),
              (PositionValue{WldValue::Win, 1, kOtherSideConversionPlies}));
    // The white man on 46 can neither move to 41 nor take it (37 is taken): lost at once.
    const Position blocked = make_position({.white_men = {46}, .black_kings = {37, 41}});
    EXPECT_EQ(store.value(blocked, Color::White), (PositionValue{WldValue::Loss, 0, 0}));
}

TEST(GenerateSolve, KingsrowExampleWld) {
    EGDB_REQUIRE_SHARED_FILE(file, "oracles/kingsrow_example_wld.txt");
    const SolutionStore& store = solved_store();
    std::ifstream in(file);
    std::string line;
    int checked = 0;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream fields(line);
        std::string fen, word;
        fields >> fen >> word;
        const FenPosition f = parse_fen(fen);
        if (popcount(f.position.occupied()) > max_test_pieces()) continue;
        EXPECT_EQ(store.value(f.position, f.side_to_move).wld, parse_wld(word)) << line;
        ++checked;
    }
    EXPECT_EQ(checked, max_test_pieces() == 4 ? 6 + 12 + 28 : 6 + 12);
}

struct HighMtcRecord {
    SliceId slice;
    Color side = Color::Black;
    int mtc = 0;
    std::string fen;
};

std::vector<HighMtcRecord> read_high_mtc(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::vector<HighMtcRecord> records;
    std::string header, fen;
    while (std::getline(in, header)) {
        // db<bm><bk><wm><wk>-<subslice>: <colour>, mtc <n>
        if (header.rfind("db", 0) != 0) continue;
        std::getline(in, fen);
        HighMtcRecord r;
        r.slice = {header[2] - '0', header[3] - '0', header[4] - '0', header[5] - '0'};
        r.side = header.find("white") != std::string::npos ? Color::White : Color::Black;
        r.mtc = std::stoi(header.substr(header.find("mtc ") + 4));
        while (!fen.empty() && (fen.back() == '.' || fen.back() == '\r')) fen.pop_back();
        r.fen = fen;
        records.push_back(r);
    }
    return records;
}

TEST(GenerateSolve, KingsrowHighestMtc) {
    EGDB_REQUIRE_SHARED_FILE(file, "oracles/kingsrow_high_mtc.txt");
    const SolutionStore& store = solved_store();
    int checked = 0;
    for (const HighMtcRecord& r : read_high_mtc(file)) {
        if (r.slice.total() > max_test_pieces()) continue;
        const SolvedSlice* solved = store.find(r.slice);
        ASSERT_NE(solved, nullptr) << r.slice.to_string();
        unsigned highest = 0;
        for (std::uint64_t i = 0; i < solved->size(); ++i) {
            const PositionValue v = solved->value(i, r.side);
            if (v.wld != WldValue::Draw) highest = std::max<unsigned>(highest, v.mtc);
        }
        EXPECT_EQ(highest, static_cast<unsigned>(r.mtc)) << r.slice.to_string() << " " << r.fen;
        const FenPosition f = parse_fen(r.fen);
        EXPECT_EQ(store.value(f.position, f.side_to_move).mtc, r.mtc) << r.fen;
        ++checked;
    }
    EXPECT_EQ(checked, max_test_pieces() == 4 ? 1 + 7 : 1);
}

TEST(GenerateSolve, EveryPositionIsOnePlyConsistent) {
    const SolutionStore& store = solved_store();
    std::uint64_t checked = 0;
    for (const SliceId slice : store.slices()) {
        const SolvedSlice& solved = *store.find(slice);
        const SliceIndexer& indexer = slice_indexer(slice);
        int failures = 0;
        for (std::uint64_t i = 0; i < solved.size(); ++i) {
            const Position p = indexer.position_at(i);
            for (const Color side : {Color::Black, Color::White}) {
                const auto mismatch = check_one_ply(p, side, solved.value(i, side), store);
                if (mismatch && ++failures <= 5) ADD_FAILURE() << slice.to_string() << " " << *mismatch;
                ++checked;
            }
        }
        EXPECT_EQ(failures, 0) << slice.to_string();
    }
    EXPECT_GT(checked, 0u);
}

TEST(GenerateSolve, OneThreadGivesTheSameSolution) {
    const SolutionStore& store = solved_store();
    // Re-solve every slice with one thread, reading the smaller slices from the two-thread store.
    for (const SliceId slice : store.slices()) {
        const SolvedSlice single = SliceSolver(slice, store, {1}).solve();
        EXPECT_TRUE(single == *store.find(slice)) << slice.to_string();
    }
}

TEST(GenerateSolve, RejectsEmptySides) {
    const SolutionStore store;
    EXPECT_THROW(SliceSolver(SliceId{0, 0, 1, 1}, store), std::invalid_argument);
    EXPECT_THROW(SliceSolver(SliceId{6, 0, 1, 1}, store), std::invalid_argument);
}

}  // namespace
}  // namespace egdb
