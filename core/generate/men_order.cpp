#include "core/generate/men_order.hpp"

#include <algorithm>

#include "core/generate/king_placements.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/rules/move.hpp"
#include "core/rules/movegen.hpp"

namespace egdb {

namespace {
constexpr int kRows = 10;
constexpr int kSquaresPerRow = 5;
constexpr int row_of(int square) noexcept { return (square - 1) / kSquaresPerRow; }
}  // namespace

int men_advancement(const Position& position) noexcept {
    int advancement = 0;
    for (Bitboard b = position.men(Color::Black); b != 0; b &= b - 1) {
        advancement += row_of(bb_to_square(lowest_bit(b)));
    }
    for (Bitboard b = position.men(Color::White); b != 0; b &= b - 1) {
        advancement += kRows - 1 - row_of(bb_to_square(lowest_bit(b)));
    }
    return advancement;
}

std::vector<MenLevel> men_configuration_levels(SliceId slice) {
    const SliceIndexer& indexer = slice_indexer(slice);
    const std::uint64_t configurations = men_configurations(slice.nbm, slice.nwm);
    const std::uint64_t block = indexer.size() / configurations;
    constexpr int kMaxAdvancement = 2 * kMaxPiecesPerSide * (kRows - 1);
    std::vector<std::vector<std::uint64_t>> by_advancement(kMaxAdvancement + 1);
    for (std::uint64_t men = 0; men < configurations; ++men) {
        const int a = men_advancement(indexer.position_at(men * block));
        by_advancement[static_cast<std::size_t>(a)].push_back(men);
    }
    std::vector<MenLevel> levels;
    for (int a = kMaxAdvancement; a >= 0; --a) {
        auto& group = by_advancement[static_cast<std::size_t>(a)];
        if (!group.empty()) levels.push_back({a, std::move(group)});
    }
    return levels;
}

std::vector<MenLevelSize> men_level_sizes(SliceId slice) {
    // ways[b][w][a]: placements of b black and w white men on the squares seen so far with
    // advancement a. A black man never stands on row 10, a white man never on row 1 (they would
    // have promoted).
    constexpr int kMaxAdvancement = 2 * kMaxPiecesPerSide * (kRows - 1);
    using Counts = std::vector<std::vector<std::vector<std::uint64_t>>>;
    Counts ways(static_cast<std::size_t>(slice.nbm + 1),
                std::vector<std::vector<std::uint64_t>>(static_cast<std::size_t>(slice.nwm + 1),
                                                        std::vector<std::uint64_t>(kMaxAdvancement + 1, 0)));
    ways[0][0][0] = 1;
    for (int square = kNumSquares; square >= 1; --square) {
        const int row = row_of(square);
        const bool black_may = row != kRows - 1;
        const bool white_may = row != 0;
        // Counts for more men come from counts for fewer: walk b and w downwards, in place.
        for (int b = slice.nbm; b >= 0; --b) {
            for (int w = slice.nwm; w >= 0; --w) {
                auto& into = ways[static_cast<std::size_t>(b)][static_cast<std::size_t>(w)];
                for (int a = kMaxAdvancement; a >= 0; --a) {
                    std::uint64_t add = 0;
                    if (black_may && b > 0 && a >= row) add += ways[static_cast<std::size_t>(b - 1)][static_cast<std::size_t>(w)][static_cast<std::size_t>(a - row)];
                    const int white_rows = kRows - 1 - row;
                    if (white_may && w > 0 && a >= white_rows) {
                        add += ways[static_cast<std::size_t>(b)][static_cast<std::size_t>(w - 1)][static_cast<std::size_t>(a - white_rows)];
                    }
                    into[static_cast<std::size_t>(a)] += add;
                }
            }
        }
    }
    std::vector<MenLevelSize> sizes;
    const auto& counts = ways[static_cast<std::size_t>(slice.nbm)][static_cast<std::size_t>(slice.nwm)];
    for (int a = kMaxAdvancement; a >= 0; --a) {
        if (counts[static_cast<std::size_t>(a)] != 0) sizes.push_back({a, counts[static_cast<std::size_t>(a)]});
    }
    return sizes;
}

std::vector<std::uint64_t> configurations_reached(SliceId slice, std::span<const std::uint64_t> configurations) {
    const SliceIndexer& indexer = slice_indexer(slice);
    const KingPlacements kings(slice);
    const std::uint64_t block = kings.block_size();
    std::vector<std::uint64_t> reached;
    for (const std::uint64_t men : configurations) {
        const Position p = indexer.position_at(men * block);
        const Bitboard black_men = p.men(Color::Black);
        const Bitboard white_men = p.men(Color::White);
        const Position men_only{black_men, white_men, 0};
        for (const Color side : {Color::Black, Color::White}) {
            const Bitboard promotion_row = side == Color::Black ? kRow10 : kRow1;
            MoveList moves;
            generate_man_non_captures(men_only, side, moves);
            for (const Move& move : moves) {
                if ((move.to & promotion_row) != 0) continue;  // another slice
                const Position child = apply_move(men_only, side, move);
                const Position placed = kings.position(child.men(Color::Black), child.men(Color::White), 0);
                reached.push_back(indexer.index_of(placed) / block);
            }
        }
    }
    std::sort(reached.begin(), reached.end());
    reached.erase(std::unique(reached.begin(), reached.end()), reached.end());
    return reached;
}

}  // namespace egdb
