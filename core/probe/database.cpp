#include "core/probe/database.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>
#include <string>

#include "core/formats/kingsrow/kingsrow_database.hpp"
#include "core/formats/kingsrow/directory/identify.hpp"
#include "core/formats/kingsrow/dtw/dtw_database.hpp"
#include "core/formats/kingsrow/open_options.hpp"
#include "core/formats/native/native_database.hpp"
#include "core/formats/native/native_layout.hpp"
#include "core/index/slice.hpp"
#include "core/probe/wld_algebra.hpp"
#include "core/rules/movegen.hpp"
#include "core/util/directory_problem.hpp"
#include "core/util/error.hpp"

namespace egdb {
namespace {

using kingsrow::WldResult;
using namespace wld_algebra;

constexpr int kMaxSearchDepth = Database::kMaxSearchDepth;
constexpr int kMaxDtwSearchDepth = 32;

Bitboard men_of(const Position& p) noexcept { return (p.black | p.white) & ~p.king; }

// An error while a handle opens, as the handle reports it: the data's own kind (corrupt, I/O,
// unsupported), and "no database" for what is no fault of the caller's arguments.
DatabaseError opening_error(const std::exception& e) {
    const ErrorKind kind = kind_of(e);
    return DatabaseError(e.what(), kind == ErrorKind::InvalidArgument || kind == ErrorKind::Internal ? ErrorKind::NoDatabase : kind);
}

int capped(int pieces, int piece_limit) noexcept { return piece_limit > 0 ? std::min(pieces, piece_limit) : pieces; }

bool holds_database_files(const std::filesystem::path& dir) {
    return native::has_slice_files(dir) || !kingsrow::identify_families(dir).empty();
}

// The folders a Kingsrow installation keeps its databases in, below its top folder, in the order
// their kinds are taken (WLD first, then MTC, then DTW).
constexpr std::array<std::string_view, 3> kInstallationFolders = {"wld_database", "mtc_database", "dtw_database"};

// The folders a directory given to open stands for: a Kingsrow installation's top folder, which
// holds no database files itself but the folders wld_database, mtc_database and dtw_database (any
// case, as on Windows), stands for those of them that hold files, in that order; any other
// directory for itself.
std::vector<std::filesystem::path> database_folders(const std::filesystem::path& directory) {
    std::error_code ec;
    if (!std::filesystem::is_directory(directory, ec) || holds_database_files(directory)) return {directory};
    std::array<std::filesystem::path, kInstallationFolders.size()> found;
    for (const auto& entry : std::filesystem::directory_iterator(directory, ec)) {
        if (!entry.is_directory(ec)) continue;
        std::string name = entry.path().filename().string();
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        for (std::size_t k = 0; k < kInstallationFolders.size(); ++k) {
            if (name == kInstallationFolders[k] && holds_database_files(entry.path())) found[k] = entry.path();
        }
    }
    std::vector<std::filesystem::path> folders;
    for (const std::filesystem::path& folder : found) {
        if (!folder.empty()) folders.push_back(folder);
    }
    if (folders.empty()) return {directory};
    return folders;
}

}  // namespace

std::vector<std::filesystem::path> split_directory_list(const std::string& text) {
    std::error_code ec;
    if (text.empty() || std::filesystem::is_directory(std::filesystem::path(text), ec)) return {std::filesystem::path(text)};
    std::vector<std::filesystem::path> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(';', start), text.size());
        if (end > start) out.emplace_back(text.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

Database::~Database() = default;

std::unique_ptr<Database> Database::open(const std::filesystem::path& directory, const DatabaseOptions& options) {
    return open(std::span<const std::filesystem::path>(&directory, 1), options);
}

std::unique_ptr<Database> Database::open(std::span<const std::filesystem::path> directories,
                                         const DatabaseOptions& options) {
    if (directories.empty()) throw DatabaseError("no database directory given");
    std::unique_ptr<Database> db(new Database());
    db->directory_ = directories.front();
    // The maxpieces option, read once for every backend (0: no limit).
    const kingsrow::MaxPiecesOption maxpieces = kingsrow::read_maxpieces_option(options.kingsrow_options);
    if (!maxpieces.problem.empty()) throw DatabaseError(maxpieces.problem, ErrorKind::InvalidArgument);
    const int piece_limit = maxpieces.limit;
    // One cache for the handle (egdb.h: cache_mb bounds the whole handle): every database joins
    // it as it opens, and gets it once all have.
    SharedPageCache shared_cache(options.cache_bytes);
    for (const std::filesystem::path& given : directories) {
        for (const std::filesystem::path& directory : database_folders(given)) {
            db->add_directory(directory, options, piece_limit, shared_cache);
        }
    }
    try {
        db->cache_ = shared_cache.make();
        for (const std::unique_ptr<Backend>& b : db->backends_) b->attach_cache(db->cache_);
    } catch (const std::exception& e) {
        throw opening_error(e);  // making the cache or preloading it
    }
    // The primary source: WLD, else MTC, else DTW (what egdb_type reports and egdb_lookup reads).
    const Backend* primary = db->wld_ ? db->wld_ : db->mtc_ ? db->mtc_ : db->dtw_;
    db->type_ = primary->type();
    db->max_pieces_ = capped(primary->max_pieces(), piece_limit);
    db->resolved_wld_ = db->wld_ ? db->wld_->resolving() : nullptr;
    return db;
}

void Database::add_directory(const std::filesystem::path& directory, const DatabaseOptions& options, int piece_limit,
                             SharedPageCache& shared_cache) {
    if (const std::string problem = directory_problem(directory); !problem.empty()) {
        throw DatabaseError("cannot open database " + directory.string() + ": " + problem);
    }
    std::vector<std::unique_ptr<Backend>> found;
    try {
        if (native::has_slice_files(directory)) {
            found.push_back(make_native_backend(
                std::make_unique<native::NativeDatabase>(directory, native::NativeOpenOptions{.shared_cache = &shared_cache})));
        } else {
            const kingsrow::FamiliesPresent families = kingsrow::identify_families(directory);
            kingsrow::KingsrowOpenOptions ko;
            ko.cache_bytes = options.cache_bytes;  // the autoload rule's budget (12.2)
            ko.shared_cache = &shared_cache;
            if (options.messages) ko.messages = [&](std::string_view m) { options.messages(std::string(m)); };
            if (families.wld) {
                found.push_back(make_kingsrow_backend(
                    kingsrow::open_database(directory, families.wld->type, capped(families.wld->max_pieces, piece_limit), ko),
                    directory));
            }
            if (families.mtc_pieces > 0) {
                found.push_back(make_kingsrow_backend(
                    kingsrow::open_database(directory, kingsrow::DbType::MtcRunlen, capped(families.mtc_pieces, piece_limit), ko),
                    directory));
            }
            if (families.dtw_pieces > 0) {
                kingsrow::DtwOpenOptions dopt;
                dopt.max_pieces = piece_limit;
                dopt.shared_cache = &shared_cache;
                found.push_back(make_kingsrow_backend(std::make_unique<kingsrow::DtwDatabase>(directory, dopt), directory));
            }
        }
    } catch (const DatabaseError&) {
        throw;
    } catch (const std::exception& e) {
        throw opening_error(e);
    }
    if (found.empty()) {
        throw DatabaseError("no endgame database in " + directory.string() +
                            ": expected egdb slice files (slice-*.egdb), Kingsrow files (db*.idx1, .idx, "
                            ".idx_mtc, .idx_dtw), or a Kingsrow installation's wld_database, mtc_database, "
                            "dtw_database folders holding them");
    }
    for (std::unique_ptr<Backend>& b : found) {
        const Backend* raw = b.get();
        if (!wld_ && raw->holds(StoredKind::Wld)) wld_ = raw;
        if (!dtw_ && raw->holds(StoredKind::Dtw)) dtw_ = raw;
        if (!mtc_ && raw->holds(StoredKind::Mtc)) mtc_ = raw;
        backends_.push_back(std::move(b));
    }
}

const Backend* Database::backend(StoredKind kind) const noexcept {
    return kind == StoredKind::Wld ? wld_ : kind == StoredKind::Dtw ? dtw_ : mtc_;
}

bool Database::has_wld() const noexcept { return wld_ != nullptr; }
bool Database::has_dtw() const noexcept { return dtw_ != nullptr; }
bool Database::has_mtc() const noexcept { return mtc_ != nullptr; }

bool Database::resolved_serves_all() const noexcept {
    return resolved_wld_ != nullptr && (dtw_ == nullptr || dtw_ == resolved_wld_) && (mtc_ == nullptr || mtc_ == resolved_wld_);
}

void Database::check_position(const Position& position) const {
    // An ill-formed position (overlapping colours, a king bit on an empty square, bits off the
    // board, a man on its promotion row) has no index: reading one would address outside the
    // slice's tables (found by fuzz/fuzz_capi.cpp through is_sharp_win).
    if (!is_well_formed(position)) {
        throw InvalidArgumentError("the position is not well formed (black " + std::to_string(position.black) +
                                    ", white " + std::to_string(position.white) + ", kings " +
                                    std::to_string(position.king) +
                                    "): colours overlap, a king bit is on an empty square, a bit is off the "
                                    "board or a man stands on its promotion row");
    }
    const Material m = material_of(position);
    if (m.total() > max_pieces_ || m.black() > kMaxPiecesPerSide || m.white() > kMaxPiecesPerSide) {
        throw LookupNotPossible("position has " + std::to_string(m.total()) + " pieces (" + std::to_string(m.black()) +
                                " black, " + std::to_string(m.white()) + " white); the database in " +
                                directory_.string() + " holds up to " + std::to_string(max_pieces_));
    }
}

int Database::lookup(const Position& position, Color side, bool conditional) const {
    if (!is_well_formed(position)) throw InvalidArgumentError("the position is not well formed");
    lookups_.add();
    if (wld_) return wld_->lookup(StoredKind::Wld, position, side, conditional);
    if (mtc_) return mtc_->lookup(StoredKind::Mtc, position, side, conditional);
    return dtw_->lookup(StoredKind::Dtw, position, side, conditional);
}

int Database::lookup_stored(StoredKind kind, const Position& position, Color side) const {
    const Backend* source = backend(kind);
    if (source == nullptr) {
        throw LookupNotPossible("the database in " + directory_.string() + " holds no " +
                                (kind == StoredKind::Wld ? "WLD" : kind == StoredKind::Dtw ? "DTW" : "MTC") + " data");
    }
    lookups_.add();
    return source->lookup(kind, position, side, false);
}

WldResult Database::search(const Position& p, Color c, int depth, WldResult alpha, WldResult beta, SearchPath& path,
                           std::optional<int> root_lookup) const {
    path.positions[static_cast<std::size_t>(depth)] = p;  // depth <= kMaxSearchDepth: deeper calls are not made
    if (p.black == 0) return c == Color::Black ? WldResult::Loss : WldResult::Win;
    if (p.white == 0) return c == Color::White ? WldResult::Loss : WldResult::Win;
    // A repeated position (same side to move) is a draw; men moves are irreversible, so stop
    // looking back at the first different set of men.
    for (int i = depth - 4; i >= 0; i -= 2) {
        const Position& q = path.positions[static_cast<std::size_t>(i)];
        if (men_of(q) != men_of(p)) break;
        if (q == p) return WldResult::Draw;
    }
    if (!has_capture(p, c)) {
        if (!wld_->needs_opponent_capture_test(material_of(p)) || !has_capture(p, opposite(c))) {
            if (!root_lookup) lookups_.add();
            const auto v = static_cast<WldResult>(root_lookup ? *root_lookup : wld_->lookup(StoredKind::Wld, p, c, false));
            if (!is_unknown(v)) return v;  // unknown: an unstored side or position, resolved by search
        }
    }
    if (depth >= kMaxSearchDepth || ++path.nodes > kMaxSearchNodes) return WldResult::Unknown;
    MoveList list;
    generate_moves(p, c, list);
    if (list.empty()) return WldResult::Loss;
    WldResult best = WldResult::Loss;
    for (const Move& m : list) {
        const WldResult v =
            negate(search(apply_move(p, c, m), opposite(c), depth + 1, negate(beta), negate(alpha), path));
        if (greater_equal(v, beta)) return improve(v, beta);
        best = improve(v, best);
        if (greater(best, alpha)) alpha = best;
    }
    return best;
}

void Database::lookup_batch(std::span<const Position> positions, std::span<const Color> sides, std::span<int> out) const {
    lookups_.add(positions.size());
    if (wld_) wld_->lookup_batch(StoredKind::Wld, positions, sides, out);
    else if (mtc_) mtc_->lookup_batch(StoredKind::Mtc, positions, sides, out);
    else dtw_->lookup_batch(StoredKind::Dtw, positions, sides, out);
}

void Database::wld_batch(std::span<const Position> positions, std::span<const Color> sides,
                         std::span<std::optional<WldValue>> out) const {
    if (resolved_wld_) {
        // Too many pieces is the caller's LookupNotPossible as in wld(); the rest in one pipeline.
        std::vector<std::size_t> where;
        std::vector<Position> batch;
        std::vector<Color> batch_sides;
        for (std::size_t i = 0; i < positions.size(); ++i) {
            const Material m = material_of(positions[i]);
            if (m.total() > max_pieces_ || m.black() > kMaxPiecesPerSide || m.white() > kMaxPiecesPerSide) {
                out[i] = std::nullopt;
                continue;
            }
            where.push_back(i);
            batch.push_back(positions[i]);
            batch_sides.push_back(sides[i]);
        }
        lookups_.add(batch.size());
        std::vector<std::optional<WldValue>> values(batch.size());
        resolved_wld_->wld_batch(batch, batch_sides, values);
        for (std::size_t k = 0; k < batch.size(); ++k) out[where[k]] = values[k];
        return;
    }
    if (!wld_) {
        for (std::size_t i = 0; i < positions.size(); ++i) out[i] = std::nullopt;
        return;
    }
    // The raw values of all roots in one pipeline; the search uses them where it would have
    // looked the root up (roots that must capture, or with too many pieces, ignore theirs).
    std::vector<int> raw(positions.size());
    wld_->lookup_batch(StoredKind::Wld, positions, sides, raw);
    lookups_.add(positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i) {
        try {
            check_position(positions[i]);
            SearchPath path;
            out[i] = wld_of_search(search(positions[i], sides[i], 0, WldResult::Loss, WldResult::Win, path, raw[i]));
        } catch (const LookupNotPossible&) {
            out[i] = std::nullopt;
        }
    }
}

WldValue Database::wld_of_search(WldResult v) const {
    if (v == WldResult::Win) return WldValue::Win;
    if (v == WldResult::Loss) return WldValue::Loss;
    if (v == WldResult::Draw) return WldValue::Draw;
    throw LookupNotPossible("the search could not resolve " +
                            std::string(v == WldResult::DrawOrLoss   ? "draw-or-loss"
                                        : v == WldResult::WinOrDraw ? "win-or-draw"
                                                                    : "an unknown value") +
                            " (a slice is missing from " + directory_.string() + ")");
}

WldValue Database::wld(const Position& position, Color side) const {
    check_position(position);
    if (resolved_wld_) {
        lookups_.add();
        return resolved_wld_->wld(position, side);
    }
    if (!wld_) throw LookupNotPossible("the database in " + directory_.string() + " holds no WLD data");
    SearchPath path;
    return wld_of_search(search(position, side, 0, WldResult::Loss, WldResult::Win, path));
}

int Database::searched_dtw(const Position& p, Color c, bool winning, int depth, std::uint32_t& nodes) const {
    if (!has_capture(p, c)) {
        lookups_.add();
        const int v = dtw_->lookup(StoredKind::Dtw, p, c, false);
        if (v >= 0) return winning ? 2 * v + 1 : 2 * v;
    }
    if (depth >= kMaxDtwSearchDepth) throw LookupNotPossible("DTW search too deep (a side is not stored)");
    if (++nodes > kMaxSearchNodes) {
        throw LookupNotPossible("DTW search gave up after " + std::to_string(kMaxSearchNodes) +
                                " positions (a slice is missing or unreadable in " + directory_.string() + ")");
    }
    MoveList list;
    generate_moves(p, c, list);
    if (list.empty()) return 0;
    int best = winning ? 1 << 20 : -1;
    for (const Move& m : list) {
        const Position q = apply_move(p, c, m);
        if (winning) {
            if (wld(q, opposite(c)) != WldValue::Loss) continue;
            best = std::min(best, searched_dtw(q, opposite(c), false, depth + 1, nodes) + 1);
        } else {
            best = std::max(best, searched_dtw(q, opposite(c), true, depth + 1, nodes) + 1);
        }
    }
    return best;
}

std::optional<int> Database::dtw(const Position& position, Color side) const {
    check_position(position);
    if (!dtw_) throw LookupNotPossible("the database in " + directory_.string() + " holds no DTW data");
    if (const ResolvingBackend* r = dtw_->resolving()) {
        lookups_.add();
        const PositionValue v = r->value(position, side);
        if (v.wld == WldValue::Draw) return std::nullopt;
        return v.dtw;
    }
    // Kingsrow DTW (13.4): stored as floor(plies / 2) for positions without capture, so the
    // parity comes from the WLD and captures are searched through.
    const WldValue w = wld(position, side);
    if (w == WldValue::Draw) return std::nullopt;
    std::uint32_t nodes = 0;
    return searched_dtw(position, side, w == WldValue::Win, 0, nodes);
}

std::optional<int> Database::mtc(const Position& position, Color side) const {
    check_position(position);
    if (!mtc_) throw LookupNotPossible("the database in " + directory_.string() + " holds no MTC data");
    if (const ResolvingBackend* r = mtc_->resolving()) {
        lookups_.add();
        const PositionValue v = r->value(position, side);
        if (v.wld == WldValue::Draw) return std::nullopt;
        return v.mtc;
    }
    // Kingsrow MTC (7): even plies from the threshold on; below it nothing is known. A side to
    // move that must capture converts now (2 or 3 plies, below the threshold), and Kingsrow
    // stores no value there (7.1: the writer's "don't care" may hold anything).
    if (has_capture(position, side)) return std::nullopt;
    if (has_wld() && wld(position, side) == WldValue::Draw) return std::nullopt;
    lookups_.add();
    const int v = mtc_->lookup(StoredKind::Mtc, position, side, false);
    if (v < kingsrow::MtcValue::kThreshold) return std::nullopt;
    return v;
}

PositionValue Database::value(const Position& position, Color side) const {
    if (resolved_serves_all()) {
        check_position(position);
        lookups_.add();
        return resolved_wld_->value(position, side);
    }
    PositionValue v;
    v.wld = wld(position, side);
    if (v.wld == WldValue::Draw) return v;
    if (dtw_) v.dtw = static_cast<Plies>(*dtw(position, side));
    if (mtc_) v.mtc = static_cast<Plies>(mtc(position, side).value_or(0));
    return v;
}

std::vector<RankedMove> Database::best_moves(const Position& position, Color side) const {
    check_position(position);
    const DistanceKind kind = has_dtw() ? DistanceKind::Dtw : has_mtc() ? DistanceKind::Mtc : DistanceKind::None;
    return ranked_moves(position, side, *this, kind);
}

std::vector<MoveDistance> Database::lookup_distance(const Position& position, Color side, DistanceKind kind) const {
    check_position(position);
    if (kind == DistanceKind::Dtw && !has_dtw()) throw LookupNotPossible("no DTW data");
    if (kind == DistanceKind::Mtc && !has_mtc()) throw LookupNotPossible("no MTC data");
    const WldValue root = wld(position, side);
    if (root == WldValue::Draw) throw LookupNotPossible("the position is a draw: no distances");
    const bool winning = root == WldValue::Win;
    MoveList list;
    generate_moves(position, side, list);
    std::vector<MoveDistance> out;
    if (kind == DistanceKind::Dtw) {
        // 13.4: plies to the end of the game after the move, counting the move.
        for (const Move& m : list) {
            const Position q = apply_move(position, side, m);
            if (winning && wld(q, opposite(side)) != WldValue::Loss) continue;
            out.push_back({m, *dtw(q, opposite(side)) + 1});
        }
    } else {
        // 13.5: the successor's MTC; the loser lists only moves that are not conversions. Kingsrow
        // MTC is stored from the threshold on and rounded up to even; resolved (native) MTC is exact.
        const bool mtc_resolved = mtc_->resolving() != nullptr;
        const std::optional<int> root_mtc = mtc(position, side);
        if (!mtc_resolved && !root_mtc) throw LookupNotPossible("the position's MTC is below the stored threshold");
        for (const Move& m : list) {
            const Position q = apply_move(position, side, m);
            const bool conversion = m.is_capture() || (position.king & m.from) == 0;
            if (winning) {
                if (wld(q, opposite(side)) != WldValue::Loss) continue;
            } else if (conversion) {
                continue;
            }
            const std::optional<int> d = mtc(q, opposite(side));
            if (!d) {
                if (winning && !mtc_resolved) throw LookupNotPossible("a successor's MTC is below the stored threshold");
                continue;
            }
            out.push_back({m, *d});
        }
        if (!mtc_resolved && !out.empty()) {
            // Parity fix of 13.5: stored MTC is rounded up to even.
            auto first = std::min_element(out.begin(), out.end(), [&](const MoveDistance& a, const MoveDistance& b) {
                return winning ? a.distance < b.distance : a.distance > b.distance;
            });
            if (root_mtc && first->distance == *root_mtc) {
                for (MoveDistance& d : out) d.distance -= 1;
            }
        }
    }
    if (out.empty()) throw LookupNotPossible("no move with a known distance");
    std::stable_sort(out.begin(), out.end(), [&](const MoveDistance& a, const MoveDistance& b) {
        return winning ? a.distance < b.distance : a.distance > b.distance;
    });
    return out;
}

std::vector<Move> Database::principal_variation(const Position& position, Color side, DistanceKind kind) const {
    std::vector<Move> pv;
    Position p = position;
    Color c = side;
    for (int ply = 0; ply < 1000; ++ply) {
        if (wld(p, c) == WldValue::Draw) break;
        const std::vector<RankedMove> moves = ranked_moves(p, c, *this, kind);
        if (moves.empty()) break;
        const Move m = moves.front().move;
        pv.push_back(m);
        const bool conversion = m.is_capture() || (p.king & m.from) == 0;
        p = apply_move(p, c, m);
        c = opposite(c);
        if (kind == DistanceKind::Mtc && conversion) break;
    }
    return pv;
}

Database::Stats Database::stats() const {
    Stats s;
    s.lookups = lookups_.total();
    const PageCacheStats c = cache_->stats();
    s.cache_hits = c.hits;
    s.cache_misses = c.misses;
    s.cache_bytes = c.bytes;
    for (const std::unique_ptr<Backend>& b : backends_) s.files += b->file_count();
    return s;
}

}  // namespace egdb
