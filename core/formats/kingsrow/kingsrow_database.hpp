// Opening and probing a Kingsrow database directory of the text-indexed types (RUNLEN, TUN_V1,
// TUN_V2, MTC): the C++ counterpart of upstream egdb_open / egdb_lookup / egdb_get_pieces
// (kingsrow-format.md 3.3, 11, 12).
//
// Thread safety: lookup() may be called from any number of threads at once on one database; all
// return what a single thread would. Opening and destruction are not concurrent with lookups.
#pragma once

#include <filesystem>
#include <memory>
#include <span>

#include "core/board/position.hpp"
#include "core/cache/page_cache.hpp"
#include "core/formats/kingsrow/open_options.hpp"
#include "core/formats/kingsrow/result.hpp"

namespace egdb::kingsrow {

class KingsrowDatabase {
public:
    virtual ~KingsrowDatabase() = default;

    virtual DbType type() const noexcept = 0;
    // egdb_get_pieces: maxima over the files present (section 11).
    virtual int max_pieces() const noexcept = 0;
    virtual int max_pieces_one_side() const noexcept = 0;

    // egdb_lookup's integer result, for the C ABI and tools: the WldResult or MtcValue code.
    // Throws CorruptDataError when a block read from disk contradicts its index.
    virtual int lookup_code(const Position& p, Color side_to_move, Conditional conditional) const = 0;

    // lookup_code(positions[i], sides[i], Conditional::No) into out[i] for every i (the spans have
    // one size). Formats that can overlap the memory accesses of many lookups do (a pipeline).
    virtual void lookup_codes(std::span<const Position> positions, std::span<const Color> sides,
                              std::span<int> out) const {
        for (std::size_t i = 0; i < positions.size(); ++i) out[i] = lookup_code(positions[i], sides[i], Conditional::No);
    }

    // Counters of the block cache (zero for data served from memory) and the files read.
    virtual PageCacheStats cache_stats() const = 0;
    // The handle's cache, made after the database joined it (KingsrowOpenOptions::shared_cache, or
    // DtwOpenOptions::shared_cache); called once, before any lookup.
    virtual void attach_cache(std::shared_ptr<PageCache> cache) = 0;
    virtual std::size_t file_count() const = 0;
};

class WldDatabase : public KingsrowDatabase {
public:
    // The value of `p` with `side_to_move` to move, or the documented codes of 3.3 when the
    // database does not hold it. Throws CorruptDataError as lookup_code.
    virtual WldResult lookup(const Position& p, Color side_to_move, Conditional conditional = Conditional::No) const = 0;
};

class MtcDatabase : public KingsrowDatabase {
public:
    virtual MtcValue lookup(const Position& p, Color side_to_move, Conditional conditional = Conditional::No) const = 0;
};

// Identifies the directory (identify.hpp) and opens it with the effective piece count of 12.1.
// Throws std::runtime_error ("No egdb found in <dir> ...", naming what was found),
// TunstallTablesUnavailable (V1/V2 without the tables, the message says how to provide them),
// FileError, IndexFileError and CorruptDataError.
std::unique_ptr<KingsrowDatabase> open_database(const std::filesystem::path& directory, const KingsrowOpenOptions& options = {});

// Opens the files of `type` up to `max_pieces` (further limited by the maxpieces option),
// whatever identification says: for directories holding several types.
std::unique_ptr<KingsrowDatabase> open_database(const std::filesystem::path& directory, DbType type, int max_pieces,
                                        const KingsrowOpenOptions& options = {});

}  // namespace egdb::kingsrow
