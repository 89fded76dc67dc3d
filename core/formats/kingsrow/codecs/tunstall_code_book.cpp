#include "core/formats/kingsrow/codecs/tunstall_code_book.hpp"

#include <string>

#include "core/util/error.hpp"

namespace egdb::kingsrow {
namespace {

constexpr std::uint8_t kEndOfRuns = 6;

const char* name_of(TunstallVersion v) noexcept { return v == TunstallVersion::V1 ? "V1" : "V2"; }

}  // namespace

TunstallCodeBook::TunstallCodeBook(TunstallVersion version) : version_(version) {
    const TunstallTableData data = builtin_tunstall_tables(version);
    if (!data.available()) throw TunstallTablesUnavailable(std::string(data.unavailable_reason));
    catalogs_ = data.catalogs;
    const auto entries = static_cast<std::size_t>(catalogs_) * 256;
    if (data.run_lengths.size() != entries || data.run_offsets.size() != entries) {
        throw CorruptDataError(std::string("Tunstall ") + name_of(version) + " table has the wrong size");
    }
    lengths_.assign(data.run_lengths.begin(), data.run_lengths.end());
    codes_.resize(entries);
    for (std::size_t i = 0; i < entries; ++i) {
        const auto fail = [&](const char* reason) {
            throw CorruptDataError(std::string("Tunstall ") + name_of(version) + " table, catalog " +
                                     std::to_string(i / 256) + " code " + std::to_string(i % 256) + ": " + reason);
        };
        TunstallCode& c = codes_[i];
        c.length = data.run_lengths[i];
        if (c.length == 0) fail("covers no position");
        std::size_t at = data.run_offsets[i];
        std::uint32_t covered = 0;
        // Only the first `length` positions count: the list may carry one look-ahead position.
        while (covered < c.length) {
            if (at + 3 > data.value_runs.size()) fail("run list runs off the table");
            const std::uint8_t v = data.value_runs[at];
            if (v >= kEndOfRuns) fail("run list ends before the code's length");
            const std::uint32_t n = data.value_runs[at + 1] + 256U * data.value_runs[at + 2];
            at += 3;
            if (n == 0) continue;
            covered = std::min<std::uint32_t>(covered + n, c.length);
            if (c.runs > 0 && c.values[c.runs - 1] == v) {
                c.ends[c.runs - 1] = static_cast<std::uint16_t>(covered);
                continue;
            }
            if (c.runs == TunstallCode::kMaxRuns) fail("too many runs");
            c.values[c.runs] = v;
            c.ends[c.runs] = static_cast<std::uint16_t>(covered);
            ++c.runs;
        }
    }
}

int TunstallCodeBook::alphabet(int catalog) const noexcept {
    if (version_ == TunstallVersion::V1) return catalog <= 12 ? 3 : 6;
    return catalog <= 29 ? 3 : 4;
}

}  // namespace egdb::kingsrow
