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
#include <string_view>
#include <thread>
#include <type_traits>
#include <vector>

#include "core/formats/kingsrow/result.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/notation/fen.hpp"
#include "core/notation/hub_position.hpp"
#include "core/notation/move_notation.hpp"
#include "core/notation/pdn_move.hpp"
#include "core/probe/database.hpp"
#include "core/rules/movegen.hpp"
#include "core/util/error.hpp"
#include "core/util/peak_memory.hpp"
#include "core/workflow/build.hpp"
#include "core/workflow/probe_report.hpp"
#include "core/workflow/verify.hpp"

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

// A message kept for a thread: a fixed buffer, truncated (ending in "...") when longer.
//
// Why not std::string: a thread_local with a destructor breaks the Windows DLL. Built with
// MinGW-w64, its emulated TLS and libstdc++'s thread-exit destructors made a program whose
// threads had called a failing function hang at exit (tests/windows/thread_exit_test.c under
// Wine); objects that need no destructor avoid that machinery altogether.
class ErrorText {
public:
    static constexpr std::size_t kBytes = 2048;

    void assign(std::string_view message) noexcept {
        const std::size_t n = std::min(message.size(), kBytes - 1);
        std::copy_n(message.data(), n, text_.data());
        text_[n] = '\0';
        if (n < message.size()) std::copy_n("...", 3, text_.data() + n - 3);
    }
    const char* c_str() const noexcept { return text_.data(); }

private:
    std::array<char, kBytes> text_{};
};

// The messages of this thread's failed calls: egdb_last_error(-1) reads the last call without a
// valid handle, egdb_last_error(h) the last call on handle h made by this thread. Per thread, not
// per handle, because lookups on one handle may run on many threads at once and each must read
// its own failure, not another thread's. The last kHandles handles a thread failed on keep their
// message (a thread working on more databases forgets the oldest).
struct ThreadErrors {
    static constexpr std::size_t kHandles = 8;
    struct HandleMessage {
        int handle = -1;
        ErrorText message;
    };
    ErrorText without_handle;
    std::array<HandleMessage, kHandles> by_handle;
    std::size_t next = 0;  // the slot a new handle takes

    const ErrorText* slot(int handle) const noexcept {
        for (const HandleMessage& m : by_handle) {
            if (m.handle == handle) return &m.message;
        }
        return nullptr;
    }
    void set(int handle, std::string_view message) noexcept {
        for (HandleMessage& m : by_handle) {
            if (m.handle == handle) return m.message.assign(message);
        }
        HandleMessage& m = by_handle[next];
        next = (next + 1) % kHandles;
        m.handle = handle;
        m.message.assign(message);
    }
};
static_assert(std::is_trivially_destructible_v<ThreadErrors>, "no thread-exit destructor (see ErrorText)");
thread_local ThreadErrors t_errors;
// What egdb_last_error returned last on this thread (the pointer stays valid until the next call).
thread_local ErrorText t_returned_error;

// One open database and what belongs to it.
struct HandleEntry {
    int handle = -1;
    std::unique_ptr<Database> db;
    std::filesystem::path logfile;

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
    t_errors.without_handle.assign(message);
    return code;
}

int fail(const HandleEntry& entry, int code, std::string message) {
    t_errors.set(entry.handle, message);
    return code;
}

// A call on a handle that is not open (never opened, or closed): the message is both the last
// error without a handle and that handle's, so that egdb_last_error(h) never shows an older
// failure of the handle once it is closed.
int fail_not_open(int handle) {
    const std::string message = "handle " + std::to_string(handle) + " is not open";
    if (handle != -1) t_errors.set(handle, message);
    return fail(EGDB_BAD_HANDLE, message);
}

// The C code of each kind of error (core/util/error.hpp): the one place where they are mapped.
int code_of(egdb::ErrorKind kind) noexcept {
    using egdb::ErrorKind;
    switch (kind) {
        case ErrorKind::InvalidArgument: return EGDB_BAD_ARGUMENT;
        case ErrorKind::InvalidNotation: return EGDB_FEN_ERROR;
        case ErrorKind::NoDatabase: return EGDB_OPEN_FAIL;
        case ErrorKind::LookupNotPossible: return EGDB_LOOKUP_NOT_POSSIBLE;
        case ErrorKind::Cancelled: return EGDB_CANCELLED;
        case ErrorKind::CorruptData:
        case ErrorKind::Io:
        case ErrorKind::Unsupported:
        case ErrorKind::Internal: return EGDB_INTERNAL_ERROR;
    }
    return EGDB_INTERNAL_ERROR;
}

std::string message_of(const std::exception& e) {
    if (dynamic_cast<const std::bad_alloc*>(&e) != nullptr) return "out of memory";
    return e.what();
}

bool valid_color(int color) noexcept { return color == EGDB_BLACK || color == EGDB_WHITE; }

// Runs `body(entry)` for a valid handle, converting exceptions into codes. A FEN error is also
// the message of egdb_last_error(-1), as for the FEN functions without a handle.
template <class Body>
int with_handle(int handle, Body&& body) {
    const HandleTable::Ref entry = handles().find(handle);
    if (!entry) return fail_not_open(handle);
    try {
        return body(*entry);
    } catch (const std::exception& e) {
        const egdb::ErrorKind kind = egdb::kind_of(e);
        if (kind == egdb::ErrorKind::InvalidNotation) t_errors.without_handle.assign(e.what());
        return fail(*entry, code_of(kind), message_of(e));
    } catch (...) {
        return fail(*entry, EGDB_INTERNAL_ERROR, "unknown exception");
    }
}

// Runs `body()` for a call without a handle, converting exceptions into codes; `open_code`
// replaces the code of a failure to find or open a database (egdb_open: EGDB_OPEN_FAIL,
// egdb_identify: EGDB_IDENTIFY_FAIL).
template <class Body>
int without_handle(Body&& body, int open_code = EGDB_OPEN_FAIL) {
    try {
        return body();
    } catch (const std::exception& e) {
        const egdb::ErrorKind kind = egdb::kind_of(e);
        return fail(kind == egdb::ErrorKind::NoDatabase ? open_code : code_of(kind), message_of(e));
    } catch (...) {
        return fail(EGDB_INTERNAL_ERROR, "unknown exception");
    }
}

int wld_code(egdb::WldValue v) noexcept {
    return v == egdb::WldValue::Win ? EGDB_WIN : v == egdb::WldValue::Loss ? EGDB_LOSS : EGDB_DRAW;
}

egdb::FenPosition parse_fen_or_throw(const char* fen) {
    if (fen == nullptr) throw egdb::FenError("FEN is NULL", "", 0);
    return egdb::parse_fen(fen);
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
        t_returned_error = t_errors.without_handle;
    } else if (const ErrorText* message = t_errors.slot(handle)) {
        t_returned_error = *message;
    } else if (handles().find(handle)) {
        t_returned_error.assign("");
    } else {
        t_returned_error.assign("handle " + std::to_string(handle) + " is not open");
    }
    return t_returned_error.c_str();
}

EGDB_API int EGDB_CALL egdb_open(const char* options, int cache_mb, const char* directory, const char* logfile) {
    return without_handle([&]() -> int {
        if (directory == nullptr) return fail(EGDB_OPEN_FAIL, "directory is NULL");
        auto entry = std::make_unique<HandleEntry>();
        if (logfile != nullptr && *logfile != '\0') {
            entry->logfile = utf8_path(logfile);
            std::ofstream f(entry->logfile, std::ios::trunc);
            if (!f) return fail(EGDB_FOPEN_FAIL, std::string("cannot create log file ") + logfile);
        }
        // cache_mb bounds the block cache; more than the machine has can never be allocated.
        const std::uint64_t machine_mib = egdb::physical_memory_bytes() >> 20;
        if (cache_mb < 0 || (machine_mib > 0 && static_cast<std::uint64_t>(cache_mb) > machine_mib)) {
            return fail(EGDB_BAD_ARGUMENT, "invalid cache_mb " + std::to_string(cache_mb) +
                                               ": the block cache's bound must be from 0 to this machine's memory, " +
                                               std::to_string(machine_mib) + " MiB");
        }
        egdb::DatabaseOptions o;
        o.kingsrow_options = options != nullptr ? options : "";
        o.cache_bytes = static_cast<std::size_t>(std::max(cache_mb, 1)) << 20;
        o.messages = [raw = entry.get()](const std::string& m) { raw->log(m); };
        // A list of directories ("wld;mtc;dtw") opens as one database (Database::open).
        std::vector<std::filesystem::path> directories;
        for (const std::filesystem::path& d : egdb::split_directory_list(directory)) directories.push_back(utf8_path(d.string().c_str()));
        entry->db = Database::open(directories, o);
        entry->log(std::string("opened ") + to_string(entry->db->type()) + ", " +
                   std::to_string(entry->db->max_pieces()) + " pieces, in " + directory + "\n");
        HandleEntry* raw = entry.get();
        const int handle = handles().insert(std::move(entry));
        if (handle < 0) return fail(EGDB_DRIVER_TABLE_FULL, "too many databases open (at most " + std::to_string(EGDB_MAX_HANDLES) + ")");
        raw->handle = handle;
        return handle;
    });
}

EGDB_API int EGDB_CALL egdb_close(int handle) {
    switch (handles().erase(handle)) {
        case egdb::capi::CloseResult::Closed: return 0;
        case egdb::capi::CloseResult::InUseByThisThread:
            return fail(EGDB_BAD_ARGUMENT, "handle " + std::to_string(handle) +
                                               " cannot be closed from inside one of its own calls (a callback)");
        case egdb::capi::CloseResult::NotOpen: break;
    }
    return fail_not_open(handle);
}

EGDB_API int EGDB_CALL egdb_identify(const char* directory, int* egdb_type, int* max_pieces) {
    if (directory == nullptr || egdb_type == nullptr || max_pieces == nullptr) {
        return fail(EGDB_NULL_ARGUMENT, "NULL argument to egdb_identify");
    }
    return without_handle(
        [&]() -> int {
            const auto db = Database::open(utf8_path(directory));
            *egdb_type = static_cast<int>(db->type());
            *max_pieces = db->max_pieces();
            return 0;
        },
        EGDB_IDENTIFY_FAIL);
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
        // Database::wld refuses an ill-formed position (EGDB_BAD_ARGUMENT with its message).
        return wld_code(e.db->wld(to_cpp(*pos), static_cast<Color>(color)));
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
            std::string s = egdb::move_to_pdn(fp.position, fp.side_to_move, md.move);
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

EGDB_API int EGDB_CALL egdb_position_to_hub(const EgdbPosition* pos, int color, char hub[EGDB_HUBLEN]) {
    if (pos == nullptr || hub == nullptr) return fail(EGDB_NULL_ARGUMENT, "NULL argument to egdb_position_to_hub");
    if (!valid_color(color)) return fail(EGDB_BAD_ARGUMENT, "color must be 0 (black) or 1 (white)");
    return without_handle([&]() -> int {
        static_assert(EGDB_HUBLEN == egdb::kHubPositionLength + 1, "EGDB_HUBLEN holds a Hub position and its NUL");
        const std::string s = egdb::to_hub_position(to_cpp(*pos), static_cast<Color>(color));
        copy_string(s, hub, EGDB_HUBLEN);
        return static_cast<int>(s.size());
    });
}

EGDB_API int EGDB_CALL egdb_hub_to_position(const char* hub, EgdbPosition* pos, int* color) {
    if (hub == nullptr || pos == nullptr || color == nullptr) {
        return fail(EGDB_NULL_ARGUMENT, "NULL argument to egdb_hub_to_position");
    }
    std::string error;
    const auto fp = egdb::try_parse_hub_position(hub, &error);
    if (!fp) return fail(EGDB_FEN_ERROR, error);
    *pos = to_c(fp->position);
    *color = static_cast<int>(fp->side_to_move);
    return 0;
}

EGDB_API int EGDB_CALL egdb_move_text(const EgdbPosition* from, const EgdbPosition* to, int color, int notation,
                                      char* out, int size) {
    if (from == nullptr || to == nullptr || out == nullptr) return fail(EGDB_NULL_ARGUMENT, "NULL argument to egdb_move_text");
    if (!valid_color(color)) return fail(EGDB_BAD_ARGUMENT, "color must be 0 (black) or 1 (white)");
    if (notation != EGDB_NOTATION_PDN && notation != EGDB_NOTATION_HUB) {
        return fail(EGDB_BAD_ARGUMENT, "notation must be 0 (PDN) or 1 (Hub)");
    }
    if (size <= 0) return fail(EGDB_BUFFER_TOO_SMALL, "the output buffer has no room");
    return without_handle([&]() -> int {
        const Position p = to_cpp(*from);
        const Position q = to_cpp(*to);
        const Color side = static_cast<Color>(color);
        // The first legal move leading to `to`, as move_string chooses it.
        egdb::MoveList list;
        egdb::generate_moves(p, side, list);
        std::string s;
        for (const egdb::Move& m : list) {
            if (egdb::apply_move(p, side, m) == q) {
                s = egdb::move_text(p, side, m, static_cast<egdb::MoveNotation>(notation));
                break;
            }
        }
        if (s.size() >= static_cast<std::size_t>(size)) return fail(EGDB_BUFFER_TOO_SMALL, "move longer than the buffer");
        copy_string(s, out, static_cast<std::size_t>(size));
        return static_cast<int>(s.size());
    });
}

EGDB_API int EGDB_CALL egdb_parse_move(const EgdbPosition* pos, int color, const char* move, EgdbPosition* after) {
    if (pos == nullptr || move == nullptr || after == nullptr) {
        return fail(EGDB_NULL_ARGUMENT, "NULL argument to egdb_parse_move");
    }
    if (!valid_color(color)) return fail(EGDB_BAD_ARGUMENT, "color must be 0 (black) or 1 (white)");
    const Position p = to_cpp(*pos);
    if (!egdb::is_well_formed(p)) return fail(EGDB_BAD_ARGUMENT, "the position is not well formed");
    return without_handle([&]() -> int {
        const Color side = static_cast<Color>(color);
        *after = to_c(egdb::apply_move(p, side, egdb::parse_move(p, side, move)));
        return 0;
    });
}

EGDB_API int EGDB_CALL egdb_wdl(int value) {
    switch (value) {
        case EGDB_WIN: return 1;
        case EGDB_DRAW: return 0;
        case EGDB_LOSS: return -1;
        default: return fail(EGDB_BAD_ARGUMENT, "egdb_wdl: " + std::to_string(value) + " is not EGDB_WIN, EGDB_LOSS or EGDB_DRAW");
    }
}

EGDB_API int EGDB_CALL egdb_probe(int handle, const EgdbPosition* pos, int color, EgdbProbe* out) {
    return with_handle(handle, [&](HandleEntry& e) -> int {
        if (pos == nullptr || out == nullptr) return fail(e, EGDB_NULL_ARGUMENT, "NULL argument");
        if (!valid_color(color)) return fail(e, EGDB_BAD_ARGUMENT, "color must be 0 (black) or 1 (white)");
        const Position p = to_cpp(*pos);
        if (!egdb::is_well_formed(p)) return fail(e, EGDB_BAD_ARGUMENT, "the position is not well formed");
        const egdb::workflow::ProbeReport report = egdb::workflow::probe_position(*e.db, p, static_cast<Color>(color));
        EgdbProbe r{};
        r.wld = wld_code(report.wld);
        r.dtw = report.dtw.value_or(-1);
        r.mtc = report.mtc.value_or(-1);
        if (report.best) copy_string(*report.best, r.best, sizeof r.best);
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
            copy_string(egdb::move_to_pdn(fp.position, fp.side_to_move, r.move), o.move, sizeof o.move);
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
        for (const std::string& m : egdb::workflow::principal_variation_pdn(*e.db, fp.position, fp.side_to_move)) {
            if (!text.empty()) text += ' ';
            text += m;
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
        egdb::workflow::VerifyRequest request;
        request.on_item = [&](const egdb::workflow::VerifyItem& item) {
            return progress == nullptr || progress(user, item.label.c_str(), item.done, item.total) == 0;
        };
        const std::vector<std::string> problems = egdb::workflow::verify_database(*e.db, request).problems();
        std::string text;
        for (std::size_t i = 0; i < problems.size() && i < 20; ++i) text += problems[i] + "\n";
        t_errors.set(e.handle, text);
        return static_cast<int>(problems.size());
    });
}

EGDB_API int EGDB_CALL egdb_build(const char* directory, int pieces, int threads, const char* kinds, int verify,
                                  egdb_progress_fn progress, void* user) {
    return without_handle([&]() -> int {
        if (directory == nullptr) return fail(EGDB_NULL_ARGUMENT, "directory is NULL");
        egdb::workflow::BuildRequest request;
        request.out = utf8_path(directory);
        request.pieces = pieces;
        if (threads > 0) request.resources.threads = threads;  // 0 or less: every core (the default)
        if (kinds != nullptr && *kinds != '\0') request.kinds = egdb::workflow::parse_value_kinds(kinds);
        request.verify = verify != 0;
        egdb::workflow::BuildObserver observer;
        observer.on_item = [&](const egdb::workflow::BuildItem& item) {
            if (progress == nullptr || item.stage == egdb::workflow::BuildStage::Verify) return true;
            return progress(user, item.label.c_str(), static_cast<int64_t>(item.stage_done),
                            static_cast<int64_t>(item.stage_total)) == 0;
        };
        const egdb::workflow::BuildReport report = egdb::workflow::build_database(request, observer);
        if (!report.ok()) {
            const std::vector<std::string> problems = report.verify ? report.verify->problems() : std::vector<std::string>{};
            return fail(EGDB_INTERNAL_ERROR, "verification failed: " + (problems.empty() ? std::string("?") : problems.front()));
        }
        return 0;
    });
}

}  // extern "C"
