// Tests of the slice index (kingsrow-format.md sections 1.5 and 2): the worked examples and
// reference sizes of 2.6, the canonical-slice enumeration, exhaustive round trips and a
// brute-force bijection check on small slices, sampled round trips on larger ones, and agreement
// of the fast SliceIndexer with the square-by-square reference implementation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/index/binomial.hpp"
#include "core/index/reference_indexer.hpp"
#include "core/index/slice.hpp"
#include "core/index/slice_indexer.hpp"

namespace egdb {
namespace {

// Sanitizer builds set EGDB_TEST_QUICK (scripts/test.sh): the exhaustive checks then stop at 3
// pieces and the 4-piece slices are sampled instead.
bool quick_mode() {
    const char* value = std::getenv("EGDB_TEST_QUICK");
    return value != nullptr && *value != '\0' && *value != '0';
}

int exhaustive_max_pieces() { return quick_mode() ? 3 : 4; }

Bitboard squares(std::initializer_list<int> list) {
    Bitboard b = 0;
    for (const int s : list) b |= square_bb(s);
    return b;
}

// A position from square lists (FEN of 2.6: "B:W27,28,K50:B3,K7,12" is black men {3,12}, black
// kings {7}, white men {27,28}, white kings {50}).
Position make_position(std::initializer_list<int> black_men, std::initializer_list<int> black_kings,
                       std::initializer_list<int> white_men, std::initializer_list<int> white_kings) {
    const Bitboard bk = squares(black_kings);
    const Bitboard wk = squares(white_kings);
    return {squares(black_men) | bk, squares(white_men) | wk, bk | wk};
}

std::string describe(const Position& p) {
    std::ostringstream out;
    out << std::hex << "{black 0x" << p.black << ", white 0x" << p.white << ", king 0x" << p.king << "}";
    return out.str();
}

// Legal member of `slice`: structurally well formed (1.3) and with the slice's piece counts.
bool belongs_to(const Position& p, SliceId slice) {
    return is_well_formed(p) && slice_of(p) == slice;
}

// ---------------------------------------------------------------------------------------------
// Binomials and slices

TEST(IndexBinomial, MatchesKnownValues) {
    EXPECT_EQ(binomial(0, 0), 1u);
    EXPECT_EQ(binomial(50, 0), 1u);
    EXPECT_EQ(binomial(0, 1), 0u);
    EXPECT_EQ(binomial(4, 5), 0u);
    EXPECT_EQ(binomial(5, 2), 10u);
    EXPECT_EQ(binomial(40, 4), 91'390u);
    EXPECT_EQ(binomial(45, 5), 1'221'759u);
    EXPECT_EQ(binomial(50, 5), 2'118'760u);
    EXPECT_EQ(binomial(50, 8), 536'878'650u);
    EXPECT_EQ(binomial(50, 10), 10'272'278'170u);
    for (int n = 1; n <= kBinomialMaxN; ++n) {
        for (int k = 1; k <= kBinomialMaxK; ++k) {
            EXPECT_EQ(binomial(n, k), binomial(n - 1, k - 1) + binomial(n - 1, k)) << n << " " << k;
        }
    }
}

TEST(SliceId, NameIsCountsInFileOrder) {
    EXPECT_EQ((SliceId{2, 2, 1, 2}.to_string()), "2212");
    EXPECT_EQ((SliceId{0, 1, 1, 1}.to_string()), "0111");
    EXPECT_EQ(slice_of(make_position({3, 12}, {7}, {27, 28}, {50})), (SliceId{2, 1, 2, 1}));
}

TEST(SliceCanonical, RuleOfSection15) {
    EXPECT_TRUE(is_canonical({1, 0, 1, 0}));
    EXPECT_TRUE(is_canonical({0, 1, 1, 0}));   // nb == nw, nbk 1 >= nwk 0
    EXPECT_FALSE(is_canonical({1, 0, 0, 1}));  // nwk > nbk
    EXPECT_TRUE(is_canonical({2, 0, 0, 1}));   // nb > nw
    EXPECT_FALSE(is_canonical({0, 1, 2, 0}));  // nw > nb
    for (const SliceId s : all_slices(10)) {
        // Exactly one of a slice and its reversal is canonical, unless they are the same slice.
        if (is_color_symmetric(s)) {
            EXPECT_TRUE(is_canonical(s)) << s.to_string();
        } else {
            EXPECT_NE(is_canonical(s), is_canonical(color_reversed(s))) << s.to_string();
        }
    }
}

TEST(SliceCanonical, LookupReversal) {
    // The two examples of 2.6.
    const LookupKey a = lookup_key(make_position({45}, {}, {46}, {}), Color::White);
    EXPECT_TRUE(a.reversed);
    EXPECT_EQ(a.position, make_position({5}, {}, {6}, {}));
    EXPECT_EQ(a.side_to_move, Color::Black);
    EXPECT_EQ(a.slice, (SliceId{1, 0, 1, 0}));
    EXPECT_EQ(SliceIndexer(a.slice).index_of(a.position), 224u);

    const LookupKey b = lookup_key(make_position({}, {1}, {}, {28}), Color::White);
    EXPECT_TRUE(b.reversed);
    EXPECT_EQ(b.position, make_position({}, {23}, {}, {50}));
    EXPECT_EQ(b.side_to_move, Color::Black);
    EXPECT_EQ(SliceIndexer(b.slice).index_of(b.position), 1126u);

    // No reversal with Black to move in a symmetric slice or in a canonical asymmetric one.
    EXPECT_FALSE(lookup_key(make_position({45}, {}, {46}, {}), Color::Black).reversed);
    const Position more_black = make_position({12, 13}, {}, {}, {40});
    EXPECT_FALSE(lookup_key(more_black, Color::White).reversed);
    EXPECT_FALSE(lookup_key(more_black, Color::Black).reversed);
    // Each condition of 1.5.
    EXPECT_TRUE(lookup_reverses({0, 1, 0, 2}, Color::Black));   // nw > nb
    EXPECT_TRUE(lookup_reverses({1, 0, 0, 1}, Color::Black));   // nw == nb, nwk > nbk
    EXPECT_TRUE(lookup_reverses({1, 1, 1, 1}, Color::White));   // symmetric, White to move
    EXPECT_FALSE(lookup_reverses({0, 1, 1, 0}, Color::White));  // nw == nb, nbk > nwk
    for (const SliceId s : all_slices(10)) {
        for (const Color side : {Color::Black, Color::White}) {
            const SliceId looked_up = lookup_reverses(s, side) ? color_reversed(s) : s;
            EXPECT_TRUE(is_canonical(looked_up)) << s.to_string();
            if (is_color_symmetric(s)) {
                EXPECT_EQ(lookup_reverses(s, side), side == Color::White);
            }
        }
    }
}

TEST(SliceCanonical, LookupKeyIsConsistentWithTheSlices) {
    std::mt19937_64 rng(15);
    for (const SliceId s : all_slices(10)) {
        const SliceIndexer indexer(s);
        std::uniform_int_distribution<std::uint64_t> pick(0, indexer.size() - 1);
        const Position p = indexer.position_at(pick(rng));
        for (const Color side : {Color::Black, Color::White}) {
            const LookupKey key = lookup_key(p, side);
            EXPECT_EQ(key.reversed, lookup_reverses(s, side)) << s.to_string();
            EXPECT_TRUE(is_canonical(key.slice)) << s.to_string();
            EXPECT_EQ(slice_of(key.position), key.slice) << s.to_string();
            EXPECT_TRUE(is_well_formed(key.position)) << s.to_string();
            if (is_color_symmetric(key.slice)) {
                EXPECT_EQ(key.side_to_move, Color::Black) << s.to_string();
            }
            if (key.reversed) {
                EXPECT_EQ(reversed(key.position), p);
                EXPECT_EQ(key.side_to_move, opposite(side));
            } else {
                EXPECT_EQ(key.position, p);
                EXPECT_EQ(key.side_to_move, side);
            }
        }
    }
}

std::vector<std::string> names(const std::vector<SliceId>& slices) {
    std::vector<std::string> out;
    for (const SliceId s : slices) out.push_back(s.to_string());
    return out;
}

TEST(SliceEnumeration, CanonicalSlicesInDriverOrder) {
    EXPECT_EQ(names(canonical_slices(2)), (std::vector<std::string>{"1010", "0110", "0101"}));
    EXPECT_EQ(names(canonical_slices(3)),
              (std::vector<std::string>{"2010", "2001", "1110", "1101", "0210", "0201"}));
    // The per-slice file names of the TUN_V2 distribution (Appendix A.1) are exactly the
    // canonical slices with 6, 7 and 8 pieces.
    const std::set<std::string> db6 = {
        "0303", "0312", "0321", "0330", "0402", "0411", "0420", "0501", "0510", "1212", "1221", "1230", "1302",
        "1311", "1320", "1401", "1410", "2121", "2130", "2202", "2211", "2220", "2301", "2310", "3030", "3102",
        "3111", "3120", "3201", "3210", "4002", "4011", "4020", "4101", "4110", "5001", "5010"};
    const std::set<std::string> db7 = {
        "0403", "0412", "0421", "0430", "0502", "0511", "0520", "1303", "1312", "1321", "1330", "1402", "1411",
        "1420", "2203", "2212", "2221", "2230", "2302", "2311", "2320", "3103", "3112", "3121", "3130", "3202",
        "3211", "3220", "4003", "4012", "4021", "4030", "4102", "4111", "4120", "5002", "5011", "5020"};
    const std::set<std::string> db8 = {
        "0404", "0413", "0422", "0431", "0440", "0503", "0512", "0521", "0530", "1313", "1322", "1331", "1340",
        "1403", "1412", "1421", "1430", "2222", "2231", "2240", "2303", "2312", "2321", "2330", "3131", "3140",
        "3203", "3212", "3221", "3230", "4040", "4103", "4112", "4121", "4130", "5003", "5012", "5021", "5030"};
    for (const auto& [pieces, expected] : {std::pair{6, db6}, std::pair{7, db7}, std::pair{8, db8}}) {
        const std::vector<std::string> listed = names(canonical_slices(pieces));
        EXPECT_EQ(std::set<std::string>(listed.begin(), listed.end()), expected) << pieces;
        EXPECT_EQ(listed.size(), expected.size()) << pieces;
    }
    // Order: nb ascending, then nbk, then nwk.
    EXPECT_EQ(canonical_slices(6).front().to_string(), "3030");
    EXPECT_EQ(canonical_slices(6).back().to_string(), "0501");
}

TEST(SliceEnumeration, CanonicalCountsPositionsAndSubslicesPerPieceCount) {
    // Table of section 1.5.
    const int slices[] = {3, 6, 14, 22, 37, 38, 39, 30};
    const std::uint64_t positions[] = {6'640,          403'150,         24'367'300,           785'300'375,
                                       25'435'566'575, 497'812'753'180, 9'121'707'127'090};
    const std::uint64_t subslices[] = {3, 6, 14, 22, 38, 249, 4'268, 47'118};
    for (int pieces = 2; pieces <= 9; ++pieces) {
        const std::vector<SliceId> list = canonical_slices(pieces);
        std::uint64_t total = 0, subslice_total = 0;
        for (const SliceId s : list) {
            EXPECT_TRUE(is_canonical(s));
            total += slice_size(s);
            subslice_total += subslice_count(slice_size(s), kSubsliceSizeWld);
        }
        EXPECT_EQ(static_cast<int>(list.size()), slices[pieces - 2]) << pieces;
        if (pieces <= 8) {
            EXPECT_EQ(total, positions[pieces - 2]) << pieces;
        } else {
            EXPECT_NEAR(static_cast<double>(total), 1.01e14, 0.005e14);
        }
        EXPECT_EQ(subslice_total, subslices[pieces - 2]) << pieces;
    }
}

TEST(SliceEnumeration, AllSlices) {
    const std::vector<SliceId> two = all_slices(2);
    EXPECT_EQ(names(two), (std::vector<std::string>{"0101", "0110", "1001", "1010"}));
    const std::vector<SliceId> with_empty = all_slices(1, EmptySide::Included);
    EXPECT_EQ(names(with_empty), (std::vector<std::string>{"0001", "0010", "0100", "1000"}));
    for (const SliceId s : all_slices(10)) {
        EXPECT_TRUE(is_indexable(s));
        EXPECT_GE(s.black(), 1);
        EXPECT_GE(s.white(), 1);
    }
    // Both sides 1..5 with up to 10 pieces: (number of (men, kings) pairs per side with 1..5 pieces)^2.
    EXPECT_EQ(all_slices(10).size(), 20u * 20u);
    EXPECT_EQ(all_slices(10, EmptySide::Included).size(), 21u * 21u - 1u);
}

// ---------------------------------------------------------------------------------------------
// Section 2.6

TEST(IndexWorkedExamples, IndicesOfSection26) {
    struct Example {
        Position position;
        SliceId slice;
        std::uint64_t index;
    };
    const Example examples[] = {
        {make_position({5}, {}, {30}, {}), {1, 0, 1, 0}, 104},                                   // B:W30:B5
        {make_position({5}, {}, {6}, {}), {1, 0, 1, 0}, 224},                                    // B:W6:B5
        {make_position({}, {23}, {}, {50}), {0, 1, 0, 1}, 1'126},                                // B:WK50:BK23
        {make_position({3, 12}, {7}, {27, 28}, {50}), {2, 1, 2, 1}, 134'409'509},                // B:W27,28,K50:B3,K7,12
        {make_position({2, 4, 22, 40}, {}, {31, 33, 36, 47}, {}), {4, 0, 4, 0}, 83'918'949},     // B:W31,33,36,47:B2,4,22,40
        {make_position({1, 2}, {3, 50}, {}, {44, 49}), {2, 2, 0, 2}, 1'119'865},                 // B:WK44,K49:B1,2,K3,K50
        {make_position({41, 42, 43, 44}, {}, {46, 47, 48, 49}, {}), {4, 0, 4, 0}, 6'547'433'185},
        {make_position({41, 42, 43, 44}, {}, {6, 7, 8, 9}, {}), {4, 0, 4, 0}, 15'802'041'535},
    };
    for (const Example& e : examples) {
        ASSERT_TRUE(belongs_to(e.position, e.slice)) << e.slice.to_string();
        const SliceIndexer indexer(e.slice);
        EXPECT_EQ(indexer.index_of(e.position), e.index) << e.slice.to_string();
        EXPECT_EQ(indexer.position_at(e.index), e.position) << e.slice.to_string();
        EXPECT_EQ(reference::index_of(e.position, e.slice), e.index) << e.slice.to_string();
        EXPECT_EQ(reference::position_at(e.index, e.slice), e.position) << e.slice.to_string();
        EXPECT_EQ(position_to_index(e.position, e.slice.nbm, e.slice.nbk, e.slice.nwm, e.slice.nwk),
                  static_cast<std::int64_t>(e.index));
        Position back;
        index_to_position(static_cast<std::int64_t>(e.index), &back, e.slice.nbm, e.slice.nbk, e.slice.nwm,
                          e.slice.nwk);
        EXPECT_EQ(back, e.position);
    }
}

std::vector<int> logical_list(const reference::LogicalSquares& group) {
    std::vector<int> values(group.values.begin(), group.values.begin() + group.count);
    std::sort(values.begin(), values.end());
    return values;
}

TEST(IndexWorkedExamples, LogicalSquaresAndRanksOfSection26) {
    struct Group {
        std::vector<int> logical;
        std::uint64_t rank;
    };
    struct Example {
        Position position;
        Group back, forward, white_men, black_kings, white_kings;
    };
    const Example examples[] = {
        {make_position({5}, {}, {30}, {}), {{4}, 4}, {{}, 0}, {{20}, 20}, {{}, 0}, {{}, 0}},
        {make_position({5}, {}, {6}, {}), {{4}, 4}, {{}, 0}, {{44}, 44}, {{}, 0}, {{}, 0}},
        {make_position({}, {23}, {}, {50}), {{}, 0}, {{}, 0}, {{}, 0}, {{22}, 22}, {{48}, 48}},
        {make_position({3, 12}, {7}, {27, 28}, {50}), {{2}, 2}, {{6}, 6}, {{22, 23}, 275}, {{5}, 5}, {{44}, 44}},
        {make_position({2, 4, 22, 40}, {}, {31, 33, 36, 47}, {}), {{1, 3}, 4}, {{16, 34}, 577},
         {{3, 13, 16, 18}, 3'701}, {{}, 0}, {{}, 0}},
        {make_position({1, 2}, {3, 50}, {}, {44, 49}), {{0, 1}, 0}, {{}, 0}, {{}, 0}, {{0, 47}, 1'081},
         {{40, 45}, 1'030}},
        {make_position({41, 42, 43, 44}, {}, {46, 47, 48, 49}, {}), {{}, 0}, {{35, 36, 37, 38}, 82'250},
         {{1, 2, 3, 4}, 4}, {{}, 0}, {{}, 0}},
        {make_position({41, 42, 43, 44}, {}, {6, 7, 8, 9}, {}), {{}, 0}, {{35, 36, 37, 38}, 82'250},
         {{37, 38, 39, 40}, 101'269}, {{}, 0}, {{}, 0}},
    };
    for (const Example& e : examples) {
        const reference::LogicalGroups g = reference::logical_groups(e.position);
        const std::pair<const reference::LogicalSquares*, const Group*> groups[] = {
            {&g.back, &e.back}, {&g.forward, &e.forward}, {&g.white_men, &e.white_men},
            {&g.black_kings, &e.black_kings}, {&g.white_kings, &e.white_kings}};
        for (const auto& [actual, expected] : groups) {
            EXPECT_EQ(logical_list(*actual), expected->logical) << describe(e.position);
            EXPECT_EQ(reference::combinatorial_rank(*actual), expected->rank) << describe(e.position);
            Bitboard mask = 0;
            for (const int l : expected->logical) mask |= Bitboard{1} << l;
            EXPECT_EQ(detail::group_rank(mask, static_cast<int>(expected->logical.size())), expected->rank);
            EXPECT_EQ(detail::group_unrank(expected->rank, static_cast<int>(expected->logical.size())), mask);
        }
    }
}

TEST(IndexWorkedExamples, IntermediateValuesOfSection26) {
    // 2121: base(1) = 9900 and men = 64932; KB = 46, KW = 45.
    EXPECT_EQ(men_group_base(2, 2, 1), 9'900u);
    EXPECT_EQ(134'409'509u / (46u * 45u), 64'932u);
    // 4040: base(2) = 55 045 375 and base(0) = 6 546 985 375.
    EXPECT_EQ(men_group_base(4, 4, 2), 55'045'375u);
    EXPECT_EQ(men_group_base(4, 4, 0), 6'546'985'375u);
    EXPECT_EQ(men_group_base(4, 4, 4), 0u);
    // Subslices of the last two examples.
    EXPECT_EQ(split_index(6'547'433'185, kSubsliceSizeWld), (SubsliceIndex{3, 104'982'241}));
    EXPECT_EQ(split_index(15'802'041'535, kSubsliceSizeWld), (SubsliceIndex{7, 769'655'999}));
}

TEST(IndexWorkedExamples, ReferenceSliceSizes) {
    EXPECT_EQ(slice_size({0, 1, 0, 1}), 2'450u);
    EXPECT_EQ(slice_size({1, 0, 1, 0}), 1'985u);
    EXPECT_EQ(slice_size({0, 1, 1, 0}), 2'205u);
    EXPECT_EQ(slice_size({1, 0, 0, 1}), 2'205u);
    EXPECT_EQ(slice_size({2, 0, 1, 0}), 42'790u);
    EXPECT_EQ(slice_size({3, 0, 2, 0}), 12'416'680u);
    EXPECT_EQ(slice_size({5, 0, 0, 1}), 54'979'155u);
    EXPECT_EQ(slice_size({2, 1, 2, 1}), 1'870'120'800u);
    EXPECT_EQ(slice_size({4, 0, 4, 0}), 15'802'050'675u);
    EXPECT_EQ(slice_size({0, 5, 0, 3}), 30'065'204'400u);
    EXPECT_EQ(slice_size({5, 0, 4, 0}), 118'459'258'815u);

    EXPECT_EQ(subslice_count(slice_size({2, 1, 2, 1}), kSubsliceSizeWld), 1u);
    EXPECT_EQ(subslice_count(slice_size({2, 1, 2, 1}), kSubsliceSizeMtc), 1u);
    EXPECT_EQ(subslice_count(slice_size({2, 1, 2, 1}), kSubsliceSizeDtw), 2u);
    EXPECT_EQ(subslice_count(slice_size({4, 0, 4, 0}), kSubsliceSizeWld), 8u);
    const std::uint64_t n0503 = slice_size({0, 5, 0, 3});
    EXPECT_EQ(subslice_count(n0503, kSubsliceSizeWld), 15u);
    EXPECT_EQ(subslice_length(n0503, kSubsliceSizeWld, 14), 433'328u);
    EXPECT_EQ(subslice_length(n0503, kSubsliceSizeWld, 13), kSubsliceSizeWld);
    EXPECT_EQ(subslice_count(slice_size({5, 0, 4, 0}), kSubsliceSizeWld), 56u);
    EXPECT_EQ(subslice_count(slice_size({0, 1, 0, 1}), kSubsliceSizeWld), 1u);
    EXPECT_EQ(subslice_count(0, kSubsliceSizeWld), 1u);
    EXPECT_EQ(subslice_length(2'450, kSubsliceSizeWld, 0), 2'450u);

    for (const SliceId s : all_slices(10, EmptySide::Included)) {
        EXPECT_EQ(SliceIndexer(s).size(), slice_size(s));
        EXPECT_EQ(get_database_size_slice(s.nbm, s.nbk, s.nwm, s.nwk), static_cast<std::int64_t>(slice_size(s)));
        EXPECT_EQ(slice_indexer(s).size(), slice_size(s));
        EXPECT_EQ(slice_indexer(s).slice(), s);
    }
}

TEST(IndexWorkedExamples, FirstAndLastPositionsOf1010) {
    const SliceIndexer indexer({1, 0, 1, 0});
    EXPECT_EQ(indexer.position_at(0), make_position({1}, {}, {50}, {}));     // B:W50:B1
    EXPECT_EQ(indexer.position_at(1984), make_position({45}, {}, {6}, {}));  // B:W6:B45
}

// ---------------------------------------------------------------------------------------------
// Building blocks of the fast indexer

TEST(IndexFastDivisor, ExactForAllDividendsBelow2To63) {
    std::mt19937_64 rng(12345);
    std::vector<std::uint64_t> divisors;
    for (std::uint64_t d = 1; d <= 2000; ++d) divisors.push_back(d);
    for (int k = 1; k < 63; ++k) {
        const std::uint64_t p = std::uint64_t{1} << k;
        divisors.insert(divisors.end(), {p - 1, p, p + 1});
    }
    for (int i = 0; i < 2000; ++i) divisors.push_back(1 + (rng() >> (1 + rng() % 63)));
    constexpr std::uint64_t kLimit = std::uint64_t{1} << 63;
    for (const std::uint64_t d : divisors) {
        const detail::FastDivisor divisor(d);
        ASSERT_EQ(divisor.divisor(), d);
        std::vector<std::uint64_t> dividends = {0, 1, d - 1, d, kLimit - 1, kLimit - 1 - (kLimit - 1) % d,
                                                (kLimit - 1) - (kLimit - 1) % d - 1};
        for (int i = 0; i < 200; ++i) {
            const std::uint64_t n = rng() >> (1 + rng() % 63);
            dividends.insert(dividends.end(), {n, n - n % d, n - n % d + d - 1});
        }
        for (const std::uint64_t n : dividends) {
            if (n >= kLimit) continue;
            ASSERT_EQ(divisor.quotient(n), n / d) << n << " / " << d;
        }
    }
}

template <int J>
void check_unrank_step() {
    int expected = J - 1;
    for (std::uint64_t rank = 0; rank < binomial(kNumSquares, J); ++rank) {
        while (binomial(expected + 1, J) <= rank) ++expected;
        std::uint64_t remaining = rank;
        const int l = detail::unrank_step<J>(remaining);
        ASSERT_EQ(l, expected) << "j " << J << " rank " << rank;
        ASSERT_EQ(remaining, rank - binomial(expected, J));
    }
}

TEST(IndexUnrank, TableSearchEqualsLinearSearchForEveryRank) {
    detail::unrolled<kMaxPiecesPerSide - 1>([](auto i) { check_unrank_step<i + 2>(); });
}

TEST(IndexBitOps, ExtractAndDepositMatchTheirDefinition) {
    std::mt19937_64 rng(7);
    for (int i = 0; i < 20000; ++i) {
        const Bitboard mask = rng() & rng() & kAllSquares;
        const Bitboard source = rng() & (i % 2 == 0 ? rng() : ~Bitboard{0});
        Bitboard extracted = 0, deposited = 0;
        int slot = 0;
        for (int bit = 0; bit < 64; ++bit) {
            if (((mask >> bit) & 1) == 0) continue;
            extracted |= ((source >> bit) & 1) << slot;
            deposited |= ((source >> slot) & 1) << bit;
            ++slot;
        }
        // Both the function the build uses (BMI2's pext/pdep in the default x86-64-v3 build) and
        // the portable one the artefacts for other machines use.
        ASSERT_EQ(detail::extract_bits(source, mask), extracted);
        ASSERT_EQ(detail::deposit_bits(source, mask), deposited);
        ASSERT_EQ(detail::extract_bits_portable(source, mask), extracted);
        ASSERT_EQ(detail::deposit_bits_portable(source, mask), deposited);
    }
}

// ---------------------------------------------------------------------------------------------
// Round trips, bijection, agreement with the reference

// Checks index -> position -> index for the given indices; returns the number of failures and
// reports the first few.
int check_round_trips(const SliceIndexer& indexer, const std::vector<std::uint64_t>& indices) {
    int failures = 0;
    for (const std::uint64_t index : indices) {
        const Position p = indexer.position_at(index);
        const bool legal = belongs_to(p, indexer.slice());
        const std::uint64_t back = indexer.index_of(p);
        if (!legal || back != index) {
            if (++failures <= 5) {
                ADD_FAILURE() << indexer.slice().to_string() << " index " << index << " -> " << describe(p)
                              << (legal ? "" : " (not in the slice)") << " -> " << back;
            }
        }
    }
    return failures;
}

std::vector<std::uint64_t> sample_indices(std::uint64_t size, int count, std::mt19937_64& rng) {
    std::vector<std::uint64_t> indices = {0, size - 1};
    // The first few subslice boundaries, where the upper index bits change.
    for (std::uint64_t s = kSubsliceSizeDtw; s < size && s <= 8 * kSubsliceSizeDtw; s += kSubsliceSizeDtw) {
        indices.insert(indices.end(), {s - 1, s});
    }
    std::uniform_int_distribution<std::uint64_t> pick(0, size - 1);
    for (int i = 0; i < count; ++i) indices.push_back(pick(rng));
    return indices;
}

TEST(IndexRoundTrip, ExhaustiveUpToFourPieces) {
    for (const SliceId slice : all_slices(exhaustive_max_pieces(), EmptySide::Included)) {
        const SliceIndexer indexer(slice);
        int failures = 0;
        for (std::uint64_t index = 0; index < indexer.size() && failures < 5; ++index) {
            const Position p = indexer.position_at(index);
            if (!belongs_to(p, slice) || indexer.index_of(p) != index) {
                ++failures;
                ADD_FAILURE() << slice.to_string() << " index " << index << " -> " << describe(p);
            }
        }
        EXPECT_EQ(failures, 0) << slice.to_string();
    }
}

TEST(IndexRoundTrip, SampledAboveTheExhaustiveRangeUpToEightPieces) {
    std::mt19937_64 rng(2212);
    for (int pieces = exhaustive_max_pieces() + 1; pieces <= 8; ++pieces) {
        for (const SliceId slice : all_slices(pieces)) {
            if (slice.total() != pieces) continue;
            const SliceIndexer indexer(slice);
            EXPECT_EQ(check_round_trips(indexer, sample_indices(indexer.size(), 3000, rng)), 0)
                << slice.to_string();
        }
    }
}

// Every position of the slice, generated by brute force over square combinations (black men on
// 1-45, white men on 6-50, kings anywhere, all disjoint), in no particular index order.
template <typename Visit>
void for_each_position(SliceId slice, Visit&& visit) {
    struct Group {
        int count;
        int first;
        int last;
        bool king;
        bool black;
    };
    const Group groups[] = {{slice.nbm, 1, 45, false, true},
                            {slice.nwm, 6, 50, false, false},
                            {slice.nbk, 1, 50, true, true},
                            {slice.nwk, 1, 50, true, false}};
    Position p;
    auto place = [&](auto&& self, int group, int placed, int from) -> void {
        if (group == 4) {
            visit(p);
            return;
        }
        const Group& g = groups[group];
        if (placed == g.count) {
            self(self, group + 1, 0, groups[(group + 1) % 4].first);
            return;
        }
        for (int s = from; s <= g.last; ++s) {
            const Bitboard bit = square_bb(s);
            if ((p.occupied() & bit) != 0) continue;
            (g.black ? p.black : p.white) |= bit;
            if (g.king) p.king |= bit;
            self(self, group, placed + 1, s + 1);
            (g.black ? p.black : p.white) &= ~bit;
            p.king &= ~bit;
        }
    };
    place(place, 0, 0, groups[0].first);
}

TEST(IndexBijection, BruteForcePositionsMapOntoTheIndexRange) {
    for (const SliceId slice : all_slices(exhaustive_max_pieces(), EmptySide::Included)) {
        const SliceIndexer indexer(slice);
        std::vector<bool> seen(indexer.size(), false);
        std::uint64_t positions = 0;
        int failures = 0;
        for_each_position(slice, [&](const Position& p) {
            ++positions;
            const std::uint64_t index = indexer.index_of(p);
            if (index >= indexer.size() || seen[index]) {
                if (++failures <= 5) {
                    ADD_FAILURE() << slice.to_string() << " " << describe(p) << " -> " << index
                                  << (index < indexer.size() ? " (duplicate)" : " (out of range)");
                }
                return;
            }
            seen[index] = true;
        });
        EXPECT_EQ(failures, 0) << slice.to_string();
        EXPECT_EQ(positions, indexer.size()) << slice.to_string();
    }
}

// Compares the fast indexer with the reference on the given indices, in both directions.
int check_against_reference(const SliceIndexer& indexer, const std::vector<std::uint64_t>& indices) {
    int failures = 0;
    const SliceId slice = indexer.slice();
    for (const std::uint64_t index : indices) {
        const Position expected = reference::position_at(index, slice);
        const Position fast = indexer.position_at(index);
        const std::uint64_t fast_index = indexer.index_of(expected);
        const std::uint64_t reference_index = reference::index_of(expected, slice);
        if (fast != expected || fast_index != index || reference_index != index) {
            if (++failures <= 5) {
                ADD_FAILURE() << slice.to_string() << " index " << index << ": reference " << describe(expected)
                              << ", fast " << describe(fast) << "; indices fast " << fast_index
                              << " reference " << reference_index;
            }
        }
    }
    return failures;
}

TEST(IndexReference, AgreesOnEveryPositionUpToThreePieces) {
    for (const SliceId slice : all_slices(3, EmptySide::Included)) {
        const SliceIndexer indexer(slice);
        std::vector<std::uint64_t> all(indexer.size());
        for (std::uint64_t i = 0; i < indexer.size(); ++i) all[i] = i;
        EXPECT_EQ(check_against_reference(indexer, all), 0) << slice.to_string();
    }
}

TEST(IndexReference, AgreesOnSamplesUpToTenPieces) {
    std::mt19937_64 rng(4040);
    for (const SliceId slice : all_slices(10)) {
        if (slice.total() < 4) continue;
        const SliceIndexer indexer(slice);
        EXPECT_EQ(check_against_reference(indexer, sample_indices(indexer.size(), 300, rng)), 0)
            << slice.to_string();
    }
}

TEST(IndexReference, AgreesOnRandomPositions) {
    // Positions drawn square by square rather than from indices, so the test does not rely on
    // position_at to produce them.
    std::mt19937_64 rng(99);
    for (const SliceId slice : all_slices(10)) {
        const SliceIndexer indexer(slice);
        for (int i = 0; i < 100; ++i) {
            Position p;
            auto drop = [&](int count, int first, int last, bool black, bool king) {
                std::uniform_int_distribution<int> square(first, last);
                for (int placed = 0; placed < count;) {
                    const Bitboard bit = square_bb(square(rng));
                    if ((p.occupied() & bit) != 0) continue;
                    (black ? p.black : p.white) |= bit;
                    if (king) p.king |= bit;
                    ++placed;
                }
            };
            drop(slice.nbm, 1, 45, true, false);
            drop(slice.nwm, 6, 50, false, false);
            drop(slice.nbk, 1, 50, true, true);
            drop(slice.nwk, 1, 50, false, true);
            const std::uint64_t index = indexer.index_of(p);
            ASSERT_LT(index, indexer.size()) << slice.to_string() << " " << describe(p);
            ASSERT_EQ(index, reference::index_of(p, slice)) << slice.to_string() << " " << describe(p);
            ASSERT_EQ(indexer.position_at(index), p) << slice.to_string() << " " << describe(p);
        }
    }
}

TEST(IndexWrappers, MatchTheIndexer) {
    std::mt19937_64 rng(5);
    for (const SliceId slice : all_slices(10)) {
        const SliceIndexer& indexer = slice_indexer(slice);
        std::uniform_int_distribution<std::uint64_t> pick(0, indexer.size() - 1);
        for (int i = 0; i < 20; ++i) {
            const std::uint64_t index = pick(rng);
            Position p;
            index_to_position(static_cast<std::int64_t>(index), &p, slice.nbm, slice.nbk, slice.nwm, slice.nwk);
            ASSERT_EQ(p, indexer.position_at(index));
            ASSERT_EQ(position_to_index(p, slice.nbm, slice.nbk, slice.nwm, slice.nwk),
                      static_cast<std::int64_t>(index));
        }
    }
}

}  // namespace
}  // namespace egdb
