// The Kingsrow index files from arbitrary bytes: the first byte picks the grammar (the four text
// dialects of RUNLEN, TUN_V1, TUN_V2 and MTC, or the binary records of .idx_dtw), the rest is the
// file. Malformed records must fail as CorruptData errors; the records that parse must say what the
// grammar allows.
#include <cstdint>
#include <cstdlib>
#include <span>

#include "core/formats/kingsrow/dtw/dtw_index_record.hpp"
#include "core/formats/kingsrow/text_index/text_index.hpp"
#include "fuzz/fuzz_support.hpp"

namespace {

void require(bool condition) {
    if (!condition) std::abort();
}

constexpr egdb::kingsrow::IndexDialect kDialects[] = {
    egdb::kingsrow::IndexDialect::Runlen, egdb::kingsrow::IndexDialect::TunV1, egdb::kingsrow::IndexDialect::TunV2,
    egdb::kingsrow::IndexDialect::Mtc};

void check_text_records(const std::vector<egdb::kingsrow::IndexRecord>& records, egdb::kingsrow::IndexDialect dialect) {
    for (const auto& r : records) {
        require(egdb::is_indexable(r.slice));
        if (!r.is_data()) {
            require(r.single_value >= 0 && r.single_value <= 3);
            continue;
        }
        if (dialect == egdb::kingsrow::IndexDialect::TunV2) {
            require(r.catalogs.size() == r.block_starts.size() + 1 && r.value_maps.size() == r.catalogs.size());
        }
        if (dialect == egdb::kingsrow::IndexDialect::TunV1 && r.has_vmap) {
            require(r.vmap_size == 3 || r.vmap_size == 6);
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const unsigned grammar = data[0] % 5U;
    const std::span<const std::uint8_t> file(data + 1, size - 1);
    try {
        if (grammar < 4) {
            const auto records = egdb::kingsrow::parse_text_index(egdb::fuzz::as_text(file.data(), file.size()),
                                                                  kDialects[grammar], "fuzz.idx");
            check_text_records(records, kDialects[grammar]);
        } else {
            const auto records = egdb::kingsrow::parse_dtw_index(std::as_bytes(file), "fuzz.idx_dtw");
            for (const auto& r : records) require(egdb::is_indexable(r.slice));
        }
    } catch (const egdb::Error& e) {
        require(e.kind() == egdb::ErrorKind::CorruptData);
    }
    return 0;
}
