// One source of stored values behind the probing API: the files of one format in one directory
// (native egdb slices; Kingsrow WLD in run-length, Tunstall V1 or V2; Kingsrow MTC; Kingsrow DTW).
// Database (database.hpp) combines backends, one per kind it serves, possibly from several
// directories, and runs the searches of kingsrow-format.md 13 over them. What differs between
// formats is said here, by each backend, so that Database never asks which format it holds:
//  - what it stores (holds) and its raw lookup codes, as upstream's egdb_lookup returns them;
//  - the search rule of 13.3 for stored values that depend on the opponent's captures (TUN_V2);
//  - whether it resolves positions itself (native data resolves captures and unstored sides from
//    its own pages: resolving()), or needs the search of 13.3 on top;
//  - its cache counters.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>

#include "core/board/position.hpp"
#include "core/cache/page_cache.hpp"
#include "core/formats/database_type.hpp"
#include "core/values/position_value.hpp"
#include "core/index/slice.hpp"

namespace egdb {

namespace native {
class NativeDatabase;
}
namespace kingsrow {
class KingsrowDatabase;
}

// The three kinds of values a database may store.
enum class StoredKind : std::uint8_t { Wld, Dtw, Mtc };

class ResolvingBackend;

class Backend {
public:
    virtual ~Backend() = default;

    virtual DatabaseType type() const noexcept = 0;
    virtual const std::filesystem::path& directory() const noexcept = 0;
    // Every position with at most this many pieces is held (for the kinds held).
    virtual int max_pieces() const noexcept = 0;
    virtual bool holds(StoredKind kind) const noexcept = 0;

    // The stored code of `kind` (precondition: holds(kind)) as upstream's egdb_lookup returns it
    // for a database of this type (3.3): WLD EGDB_* codes -2..5; MTC plies (even) or 1 below the
    // threshold; DTW floor(plies / 2), or -2 for a missing slice. Native data answers WLD with
    // EGDB_UNKNOWN where the side to move must capture (stored as "don't care"), -2 for a slice it
    // lacks. Throws CorruptDataError when the data read contradicts its index.
    virtual int lookup(StoredKind kind, const Position& position, Color side, bool conditional) const = 0;

    // lookup(kind, positions[i], sides[i], false) into out[i]; formats that can overlap the
    // memory accesses of many lookups do (a pipeline).
    virtual void lookup_batch(StoredKind kind, std::span<const Position> positions, std::span<const Color> sides,
                              std::span<int> out) const;

    // 13.3: a stored WLD value of a position whose side to move has no capture may be trusted
    // only when the opponent has none either. TUN_V2 stores "don't care" values there from 7
    // pieces on (with 9 or more pieces, or 2 or more kings).
    virtual bool needs_opponent_capture_test(const Material& material) const noexcept {
        (void)material;
        return false;
    }

    // Non-null for a backend that answers true values itself (ResolvingBackend).
    virtual const ResolvingBackend* resolving() const noexcept { return nullptr; }

    // The files the backend reads.
    virtual std::size_t file_count() const = 0;
    // The handle's one page cache, made after the backend's database joined it (Database::open).
    virtual void attach_cache(std::shared_ptr<PageCache> cache) = 0;
};

// A backend whose WLD (and DTW, MTC when held) are true values for every position of a held
// slice: captures and unstored sides resolved by the backend itself.
class ResolvingBackend : public Backend {
public:
    const ResolvingBackend* resolving() const noexcept final { return this; }

    // Throw LookupNotPossible for a slice the backend does not hold.
    virtual WldValue wld(const Position& position, Color side) const = 0;
    virtual PositionValue value(const Position& position, Color side) const = 0;
    // wld() of many positions; nullopt where wld() throws LookupNotPossible.
    virtual void wld_batch(std::span<const Position> positions, std::span<const Color> sides,
                           std::span<std::optional<WldValue>> out) const = 0;
};

// The backends of each format (backend.cpp).
std::unique_ptr<ResolvingBackend> make_native_backend(std::unique_ptr<native::NativeDatabase> db);
std::unique_ptr<Backend> make_kingsrow_backend(std::unique_ptr<kingsrow::KingsrowDatabase> db,
                                               const std::filesystem::path& directory);

}  // namespace egdb
