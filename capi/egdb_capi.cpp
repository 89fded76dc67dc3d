// The flat C ABI (capi/egdb.h) over the C++ core. Every entry point catches everything: no C++
// exception crosses this interface; failures become the negative codes of egdb.h with a message
// kept for egdb_last_error().
#define EGDB_BUILDING_LIBRARY
#include "capi/egdb.h"
#include "capi/handle_table.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/formats/kingsrow/result.hpp"
#include "core/formats/native/solved_slice_io.hpp"
#include "core/formats/native/verify_database.hpp"
#include "core/generate/build_driver.hpp"
#include "core/generate/solution_store.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/notation/fen.hpp"
#include "core/notation/pdn_move.hpp"
#include "core/probe/database.hpp"
#include "core/rules/movegen.hpp"

namespace {

using egdb::Color;
using egdb::Database;
using egdb::Position;

static_assert(sizeof(EgdbPosition) == sizeof(Position), "C and C++ positions must have the same layout");
// The C constants repeat the C++ ones (the header cannot include C++); they must agree.
static_assert(EGDB_WIN == egdb::kingsrow::to_code(egdb::kingsrow::WldResult::Win) &&
              EGDB_LOSS == egdb::kingsrow::to_code(egdb::kingsrow::WldResult::Loss) &&
              EGDB_DRAW == egdb::kingsrow::to_code(egdb::kingsrow::WldResult::Draw) &&
              EGDB_UNKNOWN == egdb::kingsrow::to_code(egdb::kingsrow::WldResult::Unknown) &&
              EGDB_NOT_IN_CACHE == egdb::kingsrow::to_code(egdb::kingsrow::WldResult::NotInCache) &&
              EGDB_SUBDB_UNAVAILABLE == egdb::kingsrow::to_code(egdb::kingsrow::WldResult::SubdbUnavailable));
static_assert(EGDB_WLD_TUN_V2 == static_cast<int>(egdb::DatabaseType::WldTunV2) &&
              EGDB_DTW == static_cast<int>(egdb::DatabaseType::Dtw) &&
              EGDB_NATIVE == static_cast<int>(egdb::DatabaseType::Native) &&
              EGDB_MTC_RUNLEN == egdb::kingsrow::to_code(egdb::kingsrow::DbType::MtcRunlen));

constexpr const char* kVersion = "0.1.0";

// Paths cross the C interface as UTF-8 (egdb.h). On Windows the path becomes UTF-16 for the
// system's wide functions, whatever the ANSI code page; elsewhere its bytes are kept as they are.
std::filesystem::path utf8_path(const char* text) {
    return std::filesystem::path(std::u8string_view(reinterpret_cast<const char8_t*>(text)));
}

Position to_cpp(const EgdbPosition& p) noexcept { return {p.black, p.white, p.king}; }
EgdbPosition to_c(const Position& p) noexcept { return {p.black, p.white, p.king}; }

// Message of the last failed call on this thread that had no valid handle.
thread_local std::string t_last_error;
// What egdb_last_error returned last on this thread (the pointer stays valid until the next call).
thread_local std::string t_returned_error;

// One open database and what belongs to it.
struct HandleEntry {
    std::unique_ptr<Database> db;
    std::filesystem::path logfile;
    std::mutex error_mutex;
    std::string last_error;

    void set_error(std::string message) {
        std::lock_guard lock(error_mutex);
        last_error = std::move(message);
    }
    void log(const std::string& message) const {
        if (logfile.empty()) return;
        std::ofstream(logfile, std::ios::app) << message;
    }
};

// The process-wide table behind the integer handles of the Kingsrow DLL interface. It is the
// only shared state of the library and exists because the C interface names databases by small
// integers; each entry owns its database (handle_table.hpp).
using HandleTable = egdb::capi::HandleTable<HandleEntry, EGDB_MAX_HANDLES>;

HandleTable& handles() {
    static HandleTable table;
    return table;
}

int fail(int code, std::string message) {
    t_last_error = std::move(message);
    return code;
}

int fail(HandleEntry& entry, int code, std::string message) {
    entry.set_error(std::move(message));
    return code;
}

bool valid_color(int color) noexcept { return color == EGDB_BLACK || color == EGDB_WHITE; }

// Runs `body(entry)` for a valid handle, converting exceptions into codes.
template <class Body>
int with_handle(int handle, Body&& body) {
    const HandleTable::Ref entry = handles().find(handle);
    if (!entry) return fail(EGDB_BAD_HANDLE, "handle " + std::to_string(handle) + " is not open");
    try {
        return body(*entry);
    } catch (const egdb::LookupNotPossible& e) {
        return fail(*entry, EGDB_LOOKUP_NOT_POSSIBLE, e.what());
    } catch (const egdb::FenError& e) {
        t_last_error = e.what();
        return fail(*entry, EGDB_FEN_ERROR, e.what());
    } catch (const std::bad_alloc&) {
        return fail(*entry, EGDB_INTERNAL_ERROR, "out of memory");
    } catch (const std::exception& e) {
        return fail(*entry, EGDB_INTERNAL_ERROR, e.what());
    }
}

int wld_code(egdb::WldValue v) noexcept {
    return v == egdb::WldValue::Win ? EGDB_WIN : v == egdb::WldValue::Loss ? EGDB_LOSS : EGDB_DRAW;
}

egdb::FenPosition parse_fen_or_throw(const char* fen) {
    if (fen == nullptr) throw egdb::FenError("FEN is NULL", "", 0);
    return egdb::parse_fen(fen);
}

// PDN of move `m` in (pos, side), with the full path where two moves share from and to.
std::string pdn_of(const Position& pos, Color side, const egdb::Move& m) {
    egdb::MoveListWithPaths list;
    egdb::generate_moves(pos, side, list);
    for (int i = 0; i < list.size(); ++i) {
        if (list[i] == m) return egdb::move_to_pdn(pos, side, list, i);
    }
    return {};
}

void copy_string(const std::string& s, char* out, std::size_t capacity) {
    const std::size_t n = std::min(s.size(), capacity - 1);
    std::memcpy(out, s.data(), n);
    out[n] = '\0';
}

bool valid_slice(int nbm, int nbk, int nwm, int nwk) {
    return egdb::is_indexable(egdb::SliceId{nbm, nbk, nwm, nwk});
}

}  // namespace

extern "C" {

EGDB_API const char* EGDB_CALL egdb_version(void) { return kVersion; }

EGDB_API const char* EGDB_CALL egdb_last_error(int handle) {
    if (handle == -1) {
        t_returned_error = t_last_error;
    } else if (const auto entry = handles().find(handle)) {
        std::lock_guard lock(entry->error_mutex);
        t_returned_error = entry->last_error;
    } else {
        t_returned_error = "handle " + std::to_string(handle) + " is not open";
    }
    return t_returned_error.c_str();
}

EGDB_API int EGDB_CALL egdb_open(const char* options, int cache_mb, const char* directory, const char* logfile) {
    try {
        if (directory == nullptr) return fail(EGDB_OPEN_FAIL, "directory is NULL");
        auto entry = std::make_unique<HandleEntry>();
        if (logfile != nullptr && *logfile != '\0') {
            entry->logfile = utf8_path(logfile);
            std::ofstream f(entry->logfile, std::ios::trunc);
            if (!f) return fail(EGDB_FOPEN_FAIL, std::string("cannot create log file ") + logfile);
        }
        egdb::DatabaseOptions o;
        o.kingsrow_options = options != nullptr ? options : "";
        o.cache_mb = static_cast<std::size_t>(std::max(cache_mb, 1));
        o.messages = [raw = entry.get()](const std::string& m) { raw->log(m); };
        entry->db = Database::open(utf8_path(directory), o);
        entry->log(std::string("opened ") + to_string(entry->db->type()) + ", " +
                   std::to_string(entry->db->max_pieces()) + " pieces, in " + directory + "\n");
        const int handle = handles().insert(std::move(entry));
        if (handle < 0) return fail(EGDB_DRIVER_TABLE_FULL, "too many databases open (at most " + std::to_string(EGDB_MAX_HANDLES) + ")");
        return handle;
    } catch (const std::exception& e) {
        return fail(EGDB_OPEN_FAIL, e.what());
    }
}

EGDB_API int EGDB_CALL egdb_close(int handle) {
    switch (handles().erase(handle)) {
        case egdb::capi::CloseResult::Closed: return 0;
        case egdb::capi::CloseResult::InUseByThisThread:
            return fail(EGDB_BAD_ARGUMENT, "handle " + std::to_string(handle) +
                                               " cannot be closed from inside one of its own calls (a callback)");
        case egdb::capi::CloseResult::NotOpen: break;
    }
    return fail(EGDB_BAD_HANDLE, "handle " + std::to_string(handle) + " is not open");
}

EGDB_API int EGDB_CALL egdb_identify(const char* directory, int* egdb_type, int* max_pieces) {
    if (directory == nullptr || egdb_type == nullptr || max_pieces == nullptr) {
        return fail(EGDB_NULL_ARGUMENT, "NULL argument to egdb_identify");
    }
    try {
        const auto db = Database::open(utf8_path(directory));
        *egdb_type = static_cast<int>(db->type());
        *max_pieces = db->max_pieces();
        return 0;
    } catch (const std::exception& e) {
        return fail(EGDB_IDENTIFY_FAIL, e.what());
    }
}

EGDB_API int EGDB_CALL egdb_type(int handle) {
    return with_handle(handle, [](HandleEntry& e) -> int { return static_cast<int>(e.db->type()); });
}

EGDB_API int EGDB_CALL egdb_max_pieces(int handle) {
    return with_handle(handle, [](HandleEntry& e) -> int { return e.db->max_pieces(); });
}

EGDB_API int EGDB_CALL egdb_lookup(int handle, const EgdbPosition* pos, int color, int cl) {
    return with_handle(handle, [&](HandleEntry& e) -> int {
        if (pos == nullptr) return fail(e, EGDB_NULL_ARGUMENT, "position is NULL");
        if (!valid_color(color)) return fail(e, EGDB_BAD_ARGUMENT, "color must be 0 (black) or 1 (white)");
        const Position p = to_cpp(*pos);
        if (!egdb::is_well_formed(p)) return fail(e, EGDB_BAD_ARGUMENT, "the position is not well formed");
        const egdb::Material m = egdb::material_of(p);
        if (m.total() > e.db->max_pieces() || m.black() > egdb::kMaxPiecesPerSide || m.white() > egdb::kMaxPiecesPerSide) {
            return EGDB_SUBDB_UNAVAILABLE;
        }
        return e.db->lookup(p, static_cast<Color>(color), cl != 0);
    });
}

EGDB_API int EGDB_CALL egdb_lookup_fen(int handle, const char* fen, int cl) {
    return with_handle(handle, [&](HandleEntry&) -> int {
        const egdb::FenPosition fp = parse_fen_or_throw(fen);
        const EgdbPosition p = to_c(fp.position);
        return egdb_lookup(handle, &p, static_cast<int>(fp.side_to_move), cl);
    });
}

EGDB_API int EGDB_CALL egdb_lookup_with_search(int handle, const EgdbPosition* pos, int color) {
    return with_handle(handle, [&](HandleEntry& e) -> int {
        if (pos == nullptr) return fail(e, EGDB_NULL_ARGUMENT, "position is NULL");
        if (!valid_color(color)) return fail(e, EGDB_BAD_ARGUMENT, "color must be 0 (black) or 1 (white)");
        if (!e.db->has_wld()) return fail(e, EGDB_NOT_WLD_TYPE, "the database holds no WLD data");
        const Position p = to_cpp(*pos);
        if (!egdb::is_well_formed(p)) return fail(e, EGDB_BAD_ARGUMENT, "the position is not well formed");
        return wld_code(e.db->wld(p, static_cast<Color>(color)));
    });
}

EGDB_API int EGDB_CALL egdb_lookup_fen_with_search(int handle, const char* fen) {
    return with_handle(handle, [&](HandleEntry&) -> int {
        const egdb::FenPosition fp = parse_fen_or_throw(fen);
        const EgdbPosition p = to_c(fp.position);
        return egdb_lookup_with_search(handle, &p, static_cast<int>(fp.side_to_move));
    });
}

EGDB_API int EGDB_CALL egdb_lookup_batch(int handle, const EgdbPosition* positions, const int* colors, int count,
                                         int* results) {
    return with_handle(handle, [&](HandleEntry& e) -> int {
        if (count < 0) return fail(e, EGDB_BAD_ARGUMENT, "count is negative");
        if (count > 0 && (positions == nullptr || colors == nullptr || results == nullptr)) {
            return fail(e, EGDB_NULL_ARGUMENT, "NULL array");
        }
        if (!e.db->has_wld()) return fail(e, EGDB_NOT_WLD_TYPE, "the database holds no WLD data");
        // The valid entries go to the library as one batch (its lookups overlap in a pipeline).
        std::vector<Position> batch;
        std::vector<Color> sides;
        std::vector<int> where;
        batch.reserve(static_cast<std::size_t>(count));
        sides.reserve(static_cast<std::size_t>(count));
        where.reserve(static_cast<std::size_t>(count));
        for (int i = 0; i < count; ++i) {
            const Position p = to_cpp(positions[i]);
            if (!valid_color(colors[i]) || !egdb::is_well_formed(p)) {
                results[i] = EGDB_BAD_ARGUMENT;
                continue;
            }
            batch.push_back(p);
            sides.push_back(static_cast<Color>(colors[i]));
            where.push_back(i);
        }
        std::vector<std::optional<egdb::WldValue>> values(batch.size());
        e.db->wld_batch(batch, sides, values);
        for (std::size_t k = 0; k < batch.size(); ++k) {
            results[where[k]] = values[k] ? wld_code(*values[k]) : EGDB_LOOKUP_NOT_POSSIBLE;
        }
        return count;
    });
}

EGDB_API int EGDB_CALL egdb_lookup_distance(int handle_wld, int handle_dist, const char* fen,
                                            int distances[EGDB_MAXMOVES], char moves[EGDB_MAXMOVES][EGDB_MAXMOVELEN]) {
    const auto wld_entry = handles().find(handle_wld);
    if (!wld_entry) return fail(EGDB_BAD_HANDLE, "handle " + std::to_string(handle_wld) + " is not open");
    return with_handle(handle_dist, [&](HandleEntry& e) -> int {
        if (distances == nullptr || moves == nullptr) return fail(e, EGDB_NULL_ARGUMENT, "NULL output array");
        if (!wld_entry->db->has_wld()) return fail(e, EGDB_NOT_WLD_TYPE, "the WLD handle holds no WLD data");
        if (!e.db->has_dtw() && !e.db->has_mtc()) return fail(e, EGDB_NOT_DISTANCE_TYPE, "no DTW or MTC data");
        const egdb::FenPosition fp = parse_fen_or_throw(fen);
        const egdb::Material m = egdb::material_of(fp.position);
        if (m.total() > wld_entry->db->max_pieces() || m.total() > e.db->max_pieces()) {
            return fail(e, EGDB_LOOKUP_NOT_POSSIBLE, "too many pieces for these databases");
        }
        const egdb::DistanceKind kind = e.db->has_dtw() ? egdb::DistanceKind::Dtw : egdb::DistanceKind::Mtc;
        const auto list = e.db->lookup_distance(fp.position, fp.side_to_move, kind);
        const int n = std::min<int>(static_cast<int>(list.size()), EGDB_MAXMOVES);
        for (int i = 0; i < n; ++i) {
            const auto& md = list[static_cast<std::size_t>(i)];
            std::string s = pdn_of(fp.position, fp.side_to_move, md.move);
            if (s.size() >= EGDB_MAXMOVELEN) {
                s = std::to_string(egdb::bb_to_square(md.move.from)) + "x" + std::to_string(egdb::bb_to_square(md.move.to));
            }
            copy_string(s, moves[i], EGDB_MAXMOVELEN);
            distances[i] = md.distance;
        }
        return n;
    });
}

EGDB_API int EGDB_CALL get_movelist(const EgdbPosition* pos, int color, EgdbPosition movelist[EGDB_MAXMOVES]) {
    if (pos == nullptr || movelist == nullptr) return fail(EGDB_NULL_ARGUMENT, "NULL argument to get_movelist");
    if (!valid_color(color)) return fail(EGDB_BAD_ARGUMENT, "color must be 0 (black) or 1 (white)");
    std::array<Position, egdb::kMaxMoves> out{};
    const int n = egdb::successor_positions(to_cpp(*pos), static_cast<Color>(color), out.data(), EGDB_MAXMOVES);
    for (int i = 0; i < n; ++i) movelist[i] = to_c(out[static_cast<std::size_t>(i)]);
    return n;
}

EGDB_API int16_t EGDB_CALL is_capture(const EgdbPosition* pos, int color) {
    if (pos == nullptr || !valid_color(color)) return 0;
    return egdb::has_capture(to_cpp(*pos), static_cast<Color>(color)) ? -1 : 0;
}

EGDB_API int64_t EGDB_CALL getdatabasesize_slice(int nbm, int nbk, int nwm, int nwk) {
    if (!valid_slice(nbm, nbk, nwm, nwk)) return fail(EGDB_BAD_ARGUMENT, "piece counts out of range");
    return static_cast<int64_t>(egdb::slice_size(egdb::SliceId{nbm, nbk, nwm, nwk}));
}

EGDB_API void EGDB_CALL indextoposition(int64_t index, EgdbPosition* pos, int nbm, int nbk, int nwm, int nwk) {
    if (pos == nullptr) {
        fail(EGDB_NULL_ARGUMENT, "position is NULL");
        return;
    }
    *pos = EgdbPosition{0, 0, 0};
    if (!valid_slice(nbm, nbk, nwm, nwk)) {
        fail(EGDB_BAD_ARGUMENT, "piece counts out of range");
        return;
    }
    const egdb::SliceId slice{nbm, nbk, nwm, nwk};
    if (index < 0 || static_cast<std::uint64_t>(index) >= egdb::slice_size(slice)) {
        fail(EGDB_BAD_ARGUMENT, "index " + std::to_string(index) + " out of range for slice " + slice.to_string());
        return;
    }
    *pos = to_c(egdb::SliceIndexer(slice).position_at(static_cast<std::uint64_t>(index)));
}

EGDB_API int64_t EGDB_CALL positiontoindex(const EgdbPosition* pos, int nbm, int nbk, int nwm, int nwk) {
    if (pos == nullptr) return fail(EGDB_NULL_ARGUMENT, "position is NULL");
    const Position p = to_cpp(*pos);
    const egdb::SliceId slice{nbm, nbk, nwm, nwk};
    if (!valid_slice(nbm, nbk, nwm, nwk) || !(egdb::slice_of(p) == slice) || !egdb::is_well_formed(p)) {
        return fail(EGDB_BAD_ARGUMENT, "the position does not belong to slice " + slice.to_string());
    }
    return static_cast<int64_t>(egdb::SliceIndexer(slice).index_of(p));
}

EGDB_API int16_t EGDB_CALL is_sharp_win(int handle, const EgdbPosition* pos, int color, EgdbPosition* sharp) {
    return static_cast<int16_t>(with_handle(handle, [&](HandleEntry& e) -> int {
        if (pos == nullptr || sharp == nullptr) return fail(e, EGDB_NULL_ARGUMENT, "NULL argument");
        if (!valid_color(color)) return fail(e, EGDB_BAD_ARGUMENT, "color must be 0 (black) or 1 (white)");
        if (!e.db->has_wld()) return fail(e, EGDB_NOT_WLD_TYPE, "the database holds no WLD data");
        const Position p = to_cpp(*pos);
        const Color side = static_cast<Color>(color);
        if (e.db->wld(p, side) != egdb::WldValue::Win) return 0;
        egdb::MoveList list;
        egdb::generate_moves(p, side, list);
        int winning = 0;
        Position only{};
        for (const egdb::Move& m : list) {
            const Position q = egdb::apply_move(p, side, m);
            if (e.db->wld(q, egdb::opposite(side)) == egdb::WldValue::Loss) {
                ++winning;
                only = q;
            }
        }
        if (winning != 1) return 0;
        *sharp = to_c(only);
        return -1;
    }));
}

EGDB_API int EGDB_CALL move_string(const EgdbPosition* from, const EgdbPosition* to, int color, char* out) {
    if (from == nullptr || to == nullptr || out == nullptr) return fail(EGDB_NULL_ARGUMENT, "NULL argument to move_string");
    if (!valid_color(color)) return fail(EGDB_BAD_ARGUMENT, "color must be 0 (black) or 1 (white)");
    const std::string s = egdb::move_string(to_cpp(*from), to_cpp(*to), static_cast<Color>(color));
    copy_string(s, out, 128);
    return static_cast<int>(std::min<std::size_t>(s.size(), 127));
}

EGDB_API int EGDB_CALL positiontofen(const EgdbPosition* pos, int color, char fen[EGDB_MAXFENLEN]) {
    if (pos == nullptr || fen == nullptr) return fail(EGDB_NULL_ARGUMENT, "NULL argument to positiontofen");
    if (!valid_color(color)) return fail(EGDB_BAD_ARGUMENT, "color must be 0 (black) or 1 (white)");
    const std::string s = egdb::to_fen(to_cpp(*pos), static_cast<Color>(color));
    if (s.size() >= EGDB_MAXFENLEN) return fail(EGDB_BUFFER_TOO_SMALL, "FEN longer than the buffer");
    copy_string(s, fen, EGDB_MAXFENLEN);
    return static_cast<int>(s.size());
}

EGDB_API int EGDB_CALL fentoposition(const char* fen, EgdbPosition* pos, int* color) {
    if (fen == nullptr || pos == nullptr || color == nullptr) return fail(EGDB_NULL_ARGUMENT, "NULL argument to fentoposition");
    std::string error;
    const auto fp = egdb::try_parse_fen(fen, &error);
    if (!fp) return fail(EGDB_FEN_ERROR, error);
    *pos = to_c(fp->position);
    *color = static_cast<int>(fp->side_to_move);
    return 0;
}

EGDB_API int EGDB_CALL egdb_probe(int handle, const EgdbPosition* pos, int color, EgdbProbe* out) {
    return with_handle(handle, [&](HandleEntry& e) -> int {
        if (pos == nullptr || out == nullptr) return fail(e, EGDB_NULL_ARGUMENT, "NULL argument");
        if (!valid_color(color)) return fail(e, EGDB_BAD_ARGUMENT, "color must be 0 (black) or 1 (white)");
        const Position p = to_cpp(*pos);
        if (!egdb::is_well_formed(p)) return fail(e, EGDB_BAD_ARGUMENT, "the position is not well formed");
        const Color side = static_cast<Color>(color);
        EgdbProbe r{};
        r.wld = wld_code(e.db->wld(p, side));
        r.dtw = r.mtc = -1;
        if (r.wld != EGDB_DRAW) {
            if (e.db->has_dtw()) r.dtw = e.db->dtw(p, side).value_or(-1);
            if (e.db->has_mtc()) r.mtc = e.db->mtc(p, side).value_or(-1);
        }
        const auto ranked = e.db->best_moves(p, side);
        if (!ranked.empty()) copy_string(pdn_of(p, side, ranked.front().move), r.best, sizeof r.best);
        *out = r;
        return 0;
    });
}

EGDB_API int EGDB_CALL egdb_probe_fen(int handle, const char* fen, EgdbProbe* out) {
    return with_handle(handle, [&](HandleEntry&) -> int {
        const egdb::FenPosition fp = parse_fen_or_throw(fen);
        const EgdbPosition p = to_c(fp.position);
        return egdb_probe(handle, &p, static_cast<int>(fp.side_to_move), out);
    });
}

EGDB_API int EGDB_CALL egdb_best_moves(int handle, const char* fen, int kind, EgdbMoveDistance* out, int capacity) {
    return with_handle(handle, [&](HandleEntry& e) -> int {
        if (out == nullptr && capacity > 0) return fail(e, EGDB_NULL_ARGUMENT, "output array is NULL");
        if (kind != 0 && kind != 1) return fail(e, EGDB_BAD_ARGUMENT, "kind must be 0 (DTW) or 1 (MTC)");
        if (kind == 0 && !e.db->has_dtw()) return fail(e, EGDB_NOT_DISTANCE_TYPE, "no DTW data");
        if (kind == 1 && !e.db->has_mtc()) return fail(e, EGDB_NOT_DISTANCE_TYPE, "no MTC data");
        const egdb::FenPosition fp = parse_fen_or_throw(fen);
        const auto ranked = egdb::ranked_moves(fp.position, fp.side_to_move, *e.db,
                                               kind == 0 ? egdb::DistanceKind::Dtw : egdb::DistanceKind::Mtc);
        const int n = std::min(capacity, static_cast<int>(ranked.size()));
        for (int i = 0; i < n; ++i) {
            const egdb::RankedMove& r = ranked[static_cast<std::size_t>(i)];
            EgdbMoveDistance& o = out[i];
            copy_string(pdn_of(fp.position, fp.side_to_move, r.move), o.move, sizeof o.move);
            o.wld = wld_code(egdb::negated(r.successor.wld));
            const bool conversion = r.move.is_capture() || (fp.position.king & r.move.from) == 0;
            if (r.successor.wld == egdb::WldValue::Draw) {
                o.distance = -1;
            } else if (kind == 0) {
                o.distance = r.successor.dtw + 1;
            } else {
                o.distance = conversion ? static_cast<int>(egdb::conversion_plies(fp.position, fp.side_to_move))
                                        : r.successor.mtc + 1;
            }
            o.after = to_c(egdb::apply_move(fp.position, fp.side_to_move, r.move));
        }
        return n;
    });
}

EGDB_API int EGDB_CALL egdb_pv(int handle, const char* fen, char* out, int size) {
    return with_handle(handle, [&](HandleEntry& e) -> int {
        if (out == nullptr || size <= 0) return fail(e, EGDB_NULL_ARGUMENT, "output buffer is NULL or empty");
        if (!e.db->has_dtw()) return fail(e, EGDB_LOOKUP_NOT_POSSIBLE, "the principal variation needs DTW data");
        const egdb::FenPosition fp = parse_fen_or_throw(fen);
        if (e.db->wld(fp.position, fp.side_to_move) == egdb::WldValue::Draw) {
            return fail(e, EGDB_LOOKUP_NOT_POSSIBLE, "the position is a draw");
        }
        std::string text;
        Position p = fp.position;
        Color side = fp.side_to_move;
        for (const egdb::Move& m : e.db->principal_variation(fp.position, fp.side_to_move, egdb::DistanceKind::Dtw)) {
            if (!text.empty()) text += ' ';
            text += pdn_of(p, side, m);
            p = egdb::apply_move(p, side, m);
            side = egdb::opposite(side);
        }
        if (static_cast<int>(text.size()) >= size) return fail(e, EGDB_BUFFER_TOO_SMALL, "buffer too small for the variation");
        copy_string(text, out, static_cast<std::size_t>(size));
        return static_cast<int>(text.size());
    });
}

EGDB_API int EGDB_CALL egdb_stats(int handle, EgdbStats* out) {
    return with_handle(handle, [&](HandleEntry& e) -> int {
        if (out == nullptr) return fail(e, EGDB_NULL_ARGUMENT, "output is NULL");
        const Database::Stats s = e.db->stats();
        *out = EgdbStats{s.lookups, s.cache_hits, s.cache_misses, s.cache_bytes, s.files};
        return 0;
    });
}

EGDB_API int EGDB_CALL egdb_verify(int handle, egdb_progress_fn progress, void* user) {
    return with_handle(handle, [&](HandleEntry& e) -> int {
        bool cancelled = false;
        const unsigned hw = std::thread::hardware_concurrency();
        const auto problems = e.db->verify(
            [&](const std::string& what, std::int64_t done, std::int64_t total) {
                if (progress != nullptr && progress(user, what.c_str(), done, total) != 0) cancelled = true;
                return !cancelled;
            },
            hw == 0 ? 1 : static_cast<int>(hw));
        if (cancelled) return fail(e, EGDB_CANCELLED, "verification cancelled");
        std::string text;
        for (std::size_t i = 0; i < problems.size() && i < 20; ++i) text += problems[i] + "\n";
        e.set_error(text);
        return static_cast<int>(problems.size());
    });
}

EGDB_API int EGDB_CALL egdb_build(const char* directory, int pieces, int threads, const char* kinds, int verify,
                                  egdb_progress_fn progress, void* user) {
    try {
        if (directory == nullptr) return fail(EGDB_NULL_ARGUMENT, "directory is NULL");
        if (pieces < 2 || pieces > 2 * egdb::kMaxPiecesPerSide) return fail(EGDB_BAD_ARGUMENT, "pieces must be 2..10");
        const std::filesystem::path dir = utf8_path(directory);
        egdb::native::SolvedWriteOptions write;
        if (kinds != nullptr && *kinds != '\0') {
            const std::string k = kinds;
            write.kinds = {k.find("wld") != std::string::npos, k.find("dtw") != std::string::npos,
                           k.find("mtc") != std::string::npos};
            if (!write.kinds.wld) return fail(EGDB_BAD_ARGUMENT, "kinds must include wld");
        }
        const unsigned hw = std::thread::hardware_concurrency();
        write.threads = threads > 0 ? threads : (hw == 0 ? 1 : static_cast<int>(hw));
        std::filesystem::create_directories(dir);
        egdb::SolutionStore store;
        const auto order = egdb::build_order(pieces);
        std::int64_t total = 0;
        for (const auto s : order) total += static_cast<std::int64_t>(egdb::slice_size(s));
        std::int64_t done = 0;
        for (const auto s : order) {  // resume from finished files
            const auto path = dir / egdb::native::slice_file_name(s.nbm, s.nbk, s.nwm, s.nwk);
            if (!std::filesystem::exists(path)) continue;
            try {
                const egdb::native::SliceFileReader file(path);
                if (egdb::native::can_restore(file)) {
                    store.add(egdb::native::restore_solved_slice(file, store, write.threads));
                    done += static_cast<std::int64_t>(egdb::slice_size(s));
                }
            } catch (const std::exception&) {
                // A damaged file is solved and written again.
            }
        }
        bool cancelled = false;
        egdb::BuildOptions options;
        options.threads = write.threads;
        options.on_slice_done = [&](const egdb::SliceProgress& p) {
            egdb::native::write_solved_slice(dir, *p.solved, write);
            done += static_cast<std::int64_t>(p.positions);
            if (progress != nullptr && progress(user, p.slice.to_string().c_str(), done, total) != 0) {
                cancelled = true;
                throw std::runtime_error("cancelled");
            }
        };
        try {
            egdb::solve_slices(pieces, store, options);
        } catch (const std::runtime_error&) {
            if (cancelled) return fail(EGDB_CANCELLED, "build cancelled; run it again to resume");
            throw;
        }
        store = egdb::SolutionStore{};  // the solutions are on disk: free them before verification reads the files
        if (verify != 0) {
            egdb::native::VerifyOptions vo;
            vo.threads = write.threads;
            const auto report = egdb::native::verify_native_database(dir, vo);
            if (!report.ok()) {
                return fail(EGDB_INTERNAL_ERROR,
                            "verification failed: " + (report.messages.empty() ? std::string("?") : report.messages.front()));
            }
        }
        return 0;
    } catch (const std::exception& e) {
        return fail(EGDB_INTERNAL_ERROR, e.what());
    }
}

}  // extern "C"
