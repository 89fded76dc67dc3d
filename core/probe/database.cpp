#include "core/probe/database.hpp"

#include <algorithm>
#include <fstream>
#include <regex>

#include "core/formats/kingsrow/database.hpp"
#include "core/formats/kingsrow/dtw/dtw_database.hpp"
#include "core/formats/kingsrow/identify.hpp"
#include "core/formats/kingsrow/verify.hpp"
#include "core/formats/native/native_database.hpp"
#include "core/formats/native/verify_database.hpp"
#include "core/generate/one_ply_check.hpp"
#include "core/index/slice.hpp"
#include "core/probe/consistency_check.hpp"
#include "core/rules/movegen.hpp"

namespace egdb {
namespace {

// Kingsrow WLD codes and the value algebra of kingsrow-format.md 13.3. U stands for
// EGDB_UNKNOWN or EGDB_SUBDB_UNAVAILABLE.
constexpr int kWin = 1, kLoss = 2, kDraw = 3, kDrawOrLoss = 4, kWinOrDraw = 5, kUnknown = 0;

constexpr bool is_u(int v) noexcept { return v != kWin && v != kLoss && v != kDraw && v != kDrawOrLoss && v != kWinOrDraw; }

constexpr int negate(int v) noexcept {
    switch (v) {
        case kWin: return kLoss;
        case kLoss: return kWin;
        case kWinOrDraw: return kDrawOrLoss;
        case kDrawOrLoss: return kWinOrDraw;
        default: return v;
    }
}

constexpr bool greater_equal(int a, int b) noexcept {
    switch (b) {
        case kWin: return a == kWin;
        case kDraw: return a == kDraw || a == kWinOrDraw || a == kWin;
        case kLoss: return true;
        case kWinOrDraw: return a == kWinOrDraw || a == kWin;
        case kDrawOrLoss: return a == kWin || a == kWinOrDraw || a == kDraw || a == kDrawOrLoss;
        default: return a != kLoss;
    }
}

constexpr bool greater(int a, int b) noexcept {
    switch (b) {
        case kWin: return false;
        case kDraw: return a == kWinOrDraw || a == kWin;
        case kLoss: return a != kLoss;
        case kWinOrDraw: return a == kWin;
        case kDrawOrLoss: return a != kLoss;
        default: return a != kLoss && !is_u(a);
    }
}

constexpr int improve(int v, int best) noexcept {
    switch (best) {
        case kWin: return kWin;
        case kDraw: return (v == kWinOrDraw || v == kWin) ? v : is_u(v) ? kWinOrDraw : kDraw;
        case kLoss: return v;
        case kWinOrDraw: return v == kWin ? kWin : kWinOrDraw;
        case kDrawOrLoss: return v == kLoss ? kDrawOrLoss : v;
        default: return (v == kWinOrDraw || v == kWin) ? v : v == kDraw ? kWinOrDraw : kUnknown;
    }
}

constexpr int kMaxSearchDepth = Database::kMaxSearchDepth;
constexpr int kMaxDtwSearchDepth = 32;

Bitboard men_of(const Position& p) noexcept { return (p.black | p.white) & ~p.king; }

// Kingsrow file families present in a directory, with the largest piece count of each.
struct KingsrowFamilies {
    int v2 = 0, idx = 0, mtc = 0, dtw = 0;
};

KingsrowFamilies scan_kingsrow_files(const std::filesystem::path& dir) {
    KingsrowFamilies f;
    const std::regex name(R"(db(\d+)(-\d+)?\.(idx1|idx|idx_mtc|idx_dtw))");
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        std::smatch m;
        const std::string n = e.path().filename().string();
        if (!std::regex_match(n, m, name)) continue;
        const int pieces = std::stoi(m[1].str());
        int& slot = m[3] == "idx1" ? f.v2 : m[3] == "idx" ? f.idx : m[3] == "idx_mtc" ? f.mtc : f.dtw;
        slot = std::max(slot, pieces);
    }
    return f;
}

bool has_native_files(const std::filesystem::path& dir) {
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        const std::string n = e.path().filename().string();
        if (n.starts_with("slice-") && n.ends_with(".egdb")) return true;
    }
    return false;
}

}  // namespace

const char* to_string(DatabaseType type) noexcept {
    switch (type) {
        case DatabaseType::WldRunlen: return "EGDB_WLD_RUNLEN";
        case DatabaseType::MtcRunlen: return "EGDB_MTC_RUNLEN";
        case DatabaseType::WldTunV1: return "EGDB_WLD_TUN_V1";
        case DatabaseType::WldTunV2: return "EGDB_WLD_TUN_V2";
        case DatabaseType::Dtw: return "EGDB_DTW";
        case DatabaseType::Native: return "EGDB_NATIVE";
    }
    return "?";
}

Database::~Database() = default;

std::unique_ptr<Database> Database::open(const std::filesystem::path& directory, const DatabaseOptions& options) {
    std::error_code ec;
    if (!std::filesystem::is_directory(directory, ec)) {
        throw DatabaseError("cannot open database " + directory.string() + ": not a directory");
    }
    std::unique_ptr<Database> db(new Database());
    db->directory_ = directory;
    try {
        if (has_native_files(directory)) {
            db->native_ = std::make_unique<native::NativeDatabase>(directory, native::OpenOptions{options.cache_mb});
            db->type_ = DatabaseType::Native;
            db->max_pieces_ = db->native_->max_pieces();
            if (const auto limit = kingsrow::parse_maxpieces_option(options.kingsrow_options); limit && *limit > 0) {
                db->max_pieces_ = std::min(db->max_pieces_, *limit);
            }
            return db;
        }
        const KingsrowFamilies families = scan_kingsrow_files(directory);
        kingsrow::OpenOptions ko;
        ko.options = options.kingsrow_options;
        ko.cache_mb = static_cast<int>(options.cache_mb);
        if (options.messages) ko.messages = [&](std::string_view m) { options.messages(std::string(m)); };
        const std::optional<kingsrow::Identification> id = kingsrow::identify(directory);
        // The WLD family: V2 files, else .idx files (V1 or RUNLEN as identification decides).
        if (families.v2 > 0 || families.idx > 0) {
            kingsrow::DbType t = kingsrow::DbType::WldTunV2;
            int pieces = families.v2;
            if (families.v2 == 0) {
                t = (id && id->type == kingsrow::DbType::WldTunV1) ? kingsrow::DbType::WldTunV1 : kingsrow::DbType::WldRunlen;
                pieces = families.idx;
            }
            auto opened = kingsrow::open_database(directory, t, id && id->type == t ? id->max_pieces : pieces, ko);
            db->kingsrow_wld_.reset(dynamic_cast<kingsrow::WldDatabase*>(opened.release()));
            db->type_ = static_cast<DatabaseType>(kingsrow::to_code(t));
            db->max_pieces_ = db->kingsrow_wld_->max_pieces();
        }
        if (families.mtc > 0) {
            auto opened = kingsrow::open_database(directory, kingsrow::DbType::MtcRunlen, families.mtc, ko);
            db->kingsrow_mtc_.reset(dynamic_cast<kingsrow::MtcDatabase*>(opened.release()));
            if (!db->kingsrow_wld_) {
                db->type_ = DatabaseType::MtcRunlen;
                db->max_pieces_ = db->kingsrow_mtc_->max_pieces();
            }
        }
        if (families.dtw > 0) {
            kingsrow::DtwOpenOptions dopt;
            dopt.max_pieces = kingsrow::parse_maxpieces_option(options.kingsrow_options).value_or(0);
            dopt.cache_bytes = options.cache_mb * 1024 * 1024;
            db->kingsrow_dtw_ = std::make_unique<kingsrow::DtwDatabase>(directory, dopt);
            if (!db->kingsrow_wld_ && !db->kingsrow_mtc_) {
                db->type_ = DatabaseType::Dtw;
                db->max_pieces_ = db->kingsrow_dtw_->max_pieces();
            }
        }
    } catch (const DatabaseError&) {
        throw;
    } catch (const std::exception& e) {
        throw DatabaseError(e.what());
    }
    if (!db->native_ && !db->kingsrow_wld_ && !db->kingsrow_mtc_ && !db->kingsrow_dtw_) {
        throw DatabaseError("no endgame database in " + directory.string() +
                            ": expected egdb slice files (slice-*.egdb) or Kingsrow files (db*.idx1, .idx, "
                            ".idx_mtc, .idx_dtw)");
    }
    return db;
}

bool Database::has_wld() const noexcept { return native_ != nullptr || kingsrow_wld_ != nullptr; }
bool Database::has_dtw() const noexcept {
    return (native_ && native_->has_kind(native::ValueKind::Dtw)) || kingsrow_dtw_ != nullptr;
}
bool Database::has_mtc() const noexcept {
    return (native_ && native_->has_kind(native::ValueKind::Mtc)) || kingsrow_mtc_ != nullptr;
}

void Database::check_pieces(const Position& position) const {
    const Material m = material_of(position);
    if (m.total() > max_pieces_ || m.black() > kMaxPiecesPerSide || m.white() > kMaxPiecesPerSide) {
        throw LookupNotPossible("position has " + std::to_string(m.total()) + " pieces (" + std::to_string(m.black()) +
                                " black, " + std::to_string(m.white()) + " white); the database in " +
                                directory_.string() + " holds up to " + std::to_string(max_pieces_));
    }
}

int Database::lookup(const Position& position, Color side, bool conditional) const {
    lookups_.add();
    const auto cl = conditional ? kingsrow::Conditional::Yes : kingsrow::Conditional::No;
    if (native_) {
        if (has_capture(position, side)) return kUnknown;
        const auto v = native_->stored(native::ValueKind::Wld, position, side);
        if (!v) return -2;
        return *v == native::kStoredWin ? kWin : *v == native::kStoredLoss ? kLoss : kDraw;
    }
    if (kingsrow_wld_) return kingsrow_wld_->lookup_code(position, side, cl);
    if (kingsrow_mtc_) return kingsrow_mtc_->lookup_code(position, side, cl);
    return kingsrow_dtw_->lookup_code(position, side, cl);
}

int Database::kingsrow_search(const Position& p, Color c, int depth, int alpha, int beta, SearchPath& path,
                              bool force_search, std::optional<int> root_lookup) const {
    path[static_cast<std::size_t>(depth)] = p;  // depth <= kMaxSearchDepth: deeper calls are not made
    if (p.black == 0) return c == Color::Black ? kLoss : kWin;
    if (p.white == 0) return c == Color::White ? kLoss : kWin;
    // A repeated position (same side to move) is a draw; men moves are irreversible, so stop
    // looking back at the first different set of men.
    for (int i = depth - 4; i >= 0; i -= 2) {
        const Position& q = path[static_cast<std::size_t>(i)];
        if (men_of(q) != men_of(p)) break;
        if (q == p) return kDraw;
    }
    const bool must_capture = has_capture(p, c);
    if (!must_capture && !force_search) {
        const Material m = material_of(p);
        const bool non_side_test = type_ == DatabaseType::WldTunV2 && m.total() >= 7 &&
                                   (m.total() >= 9 || m.nbk + m.nwk >= 2);
        if (!non_side_test || !has_capture(p, opposite(c))) {
            if (!root_lookup) lookups_.add();
            const int v = root_lookup ? *root_lookup : kingsrow_wld_->lookup_code(p, c, kingsrow::Conditional::No);
            if (!is_u(v)) return v;  // unknown: an unstored side or position, resolved by search
        }
    }
    if (depth >= kMaxSearchDepth) return kUnknown;
    MoveList list;
    generate_moves(p, c, list);
    if (list.empty()) return kLoss;
    int best = kLoss;
    for (const Move& m : list) {
        const int v = negate(kingsrow_search(apply_move(p, c, m), opposite(c), depth + 1, negate(beta), negate(alpha),
                                             path, false));
        if (greater_equal(v, beta)) return improve(v, beta);
        best = improve(v, best);
        if (greater(best, alpha)) alpha = best;
    }
    return best;
}

void Database::lookup_batch(std::span<const Position> positions, std::span<const Color> sides, std::span<int> out) const {
    if (native_) {
        lookups_.add(positions.size());
        std::vector<std::optional<std::uint32_t>> stored(positions.size());
        native_->stored_wld_many(positions, sides, stored);
        for (std::size_t i = 0; i < positions.size(); ++i) {
            // As lookup(): a capture position is unknown, a slice not held -2.
            out[i] = !stored[i] ? (has_capture(positions[i], sides[i]) ? kUnknown : -2)
                                : *stored[i] == native::kStoredWin ? kWin
                                : *stored[i] == native::kStoredLoss ? kLoss : kDraw;
        }
        return;
    }
    if (!kingsrow_wld_ && !kingsrow_mtc_) {
        for (std::size_t i = 0; i < positions.size(); ++i) out[i] = lookup(positions[i], sides[i]);
        return;
    }
    lookups_.add(positions.size());
    if (kingsrow_wld_) kingsrow_wld_->lookup_codes(positions, sides, out);
    else kingsrow_mtc_->lookup_codes(positions, sides, out);
}

void Database::wld_batch(std::span<const Position> positions, std::span<const Color> sides,
                         std::span<std::optional<WldValue>> out) const {
    const auto checked_wld = [&](std::size_t i, std::optional<int> root_lookup) -> std::optional<WldValue> {
        try {
            if (!root_lookup) return wld(positions[i], sides[i]);
            check_pieces(positions[i]);
            SearchPath path;
            return wld_of_search(kingsrow_search(positions[i], sides[i], 0, kLoss, kWin, path, false, root_lookup));
        } catch (const LookupNotPossible&) {
            return std::nullopt;
        }
    };
    if (native_) {
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
        std::vector<std::optional<WldValue>> values(batch.size());
        native_->wld_many(batch, batch_sides, values);
        for (std::size_t k = 0; k < batch.size(); ++k) out[where[k]] = values[k];
        return;
    }
    if (!kingsrow_wld_) {
        for (std::size_t i = 0; i < positions.size(); ++i) out[i] = checked_wld(i, std::nullopt);
        return;
    }
    // The raw values of all roots in one pipeline; the search uses them where it would have
    // looked the root up (roots that must capture, or with too many pieces, ignore theirs).
    std::vector<int> raw(positions.size());
    kingsrow_wld_->lookup_codes(positions, sides, raw);
    lookups_.add(positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i) out[i] = checked_wld(i, raw[i]);
}

WldValue Database::wld_of_search(int v) const {
    if (v == kWin) return WldValue::Win;
    if (v == kLoss) return WldValue::Loss;
    if (v == kDraw) return WldValue::Draw;
    throw LookupNotPossible("the search could not resolve " + std::string(v == kDrawOrLoss ? "draw-or-loss" : v == kWinOrDraw ? "win-or-draw" : "an unknown value") +
                            " (a slice is missing from " + directory_.string() + ")");
}

WldValue Database::wld(const Position& position, Color side) const {
    check_pieces(position);
    if (native_) {
        try {
            return native_->wld(position, side);
        } catch (const native::MissingSliceError& e) {
            throw LookupNotPossible(e.what());
        }
    }
    if (!kingsrow_wld_) throw LookupNotPossible("the database in " + directory_.string() + " holds no WLD data");
    SearchPath path;
    return wld_of_search(kingsrow_search(position, side, 0, kLoss, kWin, path, false));
}

int Database::kingsrow_dtw(const Position& p, Color c, bool winning, int depth) const {
    if (!has_capture(p, c)) {
        lookups_.add();
        const int v = kingsrow_dtw_->lookup(p, c);
        if (v >= 0) return winning ? 2 * v + 1 : 2 * v;
    }
    if (depth >= kMaxDtwSearchDepth) throw LookupNotPossible("DTW search too deep (a side is not stored)");
    MoveList list;
    generate_moves(p, c, list);
    if (list.empty()) return 0;
    int best = winning ? 1 << 20 : -1;
    for (const Move& m : list) {
        const Position q = apply_move(p, c, m);
        if (winning) {
            if (wld(q, opposite(c)) != WldValue::Loss) continue;
            best = std::min(best, kingsrow_dtw(q, opposite(c), false, depth + 1) + 1);
        } else {
            best = std::max(best, kingsrow_dtw(q, opposite(c), true, depth + 1) + 1);
        }
    }
    return best;
}

std::optional<int> Database::dtw(const Position& position, Color side) const {
    check_pieces(position);
    if (native_ && native_->has_kind(native::ValueKind::Dtw)) {
        const PositionValue v = native_->value(position, side);
        if (v.wld == WldValue::Draw) return std::nullopt;
        return v.dtw;
    }
    if (!kingsrow_dtw_) throw LookupNotPossible("the database in " + directory_.string() + " holds no DTW data");
    const WldValue w = wld(position, side);
    if (w == WldValue::Draw) return std::nullopt;
    return kingsrow_dtw(position, side, w == WldValue::Win, 0);
}

std::optional<int> Database::mtc(const Position& position, Color side) const {
    check_pieces(position);
    if (native_ && native_->has_kind(native::ValueKind::Mtc)) {
        const PositionValue v = native_->value(position, side);
        if (v.wld == WldValue::Draw) return std::nullopt;
        return v.mtc;
    }
    if (!kingsrow_mtc_) throw LookupNotPossible("the database in " + directory_.string() + " holds no MTC data");
    if (has_wld() && wld(position, side) == WldValue::Draw) return std::nullopt;
    lookups_.add();
    const int v = kingsrow_mtc_->lookup_code(position, side, kingsrow::Conditional::No);
    if (v < kingsrow::MtcValue::kThreshold) return std::nullopt;
    return v;
}

PositionValue Database::value(const Position& position, Color side) const {
    if (native_) {
        check_pieces(position);
        try {
            return native_->value(position, side);
        } catch (const native::MissingSliceError& e) {
            throw LookupNotPossible(e.what());
        }
    }
    PositionValue v;
    v.wld = wld(position, side);
    if (v.wld == WldValue::Draw) return v;
    if (kingsrow_dtw_) v.dtw = static_cast<Plies>(*dtw(position, side));
    if (kingsrow_mtc_) v.mtc = static_cast<Plies>(mtc(position, side).value_or(0));
    return v;
}

std::vector<RankedMove> Database::best_moves(const Position& position, Color side) const {
    check_pieces(position);
    const DistanceKind kind = has_dtw() ? DistanceKind::Dtw : has_mtc() ? DistanceKind::Mtc : DistanceKind::None;
    return ranked_moves(position, side, *this, kind);
}

std::vector<MoveDistance> Database::lookup_distance(const Position& position, Color side, DistanceKind kind) const {
    check_pieces(position);
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
        // 13.5: the successor's MTC; the loser lists only moves that are not conversions.
        const std::optional<int> root_mtc = mtc(position, side);
        if (!native_ && !root_mtc) throw LookupNotPossible("the position's MTC is below the stored threshold");
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
                if (winning && !native_) throw LookupNotPossible("a successor's MTC is below the stored threshold");
                continue;
            }
            out.push_back({m, *d});
        }
        if (!native_ && !out.empty()) {
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
    if (native_) {
        const PageCacheStats c = native_->cache_stats();
        s.cache_hits = c.hits;
        s.cache_misses = c.misses;
        s.cache_bytes = c.bytes;
        s.files = native_->files().size();
    }
    return s;
}

std::vector<std::string> Database::verify(
    const std::function<bool(const std::string&, std::int64_t, std::int64_t)>& progress, int threads) const {
    std::vector<std::string> problems;
    if (native_) {
        native::VerifyOptions options;
        options.threads = threads;
        std::int64_t done = 0;
        options.on_slice_done = [&](const native::VerifyProgress& p) {
            done = static_cast<std::int64_t>(p.slices_done);
            if (progress) progress(p.slice.to_string(), done, static_cast<std::int64_t>(p.slices_total));
        };
        const native::VerifyReport r = native::verify_native_database(directory_, options);
        problems = r.messages;
        if (!r.ok() && problems.empty()) problems.push_back("verification failed");
        return problems;
    }
    // Kingsrow: the published CRC-32 of every file (files egdb wrote differ by construction and
    // need only be present), then random positions of every table against their successors.
    for (const auto* db : {static_cast<const kingsrow::Database*>(kingsrow_wld_.get()),
                           static_cast<const kingsrow::Database*>(kingsrow_mtc_.get())}) {
        if (db == nullptr) continue;
        const bool by_egdb = kingsrow::written_by_egdb(directory_, db->type(), db->max_pieces());
        for (const auto& f : kingsrow::verify_files(directory_, db->type(), db->max_pieces())) {
            if (progress) progress(f.file, 0, 0);
            if (!kingsrow::files_pass(std::span(&f, 1), by_egdb)) {
                problems.push_back(f.file + ": " + std::string(kingsrow::name_of(f.status)) +
                                   " (CRC-32 of the published Kingsrow file expected)");
            }
        }
    }
    if (!has_wld()) return problems;
    ConsistencyOptions options;
    options.threads = threads;
    std::int64_t tables = 0;
    options.on_table = [&](SliceId slice, Color side, std::uint64_t, std::uint64_t) {
        if (progress) progress(slice.to_string() + (side == Color::Black ? " b" : " w"), ++tables, 0);
    };
    const ConsistencyReport report = check_consistency(*this, options);
    problems.insert(problems.end(), report.messages.begin(), report.messages.end());
    if (!report.ok() && report.messages.empty()) problems.push_back("one-ply consistency check failed");
    return problems;
}

}  // namespace egdb
