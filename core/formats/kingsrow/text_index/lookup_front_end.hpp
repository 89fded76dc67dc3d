// The first steps every Kingsrow lookup shares (kingsrow-format.md 3.3): trivial positions,
// the piece limit, the colour reversal of 1.5, the index and its subslice, and the value each
// database type returns when data is missing.
#pragma once

#include <cstdint>

#include "core/formats/kingsrow/result.hpp"
#include "core/index/slice_indexer.hpp"

namespace egdb::kingsrow {

// The integer codes a type returns instead of a value (3.3 table).
struct MissingValues {
    int side_to_move_has_no_pieces = 2;  // EGDB_LOSS (MTC: 1)
    int opponent_has_no_pieces = 1;      // EGDB_WIN (MTC: 1)
    int too_many_pieces = 0;
    int color_absent = 0;                // (slice, side) absent, other side present
    int both_absent = 0;                 // neither side of the slice present
    int subslice_absent = 0;             // the index does not list the subslice
    int not_in_cache = -1;               // conditional lookup of data not in memory
    int max_pieces = 9;                  // MAXPIECES of the type (3.1)
};

MissingValues missing_values_of(DbType type);

// Where a lookup reads, or the value it returns without reading.
struct LookupTarget {
    bool resolved = false;  // true: `value` is the answer
    int value = 0;
    SliceId slice;          // canonical, after reversal
    Color side_to_move = Color::Black;
    std::uint64_t subslice = 0;
    std::uint32_t local = 0;
};

inline LookupTarget resolved(int value) noexcept {
    LookupTarget t;
    t.resolved = true;
    t.value = value;
    return t;
}

inline LookupTarget locate(const Position& p, Color side, const MissingValues& missing) noexcept {
    const Material m = material_of(p);
    if (m.black() == 0) {
        return resolved(side == Color::Black ? missing.side_to_move_has_no_pieces : missing.opponent_has_no_pieces);
    }
    if (m.white() == 0) {
        return resolved(side == Color::White ? missing.side_to_move_has_no_pieces : missing.opponent_has_no_pieces);
    }
    if (m.total() > missing.max_pieces || m.black() > kMaxPiecesPerSide || m.white() > kMaxPiecesPerSide) {
        return resolved(missing.too_many_pieces);
    }
    const LookupKey key = lookup_key(p, side);
    const std::uint64_t index = index_in_slice(key.slice, key.position);
    const SubsliceIndex split = split_index(index, kSubsliceSizeWld);
    return {false, 0, key.slice, key.side_to_move, split.subslice, split.local};
}

}  // namespace egdb::kingsrow
