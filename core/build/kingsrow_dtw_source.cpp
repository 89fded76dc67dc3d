#include "core/build/kingsrow_dtw_source.hpp"

#include "core/index/slice_indexer.hpp"
#include "core/rules/movegen.hpp"

namespace egdb::kingsrow {

DtwValueSource dtw_values_from_solved(const SolvedSlice& solved, Color side_to_move,
                                      std::span<const std::uint64_t> capture_bits) {
    return [&solved, side_to_move, capture_bits](std::uint64_t first, std::span<std::uint32_t> plies,
                                                 std::span<std::uint8_t> dont_care) {
        const std::span<const DistanceCode> codes = solved.dtw_codes(side_to_move);
        const SliceIndexer& indexer = slice_indexer(solved.slice());
        for (std::size_t i = 0; i < plies.size(); ++i) {
            const std::uint64_t index = first + i;
            const DistanceCode code = codes[index];
            if (code == kDrawCode) {
                dont_care[i] = 1;
                continue;
            }
            plies[i] = solved.value(index, side_to_move).dtw;  // the table's, for a wide position
            const bool capture = capture_bits.empty() ? has_capture(indexer.position_at(index), side_to_move)
                                                      : ((capture_bits[index / 64] >> (index % 64)) & 1U) != 0;
            if (capture) dont_care[i] = 1;
        }
    };
}

}  // namespace egdb::kingsrow
