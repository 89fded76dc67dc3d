// EGDB_WLD_TUN_V1 (kingsrow-format.md section 5): one Tunstall catalog (0..29) and one list of
// real values per subslice, given by its "#vmap" comment; no comment means catalog 0 and every
// value EGDB_UNKNOWN.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/formats/kingsrow/text_index/stream_table.hpp"
#include "core/formats/kingsrow/codecs/tunstall_code_book.hpp"

namespace egdb::kingsrow {

class TunstallV1Codec {
public:
    TunstallV1Codec() : book_(std::make_shared<const TunstallCodeBook>(TunstallVersion::V1)) {}

    // Interns the record's value list (open time only, single-threaded).
    BlockCoding coding_of(const IndexRecord& r, std::size_t, std::string_view file) {
        if (!r.has_vmap) return {0, intern({})};
        if (r.vmap_catalog < 0 || r.vmap_catalog >= book_->catalogs()) {
            throw IndexFileError(file, r.line, "vmap catalog " + std::to_string(r.vmap_catalog) + " does not exist (0.." +
                                                   std::to_string(book_->catalogs() - 1) + ")");
        }
        std::array<std::uint8_t, 6> values{};
        for (int v = 0; v < r.vmap_size; ++v) {
            if (r.vmap_values[v] > 5) {
                throw IndexFileError(file, r.line, "vmap value " + std::to_string(r.vmap_values[v]) + " is not a WLD value");
            }
            values[v] = r.vmap_values[v];
        }
        return {static_cast<std::uint16_t>(r.vmap_catalog), intern(values)};
    }

    std::uint32_t positions(BlockCoding c, std::uint8_t code) const noexcept { return book_->length(c.table, code); }

    int value(BlockCoding c, std::uint8_t code, std::uint32_t offset) const noexcept {
        const int v = book_->virtual_value(c.table, code, offset);
        return v < 6 ? value_lists_[c.map][v] : 0;
    }

    const TunstallCodeBook& book() const noexcept { return *book_; }

private:
    std::uint16_t intern(const std::array<std::uint8_t, 6>& values) {
        for (std::size_t i = 0; i < value_lists_.size(); ++i) {
            if (value_lists_[i] == values) return static_cast<std::uint16_t>(i);
        }
        value_lists_.push_back(values);
        return static_cast<std::uint16_t>(value_lists_.size() - 1);
    }

    std::shared_ptr<const TunstallCodeBook> book_;
    std::vector<std::array<std::uint8_t, 6>> value_lists_;
};

}  // namespace egdb::kingsrow
