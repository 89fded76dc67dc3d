#include "core/formats/kingsrow/dtw/dtw_solved_source.hpp"

#include "core/index/slice_indexer.hpp"
#include "core/rules/movegen.hpp"

namespace egdb::kingsrow {

DtwValueSource dtw_values_from_solved(const SolvedSlice& solved, Color side_to_move, CaptureValues captures) {
    return [&solved, side_to_move, captures](std::uint64_t first, std::span<std::uint32_t> plies,
                                             std::span<std::uint8_t> dont_care) {
        const std::span<const DistanceCode> codes = solved.dtw_codes(side_to_move);
        const SliceIndexer& indexer = slice_indexer(solved.slice());
        for (std::size_t i = 0; i < plies.size(); ++i) {
            const DistanceCode code = codes[first + i];
            if (code == kDrawCode) {
                dont_care[i] = 1;
                continue;
            }
            plies[i] = code;
            if (captures == CaptureValues::DontCare && has_capture(indexer.position_at(first + i), side_to_move)) {
                dont_care[i] = 1;
            }
        }
    };
}

}  // namespace egdb::kingsrow
