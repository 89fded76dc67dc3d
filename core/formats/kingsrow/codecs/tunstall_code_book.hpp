// The Tunstall dictionaries of V1 and V2 (kingsrow-format.md section 10) in the form the
// decoders and encoders use: for every catalog and code byte, the number of positions it covers
// and its run list, with adjacent runs of one value merged and the look-ahead position dropped.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "core/formats/kingsrow/codecs/tunstall_tables.hpp"
#include "core/util/error.hpp"

namespace egdb::kingsrow {

// The build has no Tunstall tables (see cmake/KingsrowTables.cmake); what() says how to provide them.
class TunstallTablesUnavailable : public ErrorOf<std::runtime_error, ErrorKind::Unsupported> {
public:
    using ErrorOf::ErrorOf;
};

struct TunstallCode {
    static constexpr int kMaxRuns = 8;
    std::uint16_t length = 0;  // positions covered
    std::uint8_t runs = 0;
    std::array<std::uint8_t, kMaxRuns> values{};
    std::array<std::uint16_t, kMaxRuns> ends{};  // cumulative end of each run; the last is `length`
};

class TunstallCodeBook {
public:
    // Throws TunstallTablesUnavailable without tables, std::runtime_error on a malformed table.
    explicit TunstallCodeBook(TunstallVersion version);

    TunstallVersion version() const noexcept { return version_; }
    int catalogs() const noexcept { return catalogs_; }
    // Virtual values a catalog produces: 3 or 6 (V1), 3 or 4 (V2).
    int alphabet(int catalog) const noexcept;

    std::uint16_t length(int catalog, std::uint8_t code) const noexcept { return lengths_[catalog * 256 + code]; }
    const TunstallCode& code(int catalog, std::uint8_t code) const noexcept { return codes_[catalog * 256 + code]; }

    int virtual_value(int catalog, std::uint8_t code_byte, std::uint32_t offset) const noexcept {
        const TunstallCode& c = code(catalog, code_byte);
        int run = 0;
        while (run + 1 < c.runs && offset >= c.ends[run]) ++run;
        return c.values[run];
    }

private:
    TunstallVersion version_;
    int catalogs_ = 0;
    std::vector<std::uint16_t> lengths_;  // catalog * 256 + code: the hot array of the block scan
    std::vector<TunstallCode> codes_;
};

}  // namespace egdb::kingsrow
