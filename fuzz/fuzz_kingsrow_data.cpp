// One Kingsrow data file from arbitrary bytes, read through the whole reader (egdb_open's path):
// a 2-piece database of the format is built once, then for every input its data file of the kind
// under test is replaced by the input, the directory is opened, and every position is looked up
// (the raw stored code of the kind for a fifth of the positions, then the true value and the
// ranked moves by search for a few). The index
// files stay intact, so the bytes reach the codec's decoder: the run-length, Tunstall V1/V2 and
// MTC byte codes, or the DTW miniblocks (Huffman codes, Re-Pair grammar).
//
// Built once per codec (fuzz/CMakeLists.txt): EGDB_FUZZ_FORMAT names the egdb build format,
// EGDB_FUZZ_FILE the data file replaced, EGDB_FUZZ_KIND the stored kind it holds.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <span>

#include "core/formats/kingsrow/codecs/tunstall_code_book.hpp"
#include "core/probe/database.hpp"
#include "fuzz/fuzz_support.hpp"

namespace {

constexpr egdb::workflow::OutputFormat kFormat = egdb::workflow::OutputFormat::EGDB_FUZZ_FORMAT;
constexpr const char* kDataFile = EGDB_FUZZ_FILE;
constexpr egdb::StoredKind kKind = egdb::StoredKind::EGDB_FUZZ_KIND;
constexpr int kPieces = 2;

struct Reference {
    std::filesystem::path directory = egdb::fuzz::build_reference("kingsrow", kFormat, kPieces);
    std::vector<std::pair<egdb::Position, egdb::Color>> positions = egdb::fuzz::all_positions(kPieces);
};

const Reference& reference() {
    static const Reference r;
    return r;
}

void require(bool condition) {
    if (!condition) std::abort();
}

// Errors a damaged file may give: the documented kinds of a read, never a crash or another exception.
void require_expected(const egdb::Error& e) {
    require(e.kind() == egdb::ErrorKind::CorruptData || e.kind() == egdb::ErrorKind::LookupNotPossible ||
            e.kind() == egdb::ErrorKind::NoDatabase || e.kind() == egdb::ErrorKind::Io);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    try {
        reference();
    } catch (const egdb::kingsrow::TunstallTablesUnavailable& e) {
        // A build without the Tunstall tables cannot write (or read) V1/V2: nothing to fuzz.
        std::printf("SKIP: %s\n", e.what());
        std::exit(0);
    }
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const Reference& ref = reference();
    egdb::fuzz::write_file(ref.directory / kDataFile, std::span(data, size));
    std::unique_ptr<egdb::Database> db;
    try {
        egdb::DatabaseOptions options;
        options.cache_bytes = std::size_t{1} << 20;  // the data is a few KB; a large cache only costs time
        db = egdb::Database::open(ref.directory, options);
    } catch (const egdb::Error& e) {
        require_expected(e);
        return 0;
    }
    // One position in 5 (which ones depends on the input), so that an input costs milliseconds; one
    // in 41 for DTW, where every lookup decodes its 512-byte miniblock from the start.
    constexpr std::size_t kStride = kKind == egdb::StoredKind::Dtw ? 41 : 5;
    for (std::size_t i = size % kStride; i < ref.positions.size(); i += kStride) {
        const auto& [position, side] = ref.positions[i];
        try {
            (void)db->lookup_stored(kKind, position, side);
        } catch (const egdb::Error& e) {
            require_expected(e);
        }
    }
    // The searches read the other positions a value depends on; a sample keeps an input cheap.
    for (std::size_t i = size % 397; i < ref.positions.size(); i += 397) {
        const auto& [position, side] = ref.positions[i];
        try {
            (void)db->wld(position, side);
            (void)db->best_moves(position, side);
        } catch (const egdb::Error& e) {
            require_expected(e);
        }
    }
    return 0;
}
