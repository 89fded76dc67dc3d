// A native database directory opened for probing (docs/native-format.md): every slice file is
// validated when the directory is opened, pages are read through one bounded, thread-safe page
// cache, and positions where the side to move must capture (stored as "don't care") are resolved
// by the one-ply rule over their successors (core/values/one_ply_check.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

#include "core/cache/page_cache.hpp"
#include "core/cache/shared_page_cache.hpp"
#include "core/formats/native/slice_file_reader.hpp"
#include "core/values/solved_lookup.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/util/error.hpp"

namespace egdb::native {

// A position whose slice (or value kind) the database does not hold.
class MissingSliceError : public ErrorOf<std::out_of_range, ErrorKind::LookupNotPossible> {
public:
    using ErrorOf::ErrorOf;
};

struct NativeOpenOptions {
    std::size_t cache_bytes = std::size_t{64} << 20;  // bound on decompressed pages held in memory
    // A handle's cache to join instead (cache_bytes is then unused): the database has no cache
    // until attach_cache gives it the one made for the handle.
    SharedPageCache* shared_cache = nullptr;
};

class NativeDatabase final : public SolvedLookup {
public:
    // Throws FileError (missing or unreadable directory or file), CorruptDataError (a damaged
    // slice file), std::invalid_argument (no slice file in the directory).
    explicit NativeDatabase(const std::filesystem::path& directory, NativeOpenOptions options = {});

    const std::filesystem::path& directory() const noexcept { return directory_; }

    // The largest N such that every canonical slice with at most N pieces (and at most
    // kMaxPiecesPerSide a side) is present with its WLD sections; 0 if not even 2 pieces are.
    int max_pieces() const noexcept { return max_pieces_; }
    // The most pieces of a slice held with WLD: a partial database (egdb build --slices) answers
    // every position of the slices it holds, and names the slice of one it does not hold.
    int held_max_pieces() const noexcept { return held_max_pieces_; }
    bool has_kind(ValueKind kind) const noexcept;
    bool has_slice(SliceId canonical) const noexcept { return file_of(canonical) != nullptr; }
    // The file of a canonical slice, or nullptr.
    const SliceFileReader* file(SliceId canonical) const noexcept {
        const SliceEntry* e = file_of(canonical);
        return e ? e->file.get() : nullptr;
    }
    std::vector<const SliceFileReader*> files() const;

    // Gives back the file pages of every slice file (MappedFile::release_resident_pages): a
    // verification or build under a memory budget calls it after a step that read files.
    void release_resident_pages() const noexcept;

    // The stored value of a position (after the lookup reversal of section 1.5), without
    // resolving captures; nullopt when the slice or the section is absent.
    std::optional<std::uint32_t> stored(ValueKind kind, const Position& position, Color side_to_move) const;

    // The true value of any position of a held slice, captures resolved. DTW and MTC are 0 when
    // the database has no such sections. Throws MissingSliceError for a slice it does not hold.
    PositionValue value(const Position& position, Color side_to_move) const override;

    // Only the WLD part of value(): reads no DTW or MTC page, and a capture position stops at its
    // first winning capture. Throws MissingSliceError as value().
    WldValue wld(const Position& position, Color side_to_move) const;

    // wld() of many positions into out[i] (nullopt where wld() throws MissingSliceError), as a
    // pipeline: the cache lines of later lookups are requested while earlier ones are read.
    void wld_many(std::span<const Position> positions, std::span<const Color> sides,
                  std::span<std::optional<WldValue>> out) const;

    // stored(ValueKind::Wld, ...) of many positions, with capture positions (stored as "don't
    // care") given as nullopt too, in the same pipeline.
    void stored_wld_many(std::span<const Position> positions, std::span<const Color> sides,
                         std::span<std::optional<std::uint32_t>> out) const;

    PageCacheStats cache_stats() const { return cache_->stats(); }
    // The handle's cache, made after this database joined it (NativeOpenOptions::shared_cache).
    void attach_cache(std::shared_ptr<PageCache> cache) noexcept { cache_ = std::move(cache); }

private:
    struct SliceEntry {
        std::unique_ptr<SliceFileReader> file;
        std::unique_ptr<SliceIndexer> indexer;
        std::uint64_t owner_base = 0;  // page-cache owner id of section 0
    };
    static constexpr int kCounts = kMaxPiecesPerSide + 1;
    static constexpr std::size_t slot_of(SliceId s) noexcept {
        return static_cast<std::size_t>(((s.nbm * kCounts + s.nbk) * kCounts + s.nwm) * kCounts + s.nwk);
    }
    const SliceEntry* file_of(SliceId canonical) const noexcept;
    std::uint32_t read_value(const SliceEntry& entry, int section, std::uint64_t index) const;

    // Where the stored WLD of a position without capture is: its file, section and index.
    struct WldAddress {
        const SliceEntry* entry = nullptr;
        int section = -1;
        std::uint64_t index = 0;
    };
    WldAddress wld_address(const Position& position, Color side_to_move) const;  // throws MissingSliceError
    PageKey page_key(const WldAddress& a) const noexcept;
    WldValue stored_wld(const WldAddress& a) const;

    // The pipeline of wld_many and stored_wld_many: positions without capture whose slice is held
    // go through it (the page's set line, then the value's line are requested ahead); for them
    // on_stored(i, address) is called in order, for the others on_other(i).
    template <class OnStored, class OnOther>
    void pipeline(std::span<const Position> positions, std::span<const Color> sides, std::size_t n, OnStored&& on_stored,
                  OnOther&& on_other) const;

    std::filesystem::path directory_;
    std::array<SliceEntry, kCounts * kCounts * kCounts * kCounts> slices_;
    int max_pieces_ = 0;
    int held_max_pieces_ = 0;
    // Slots as large as the largest page of the files (known once they are read); the handle's
    // cache when it was opened with one.
    std::shared_ptr<PageCache> cache_;
};

}  // namespace egdb::native
