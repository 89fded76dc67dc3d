// Reader of a Kingsrow EGDB_DTW database (kingsrow-format.md section 8): a directory of
// .idx_dtw / .cpr_dtw files of 2 to 7 pieces.
//
// A lookup returns v = floor(distance / 2), the distance in plies to the end of the game: the
// caller knows from a WLD database whether the side to move wins (distance 2v + 1) or loses (2v).
// Draws and positions with a capture hold arbitrary values (8.1). Other results:
//   0                    one side has no pieces (3.3, as upstream);
//   kDtwSubdbUnavailable more pieces than the database holds, more than 5 on a side, or no table
//                        for the slice and side to move (upstream returns -2 too: databases omit
//                        one side to move for some slices, spec 16.1), and also a subslice the
//                        index does not list (upstream crashes there, spec 16.4);
//   kDtwNotInCache       conditional lookup of a block that is not in memory.
//
// Unlike the upstream driver (Windows only, no locks, 8.6) this reader works on any POSIX system
// and is thread-safe: after construction everything is read-only except the block cache, which
// has its own locks. Lookups allocate nothing (except when a block enters the cache).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/board/position.hpp"
#include "core/cache/page_cache.hpp"
#include "core/cache/shared_page_cache.hpp"
#include "core/formats/kingsrow/kingsrow_database.hpp"
#include "core/formats/kingsrow/dtw/dtw_format.hpp"
#include "core/formats/kingsrow/dtw/dtw_subslice.hpp"
#include "core/index/slice.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/util/mapped_file.hpp"

namespace egdb::kingsrow {

struct DtwOpenOptions {
    // Read files up to this many pieces (the driver's "maxpieces" option); 0: all that exist.
    int max_pieces = 0;
    // 0: serve blocks straight from the memory-mapped data files (every block "in memory", like
    // upstream's autoloaded files). Otherwise a bounded LRU of 4096-byte blocks of this many
    // bytes (12.2), and conditional lookups report blocks that are not in it.
    std::size_t cache_bytes = 0;
    // A handle's cache to join instead (cache_bytes is then unused): blocks go through the cache
    // that attach_cache gives once the handle has made it.
    SharedPageCache* shared_cache = nullptr;
};

class DtwDatabase : public KingsrowDatabase {
public:
    // Opens every DTW file of `directory` up to the piece limit: the highest piece count P with
    // a file present, capped by options.max_pieces. db2..db5 up to P must all be present; a
    // missing per-slice file (6, 7 pieces) is skipped, as upstream does. Every index record is
    // validated against its slice and the data file's size. Throws FileError (unreadable file)
    // or CorruptDataError (no database, missing or malformed file); what() names the file and the
    // record.
    explicit DtwDatabase(const std::filesystem::path& directory, const DtwOpenOptions& options = {});
    ~DtwDatabase() override;
    DtwDatabase(const DtwDatabase&) = delete;
    DtwDatabase& operator=(const DtwDatabase&) = delete;

    // The stored value for `position` with `side_to_move` to move, or one of the codes above.
    // With Conditional::Yes, a block that would have to be read from disk is not read and
    // kDtwNotInCache is returned. Throws CorruptDataError when the data of the subslice does not
    // decode (a damaged .cpr_dtw file). The position must be well formed (1.3). Thread-safe.
    int lookup(const Position& position, Color side_to_move, Conditional conditional = Conditional::No) const;

    // KingsrowDatabase interface: EGDB_DTW; the highest piece count read; min(5, max_pieces - 1) as
    // upstream reports for DTW (11); lookup_code is lookup.
    DbType type() const noexcept override { return DbType::Dtw; }
    int max_pieces() const noexcept override { return max_pieces_; }
    int max_pieces_one_side() const noexcept override;
    int lookup_code(const Position& position, Color side_to_move, Conditional conditional) const override {
        return lookup(position, side_to_move, conditional);
    }
    // Whether the (canonical) slice has a table for this side to move.
    bool contains(SliceId slice, Color side_to_move) const noexcept;
    // The files read, as index-file paths.
    std::vector<std::filesystem::path> files() const;
    // Block cache counters (zero without a cache).
    PageCacheStats cache_stats() const override;
    void attach_cache(std::shared_ptr<PageCache> cache) override { cache_ = std::move(cache); }
    std::size_t file_count() const override { return files_.size(); }

private:
    struct DataFile;
    struct Table {
        const SliceIndexer* indexer = nullptr;
        const DataFile* file = nullptr;
        std::vector<std::optional<DtwSubslice>> subslices;  // nullopt: not in the index
    };

    void open_file(const std::filesystem::path& index_path, const std::filesystem::path& data_path, int pieces,
                   const std::vector<SliceId>& allowed_slices);
    static std::size_t table_slot(SliceId slice, Color side_to_move) noexcept;
    int read_value(const Table& table, const DtwSubslice& subslice, std::uint32_t local, bool conditional) const;

    static constexpr std::size_t kCounts = kMaxPiecesPerSide + 1;
    static constexpr std::size_t kNoTable = 0xFFFF;

    std::vector<std::unique_ptr<DataFile>> files_;
    std::vector<Table> tables_;
    std::array<std::uint16_t, kCounts * kCounts * kCounts * kCounts * 2> table_of_{};
    std::shared_ptr<PageCache> cache_;
    int max_pieces_ = 0;
};

}  // namespace egdb::kingsrow
