// The decoding state of one DTW subslice, built from its index record (kingsrow-format.md 8.4):
// the grammar with expansion lengths, the Huffman decoder and the first position of every
// miniblock. Immutable after construction; lookups allocate nothing.
#pragma once

#include <cstdint>
#include <vector>

#include "core/formats/kingsrow/dtw/dtw_index_record.hpp"
#include "core/formats/kingsrow/dtw/huffman_code.hpp"
#include "core/formats/kingsrow/dtw/miniblock_bits.hpp"
#include "core/formats/kingsrow/dtw/repair_grammar.hpp"

namespace egdb::kingsrow {

class DtwSubslice {
public:
    // Checks the record against the subslice it claims to describe: grammar and Huffman table
    // valid, every coded symbol a grammar symbol, miniblock counts summing to `positions`.
    // Throws std::invalid_argument with the reason.
    DtwSubslice(const DtwIndexRecord& record, std::uint64_t positions);

    struct Location {
        std::uint64_t global_miniblock = 0;  // 8.2: at file offset 512 * global_miniblock
        std::uint32_t offset = 0;            // position inside that miniblock
    };

    // The miniblock holding local index `local` (< positions) and the offset inside it
    // (8.4 steps 1-2, as a binary search over the miniblock start positions).
    Location locate(std::uint32_t local) const noexcept;

    // The terminal (the stored value) at `offset` of a miniblock (8.4 steps 3-4), or -1 when the
    // bits do not decode to enough positions (corrupt data).
    int value_at(const MiniblockWords& miniblock, std::uint32_t offset) const noexcept;

    std::uint64_t first_global_miniblock() const noexcept { return first_global_miniblock_; }
    std::uint64_t miniblock_count() const noexcept { return miniblock_start_.size() - 1; }

private:
    RePairGrammar grammar_;
    HuffmanDecoder huffman_;
    std::vector<std::uint32_t> miniblock_start_;  // prefix sums of the lengths, one extra at the end
    std::uint64_t first_global_miniblock_ = 0;
};

}  // namespace egdb::kingsrow
