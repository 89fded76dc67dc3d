// One probing API over every database format egdb reads: native egdb directories and Kingsrow
// directories holding any of WLD (run-length, Tunstall V1, V2), MTC and DTW, alone or together,
// in one directory or spread over several (a Kingsrow installation keeps wld_database,
// mtc_database and dtw_database apart). The formats are backends (backend.hpp); this class takes
// for each kind the first directory that holds it and runs the searches of kingsrow-format.md 13
// over them. This is what the C ABI (capi/egdb.h), the CLI, the workflows and the bindings use.
//
// Thread safety: every const member may be called from any number of threads at once.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/board/position.hpp"
#include "core/cache/shared_page_cache.hpp"
#include "core/formats/database_type.hpp"
#include "core/values/solved_lookup.hpp"
#include "core/formats/kingsrow/result.hpp"
#include "core/probe/backend.hpp"
#include "core/probe/ranked_moves.hpp"
#include "core/util/error.hpp"
#include "core/util/striped_counter.hpp"

namespace egdb {

// The database cannot be opened (what() says why and names the files). Its kind is NoDatabase
// when nothing usable is at the path, or the kind of the failure that stopped the opening
// (CorruptData, Io, Unsupported).
class DatabaseError : public RuntimeError {
public:
    explicit DatabaseError(const std::string& message, ErrorKind kind = ErrorKind::NoDatabase)
        : RuntimeError(kind, message) {}
};

// The database cannot answer for this position: too many pieces, a missing slice, a kind of
// data it does not hold, or a draw where a distance was asked.
class LookupNotPossible : public ErrorOf<std::runtime_error, ErrorKind::LookupNotPossible> {
public:
    using ErrorOf::ErrorOf;
};

// The type names of egdb.h ("EGDB_WLD_TUN_V2", ..., "EGDB_NATIVE").
inline const char* to_string(DatabaseType type) noexcept { return name_of(type).data(); }

struct DatabaseOptions {
    std::string kingsrow_options;  // the driver's options string, e.g. "maxpieces=6" (12.1)
    // The bound of the handle's one page cache, which every folder and kind opened shares
    // (shared_page_cache.hpp says how Kingsrow's autoloaded files come out of it).
    std::size_t cache_bytes = std::size_t{64} << 20;
    std::function<void(const std::string&)> messages;  // driver messages (open progress, notes)
};

// The directories of a path list: `text` itself when it names a directory, else its parts
// between ';' (as Stockfish's SyzygyPath and python-chess's add_directory take several), empty
// parts left out.
std::vector<std::filesystem::path> split_directory_list(const std::string& text);

// A move with the distance it leads to, as egdb_lookup_distance reports it (13.4, 13.5).
struct MoveDistance {
    Move move;
    int distance = 0;
};

class Database final : public SolvedLookup {
public:
    // Opens `directory`: throws DatabaseError naming what was found when nothing usable is there
    // (kind NoDatabase), or with the kind of the failure that stopped the opening (a corrupt or
    // unreadable file: CorruptData, Io; V1/V2 without the Tunstall tables: Unsupported).
    static std::unique_ptr<Database> open(const std::filesystem::path& directory, const DatabaseOptions& options = {});
    // Opens several directories as one database: each kind (WLD, DTW, MTC) comes from the first
    // directory that holds it. Throws as open() for a directory that holds nothing.
    static std::unique_ptr<Database> open(std::span<const std::filesystem::path> directories,
                                          const DatabaseOptions& options = {});
    ~Database() override;

    // The type of the WLD data if any, else of the distance data (what egdb_identify reports).
    DatabaseType type() const noexcept { return type_; }
    int max_pieces() const noexcept { return max_pieces_; }
    bool has_wld() const noexcept;
    bool has_dtw() const noexcept;
    bool has_mtc() const noexcept;
    // The first directory opened (the one of a single-directory database).
    const std::filesystem::path& directory() const noexcept { return directory_; }
    // The source of each kind (nullptr when not held), and all of them.
    const Backend* backend(StoredKind kind) const noexcept;
    std::span<const std::unique_ptr<Backend>> backends() const noexcept { return backends_; }

    // egdb_lookup: the raw stored value of the primary data as upstream returns it (Kingsrow
    // integer codes: WLD -2..5, MTC plies or 1, DTW floor(plies/2) or -2/-1); for a native
    // database the stored WLD code, EGDB_UNKNOWN (0) where the side to move must capture.
    int lookup(const Position& position, Color side_to_move, bool conditional = false) const;

    // The raw stored code of one kind, as egdb_lookup returns it on a database of that kind alone
    // (Backend::lookup). Throws LookupNotPossible when the database holds no such kind.
    int lookup_stored(StoredKind kind, const Position& position, Color side_to_move) const;

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

    // True when value() answers WLD, DTW and MTC with one resolved lookup (native databases):
    // it then gives what wld(), dtw() and mtc() give, for a third of their cost together.
    bool value_is_one_lookup() const noexcept { return resolved_serves_all(); }

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

    // Plies the search for captures and unstored sides goes down at most (13.3).
    static constexpr int kMaxSearchDepth = 64;

private:
    Database() = default;
    void add_directory(const std::filesystem::path& directory, const DatabaseOptions& options, int piece_limit,
                       SharedPageCache& cache);
    // Throws std::invalid_argument for an ill-formed position, LookupNotPossible for one with more
    // pieces than the database holds.
    void check_position(const Position& position) const;
    // Positions the search of one lookup visits at most. A sound database needs a few plies of
    // captures or one unstored side (tens of nodes); a slice missing or unreadable from a damaged
    // set would otherwise send a king endgame's search through the whole tree to depth 64, which
    // never ends (bench/damage.py found `egdb probe` spinning on a Kingsrow set whose db2.idx had
    // lost its last bytes). Past the budget the value is unknown: LookupNotPossible.
    static constexpr std::uint32_t kMaxSearchNodes = 200'000;
    // The positions from the root to the current one, for the repetition check, and the nodes
    // visited: on the stack, so that a lookup with search allocates nothing.
    struct SearchPath {
        std::array<Position, kMaxSearchDepth + 1> positions;
        std::uint32_t nodes = 0;
    };
    // `root_lookup`: the raw value of the root position, when already looked up (batches).
    kingsrow::WldResult search(const Position& position, Color side, int depth, kingsrow::WldResult alpha,
                               kingsrow::WldResult beta, SearchPath& path, std::optional<int> root_lookup = {}) const;
    // `nodes`: positions visited so far by this lookup, bounded by kMaxSearchNodes.
    int searched_dtw(const Position& p, Color side, bool winning, int depth, std::uint32_t& nodes) const;
    WldValue wld_of_search(kingsrow::WldResult result) const;  // throws LookupNotPossible for unresolved values
    // resolved_->value() serves every kind this database holds.
    bool resolved_serves_all() const noexcept;

    std::filesystem::path directory_;
    DatabaseType type_ = DatabaseType::Native;
    int max_pieces_ = 0;
    std::vector<std::unique_ptr<Backend>> backends_;
    std::shared_ptr<PageCache> cache_;  // the one page cache every backend reads through
    const Backend* wld_ = nullptr;
    const Backend* dtw_ = nullptr;
    const Backend* mtc_ = nullptr;
    const ResolvingBackend* resolved_wld_ = nullptr;  // wld_ when it resolves positions itself
    mutable StripedCounter lookups_;
};

}  // namespace egdb
