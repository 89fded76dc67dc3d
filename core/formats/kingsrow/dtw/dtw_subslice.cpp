#include "core/formats/kingsrow/dtw/dtw_subslice.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/util/error.hpp"

namespace egdb::kingsrow {

DtwSubslice::DtwSubslice(const DtwIndexRecord& record, std::uint64_t positions)
    : grammar_(record.rules), huffman_(record.huffman), first_global_miniblock_(record.first_global_miniblock()) {
    for (std::size_t i = 0; i < record.huffman.size(); ++i) {
        if (record.huffman[i].symbol >= grammar_.size()) {
            throw InvalidArgumentError("Huffman entry " + std::to_string(i) + " codes symbol " +
                                        std::to_string(record.huffman[i].symbol) + " but the grammar has " +
                                        std::to_string(grammar_.size()) + " symbols");
        }
    }
    miniblock_start_.reserve(record.miniblock_positions.size() + 1);
    std::uint64_t total = 0;
    miniblock_start_.push_back(0);
    for (const std::uint32_t n : record.miniblock_positions) {
        total += n;
        if (total > positions) break;
        miniblock_start_.push_back(static_cast<std::uint32_t>(total));
    }
    if (total != positions) {
        throw InvalidArgumentError("the miniblock lengths add up to " + std::to_string(total) +
                                    (total > positions ? " or more" : "") + " positions, the subslice has " +
                                    std::to_string(positions));
    }
}

DtwSubslice::Location DtwSubslice::locate(std::uint32_t local) const noexcept {
    // The last miniblock starting at or before `local`; empty miniblocks share their start with
    // the next one, and upper_bound skips past them.
    const auto it = std::upper_bound(miniblock_start_.begin(), miniblock_start_.end() - 1, local);
    const auto i = static_cast<std::size_t>(it - miniblock_start_.begin()) - 1;
    return {first_global_miniblock_ + i, local - miniblock_start_[i]};
}

int DtwSubslice::value_at(const MiniblockWords& miniblock, std::uint32_t offset) const noexcept {
    std::uint32_t position = 0;
    unsigned bit = 0;
    while (bit < kDtwMiniblockBits) {
        const HuffmanDecoder::Decoded code = huffman_.decode(miniblock.peek32(bit));
        if (code.length == 0 || bit + code.length > kDtwMiniblockBits) return -1;
        const std::uint32_t length = grammar_.expansion_length(code.symbol);
        if (offset - position < length) return grammar_.terminal_at(code.symbol, offset - position);
        position += length;
        bit += code.length;
    }
    return -1;
}

}  // namespace egdb::kingsrow
