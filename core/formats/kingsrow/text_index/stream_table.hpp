// The shared index layer of the text-indexed Kingsrow formats (RUNLEN, TUN_V1, TUN_V2, MTC):
// which files of a directory are present (3.1), their parsed index records (3.2), and for every
// (slice, side to move, subslice) either a single value or a data stream located by byte range
// and cut into 4096-byte blocks with the local index at which each block starts. Codecs only
// say how a block is coded (BlockCoding) and how to decode its bytes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/formats/kingsrow/text_index/block_checkpoints.hpp"
#include "core/formats/kingsrow/directory/file_set.hpp"
#include "core/formats/kingsrow/text_index/text_index.hpp"
#include "core/util/mapped_file.hpp"
#include "core/util/error.hpp"

namespace egdb::kingsrow {

// The unit the decoders and the cache work in: 4096-byte blocks of a data file, cut into 64-byte
// sub-blocks (upstream's, 4.4), each block with its checkpoints (block_checkpoints.hpp).
inline constexpr std::uint64_t kBlockBytes = block_checkpoints::kBlockBytes;
inline constexpr std::uint64_t kSubBlockBytes = block_checkpoints::kSubBlockBytes;
// Cache bytes a data block costs: its checkpoints and its bytes.
inline constexpr std::uint64_t kCachedBlockBytes = kBlockBytes + block_checkpoints::kBytes;

// How one block of one stream is coded: the meaning of the two fields belongs to the codec
// (V2: catalog and vmap byte; V1: catalog and value-list number; RUNLEN: partial coding).
struct BlockCoding {
    std::uint16_t table = 0;
    std::uint16_t map = 0;
};

// Asked for every 4096-byte block k of every data record; throws IndexFileError when the record
// names a coding the codec does not have.
using CodingOf = std::function<BlockCoding(const IndexRecord& record, std::size_t block, std::string_view file)>;

struct Stream {
    std::uint32_t file = 0;            // into StreamTable::files()
    std::uint64_t begin = 0;           // byte range of the stream in the data file
    std::uint64_t end = 0;
    std::uint32_t first_block = 0;     // into block_starts() / block_codings()
    std::uint32_t blocks = 0;          // 4096-byte blocks touched, (end-1)/4096 - begin/4096 + 1
    std::uint32_t subslice_size = 0;   // positions in the subslice (at most 2^31)
    std::uint32_t first_bucket = 0;    // into StreamTable's block buckets (see block_of)
    std::uint32_t buckets = 0;
    std::uint8_t bucket_shift = 0;
    SliceId slice;
    std::uint32_t subslice = 0;
    Color side_to_move = Color::Black;
};

struct SubsliceEntry {
    static constexpr std::uint32_t kNoStream = 0xFFFFFFFFU;
    std::uint32_t stream = kNoStream;  // data stream, or
    std::int8_t value = -1;            // single value (0..3); both empty: the index does not list it
};

struct TableFile {
    DbFile info;
    std::filesystem::path data_path;
    MappedFile data;
    bool autoloaded = false;
};

// Whether a (slice, side) is stored, and if not whether the other side of the slice is (3.3).
enum class Presence : std::uint8_t { Present, ColorAbsent, BothAbsent };

class StreamTable {
public:
    // Reads the index files of `type` for 2 .. max_pieces pieces in `directory`, as the driver
    // does (3.1): a missing per-slice data file is skipped (and reported to `note`), a missing
    // per-piece-count data file is an error except for MTC, an index file must exist when its
    // data file does. Throws FileError, IndexFileError, CorruptDataError.
    StreamTable(const std::filesystem::path& directory, DbType type, int max_pieces, const CodingOf& coding_of,
                const std::function<void(std::string_view)>& note = {});

    std::span<const TableFile> files() const noexcept { return files_; }
    std::span<TableFile> files() noexcept { return files_; }
    std::span<const Stream> streams() const noexcept { return streams_; }
    std::span<const std::uint32_t> block_starts() const noexcept { return block_starts_; }
    std::span<const BlockCoding> block_codings() const noexcept { return block_codings_; }

    // The subslice entries of (slice, side); empty with the presence otherwise.
    struct Lookup {
        std::span<const SubsliceEntry> subslices;
        Presence presence = Presence::BothAbsent;
    };
    Lookup find(SliceId slice, Color side) const noexcept;

    // Highest piece count and highest pieces of one side over the files present (section 11).
    int max_pieces() const noexcept { return max_pieces_; }
    int max_pieces_one_side() const noexcept { return max_pieces_one_side_; }
    // Bytes held by the tables (upstream's `alloc`, used by the memory plan of 12.2).
    std::uint64_t table_bytes() const noexcept;

    // The block of stream s that holds local index x (< s.subslice_size): the last block whose
    // start is at or before x. A bucket of 2^bucket_shift indices names the block holding its first
    // index; there are at most two buckets per block, so the search that follows spans a few
    // blocks instead of a bisection over all of them.
    std::uint32_t block_of(const Stream& s, std::uint32_t x) const noexcept {
        const std::uint32_t bucket = std::min(x >> s.bucket_shift, s.buckets - 1);
        const std::uint32_t low = block_buckets_[s.first_bucket + bucket];
        const std::uint32_t high = bucket + 1 < s.buckets ? block_buckets_[s.first_bucket + bucket + 1] : s.blocks - 1;
        const std::uint32_t* starts = block_starts_.data() + s.first_block;
        if (high - low > 8) {  // a bucket over many dense blocks
            return static_cast<std::uint32_t>(std::upper_bound(starts + low + 1, starts + high + 1, x) - starts - 1);
        }
        std::uint32_t k = low;
        while (k < high && starts[k + 1] <= x) ++k;
        return k;
    }

    // The byte range [begin, end) of block k of a stream.
    std::uint64_t block_begin(const Stream& s, std::uint32_t k) const noexcept {
        const std::uint64_t aligned = (s.begin / kBlockBytes + k) * kBlockBytes;
        return k == 0 ? s.begin : aligned;
    }
    std::uint64_t block_end(const Stream& s, std::uint32_t k) const noexcept {
        const std::uint64_t aligned = (s.begin / kBlockBytes + k + 1) * kBlockBytes;
        return aligned < s.end ? aligned : s.end;
    }

private:
    void add_file(const DbFile& info, const std::filesystem::path& index_path, const std::filesystem::path& data_path,
                  DbType type, const CodingOf& coding_of);

    static std::size_t slot_of(SliceId slice, Color side) noexcept;

    std::vector<TableFile> files_;
    std::vector<Stream> streams_;
    void add_block_buckets(Stream& s);

    std::vector<std::uint32_t> block_starts_;
    std::vector<std::uint32_t> block_buckets_;
    std::vector<BlockCoding> block_codings_;
    std::vector<SubsliceEntry> entries_;
    struct Range {
        std::uint32_t first = 0;
        std::uint32_t count = 0;
    };
    std::vector<Range> ranges_;  // by slot_of
    int max_pieces_ = 0;
    int max_pieces_one_side_ = 0;
};

// The index grammar of a type.
IndexDialect dialect_of(DbType type);

}  // namespace egdb::kingsrow
