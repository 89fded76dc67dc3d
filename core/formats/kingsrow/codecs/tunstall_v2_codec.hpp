// EGDB_WLD_TUN_V2 (kingsrow-format.md section 4): every byte is a Tunstall code of the block's
// catalog (0..49); its virtual values go through the block's vmap permutation (4.5).
#pragma once

#include <array>
#include <memory>
#include <string>
#include <string_view>

#include "core/formats/kingsrow/text_index/stream_table.hpp"
#include "core/formats/kingsrow/codecs/tunstall_code_book.hpp"

namespace egdb::kingsrow {

namespace tunstall_v2 {

// real value of virtual value v under vmap byte m: bits 2v..2v+1 when m encodes a permutation of
// (0,1,2,3), else 0 (EGDB_UNKNOWN) as upstream.
constexpr bool is_permutation_code(int m) noexcept {
    int seen = 0;
    for (int v = 0; v < 4; ++v) seen |= 1 << ((m >> (2 * v)) & 3);
    return seen == 0xF;
}

inline constexpr std::array<std::array<std::uint8_t, 4>, 256> kValueMaps = [] {
    std::array<std::array<std::uint8_t, 4>, 256> maps{};
    for (int m = 0; m < 256; ++m) {
        for (int v = 0; v < 4; ++v) maps[m][v] = static_cast<std::uint8_t>(is_permutation_code(m) ? (m >> (2 * v)) & 3 : 0);
    }
    return maps;
}();

}  // namespace tunstall_v2

class TunstallV2Codec {
public:
    TunstallV2Codec() : book_(std::make_shared<const TunstallCodeBook>(TunstallVersion::V2)) {}

    BlockCoding coding_of(const IndexRecord& r, std::size_t block, std::string_view file) const {
        const int catalog = r.catalogs[block];
        if (catalog >= book_->catalogs()) {
            throw IndexFileError(file, r.line, "catalog " + std::to_string(catalog) + " does not exist (0.." +
                                                   std::to_string(book_->catalogs() - 1) + ")");
        }
        return {static_cast<std::uint16_t>(catalog), r.value_maps[block]};
    }

    std::uint32_t positions(BlockCoding c, std::uint8_t code) const noexcept { return book_->length(c.table, code); }

    int value(BlockCoding c, std::uint8_t code, std::uint32_t offset) const noexcept {
        return tunstall_v2::kValueMaps[c.map][book_->virtual_value(c.table, code, offset) & 3];
    }

    const TunstallCodeBook& book() const noexcept { return *book_; }

private:
    std::shared_ptr<const TunstallCodeBook> book_;
};

}  // namespace egdb::kingsrow
