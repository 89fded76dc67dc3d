// One probing API over every database format egdb reads: a native egdb directory, or a Kingsrow
// directory holding any of WLD (run-length, Tunstall V1, V2), MTC and DTW, alone or together.
// This is what the C ABI (capi/egdb.h), the CLI and the bindings use.
//
// Thread safety: every const member may be called from any number of threads at once.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/board/position.hpp"
#include "core/generate/solved_lookup.hpp"
#include "core/util/striped_counter.hpp"
#include "core/probe/ranked_moves.hpp"

namespace egdb {

namespace native {
class NativeDatabase;
}
namespace kingsrow {
class WldDatabase;
class MtcDatabase;
class DtwDatabase;
}  // namespace kingsrow

// The database cannot be opened (what() says why and names the files).
class DatabaseError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The database cannot answer for this position: too many pieces, a missing slice, a kind of
// data it does not hold, or a draw where a distance was asked.
class LookupNotPossible : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Kingsrow type codes (kingsrow-format.md 3.1), plus egdb's native format.
enum class DatabaseType : int {
    WldRunlen = 0,
    MtcRunlen = 1,
    WldTunV1 = 3,
    WldTunV2 = 4,
    Dtw = 5,
    Native = 100,
};

const char* to_string(DatabaseType type) noexcept;

struct DatabaseOptions {
    std::string kingsrow_options;  // e.g. "maxpieces=6" (12.1)
    std::size_t cache_mb = 64;
    std::function<void(const std::string&)> messages;  // driver messages (open progress, notes)
};

// A move with the distance it leads to, as egdb_lookup_distance reports it (13.4, 13.5).
struct MoveDistance {
    Move move;
    int distance = 0;
};

class Database final : public SolvedLookup {
public:
    // Opens `directory`: throws DatabaseError naming what was found when nothing usable is there.
    static std::unique_ptr<Database> open(const std::filesystem::path& directory, const DatabaseOptions& options = {});
    ~Database() override;

    // The type of the WLD data if any, else of the distance data (what egdb_identify reports).
    DatabaseType type() const noexcept { return type_; }
    int max_pieces() const noexcept { return max_pieces_; }
    bool has_wld() const noexcept;
    bool has_dtw() const noexcept;
    bool has_mtc() const noexcept;
    const std::filesystem::path& directory() const noexcept { return directory_; }

    // egdb_lookup: the raw stored value of the primary data as upstream returns it (Kingsrow
    // integer codes: WLD -2..5, MTC plies or 1, DTW floor(plies/2) or -2/-1); for a native
    // database the stored WLD code, EGDB_UNKNOWN (0) where the side to move must capture.
    int lookup(const Position& position, Color side_to_move, bool conditional = false) const;

    // The true win/loss/draw for the side to move, for any position with at most max_pieces:
    // captures, unstored positions and partial values resolved by search (13.3, no time limit).
    // Throws LookupNotPossible (too many pieces, missing slice, no WLD data).
    WldValue wld(const Position& position, Color side_to_move) const;

    // lookup() and wld() of many positions (spans of one size): out[i] is what the single call
    // returns for positions[i] and sides[i], or for wld_batch nullopt where wld() throws
    // LookupNotPossible. Kingsrow WLD and MTC data are read as a pipeline that requests the
    // memory of the next lookups while it decodes the current one, so random positions cost
    // several times less each than in single calls (egdb bench probe).
    void lookup_batch(std::span<const Position> positions, std::span<const Color> sides, std::span<int> out) const;
    void wld_batch(std::span<const Position> positions, std::span<const Color> sides,
                   std::span<std::optional<WldValue>> out) const;

    // True distances in plies for won and lost positions (nullopt for draws). DTW counts to the
    // end of the game (13.4); MTC to the next conversion (for Kingsrow MTC data the stored value,
    // even and rounded up, and nullopt below the threshold of 10). Throw LookupNotPossible when
    // the database holds no such data or not this slice.
    std::optional<int> dtw(const Position& position, Color side_to_move) const;
    std::optional<int> mtc(const Position& position, Color side_to_move) const;

    // SolvedLookup: WLD with DTW and MTC filled when held (0 otherwise), so ranked_moves() and the
    // one-ply rule work on any database.
    PositionValue value(const Position& position, Color side_to_move) const override;

    // egdb_lookup_distance: the moves of a won or lost position with their distances, best first
    // (13.4 for DistanceKind::Dtw, 13.5 for Mtc). Throws LookupNotPossible for draws and missing data.
    std::vector<MoveDistance> lookup_distance(const Position& position, Color side_to_move, DistanceKind kind) const;

    // The legal moves ranked by value and distance (ranked_moves), best first.
    std::vector<RankedMove> best_moves(const Position& position, Color side_to_move) const;

    // Moves of the principal variation: DTW-best moves to the end of the game (won or lost
    // positions), or MTC-best moves up to the next conversion. Empty for draws.
    std::vector<Move> principal_variation(const Position& position, Color side_to_move, DistanceKind kind) const;

    struct Stats {
        std::uint64_t lookups = 0;
        std::uint64_t cache_hits = 0;
        std::uint64_t cache_misses = 0;
        std::uint64_t cache_bytes = 0;
        std::uint64_t files = 0;
    };
    Stats stats() const;

    // Problems found by the format's verification (published CRCs for Kingsrow sets, page CRCs
    // and one-ply consistency for native ones); empty when all is well.
    std::vector<std::string> verify(const std::function<bool(const std::string&, std::int64_t, std::int64_t)>& progress,
                                    int threads = 1) const;

    // Plies the search for captures and unstored sides goes down at most (13.3).
    static constexpr int kMaxSearchDepth = 64;

private:
    Database() = default;
    void check_pieces(const Position& position) const;
    // The positions from the root to the current one, for the repetition check: on the stack, so
    // that a lookup with search allocates nothing.
    using SearchPath = std::array<Position, kMaxSearchDepth + 1>;
    // `root_lookup`: the raw value of the root position, when already looked up (batches).
    int kingsrow_search(const Position& position, Color side, int depth, int alpha, int beta, SearchPath& path,
                        bool force_search, std::optional<int> root_lookup = {}) const;
    int kingsrow_dtw(const Position& position, Color side, bool winning, int depth) const;
    WldValue wld_of_search(int search_value) const;  // throws LookupNotPossible for unresolved values

    std::filesystem::path directory_;
    DatabaseType type_ = DatabaseType::Native;
    int max_pieces_ = 0;
    std::unique_ptr<native::NativeDatabase> native_;
    std::unique_ptr<kingsrow::WldDatabase> kingsrow_wld_;
    std::unique_ptr<kingsrow::MtcDatabase> kingsrow_mtc_;
    std::unique_ptr<kingsrow::DtwDatabase> kingsrow_dtw_;
    mutable StripedCounter lookups_;
};

}  // namespace egdb
