#include "core/generate/colour_mirror.hpp"

#include <algorithm>
#include <array>

#include "core/board/position.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/util/parallel_ranges.hpp"

namespace egdb {

MirrorPlan plan_colour_mirror(const SolvedLevel& level, bool mirror, std::size_t threads) {
    MirrorPlan plan;
    const std::vector<std::uint64_t>& configurations = level.configurations();
    const std::uint64_t count = configurations.size();
    if (!mirror || !is_color_symmetric(level.slice())) {
        plan.solve.resize(count);
        for (std::uint64_t k = 0; k < count; ++k) plan.solve[k] = k;
        return plan;
    }
    const SliceIndexer& indexer = slice_indexer(level.slice());
    const std::uint64_t block = level.block_size();
    // The partner of each configuration, on the threads: a level of 3030 has millions of
    // configurations (blocks of one position), each an unrank and a rank.
    std::vector<std::uint64_t> partner(count);
    parallel_ranges(count, static_cast<int>(threads), [&](std::uint64_t first, std::uint64_t last) {
        for (std::uint64_t k = first; k < last; ++k) {
            // Any position of the configuration reverses into one of R(M): its index names R(M).
            const Position any = indexer.position_at(configurations[k] * block);
            partner[k] = level.slot_of(indexer.index_of(reversed(any)) / block);
        }
    });
    for (std::uint64_t k = 0; k < count; ++k) {
        if (partner[k] == SolvedLevel::kAbsent || partner[k] >= k) {
            plan.solve.push_back(k);
        } else {
            plan.fill.push_back({k, partner[k]});
        }
    }
    return plan;
}

void fill_colour_mirror(SolvedLevel& level, const KingPlacements& kings, std::span<const MirrorPlan::Mirrored> fill,
                        std::size_t threads, std::uint64_t chunk_positions) {
    if (fill.empty()) return;
    const SliceIndexer& indexer = slice_indexer(level.slice());
    const std::uint64_t block = level.block_size();
    // Work items of about `chunk` positions: a part of one large block, or several small ones (3030
    // has one position a block), so that a level of a few large blocks still spreads over the
    // threads and one of many small ones does not take a work item a position.
    const std::uint64_t chunk = std::max<std::uint64_t>(1, chunk_positions);
    const std::uint64_t chunks_per_block = (block + chunk - 1) / chunk;
    const std::uint64_t blocks_per_item = std::max<std::uint64_t>(1, chunk / block);
    const auto fill_range = [&](const MirrorPlan::Mirrored& m, std::uint64_t first, std::uint64_t last) {
        const Position filled_men = indexer.position_at(level.configurations()[m.slot] * block);
        const Bitboard black_men = filled_men.men(Color::Black), white_men = filled_men.men(Color::White);
        const Bitboard source_men = mirror(black_men | white_men);

        // Capture bits a word at a time, or-ed in: a word may span two blocks or two chunks.
        const std::uint64_t at = m.slot * block;
        std::uint64_t word = (at + first) / 64;
        std::array<std::uint64_t, 2> word_bits{};
        const auto flush_capture_word = [&] {
            for (const Color side : {Color::Black, Color::White}) {
                const auto s = static_cast<std::size_t>(side);
                if (word_bits[s] != 0) level.add_capture_bits(side, word, word_bits[s]);
                word_bits[s] = 0;
            }
        };
        for (std::uint64_t local = first; local < last; ++local) {
            if ((at + local) / 64 != word) {
                flush_capture_word();
                word = (at + local) / 64;
            }
            const Position source = reversed(kings.position(black_men, white_men, local));
            const std::uint64_t source_local = kings.local_index(source_men, source.kings(Color::Black), source.kings(Color::White));
            for (const Color side : {Color::Black, Color::White}) {
                // The reversal has the other side to move.
                const Color source_side = opposite(side);
                const DistanceCode code = level.dtw_codes(source_side)[m.source * block + source_local];
                level.block_dtw_codes(m.slot, side)[local] = code;
                level.block_mtc(m.slot, side)[local] = level.mtc(source_side)[m.source * block + source_local];
                if (is_wide_code(code)) [[unlikely]] {
                    const PositionValue v = level.value_at_while_solving(m.source, source_local, source_side);
                    level.set_wide(m.slot, local, side, {v.dtw, v.mtc});
                }
                if (level.has_capture_at(m.source, source_local, source_side)) {
                    word_bits[static_cast<std::size_t>(side)] |= std::uint64_t{1} << ((at + local) % 64);
                }
            }
        }
        flush_capture_word();
    };
    if (blocks_per_item > 1) {
        parallel_chunks(fill.size(), static_cast<int>(threads), blocks_per_item, [&](std::uint64_t first, std::uint64_t last) {
            for (std::uint64_t k = first; k < last; ++k) fill_range(fill[k], 0, block);
        });
        return;
    }
    parallel_chunks(fill.size() * chunks_per_block, static_cast<int>(threads), 1, [&](std::uint64_t item, std::uint64_t) {
        const std::uint64_t first = (item % chunks_per_block) * chunk;
        fill_range(fill[item / chunks_per_block], first, std::min(block, first + chunk));
    });
}

}  // namespace egdb
