// egdb._egdb: the Python extension module. It wraps the flat C ABI (capi/egdb.h) and nothing
// else, one small function per C function, with plain Python values (ints, strings, tuples,
// numpy arrays) on the Python side. The Pythonic classes live in python/egdb/*.py.
//
// Every call that may touch the disk or search (open, lookups, probes, verify, build) releases
// the GIL, so Python threads probe in parallel. Negative return codes become the exceptions of
// egdb._errors, with the message of egdb_last_error.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "capi/egdb.h"

namespace py = pybind11;

namespace {

using Boards = std::tuple<std::uint64_t, std::uint64_t, std::uint64_t>;

EgdbPosition make_position(std::uint64_t black, std::uint64_t white, std::uint64_t king) {
    return EgdbPosition{black, white, king};
}

Boards boards_of(const EgdbPosition& p) { return {p.black, p.white, p.king}; }

// The exception class of egdb._errors that stands for a C error code.
py::object error_class(int code) {
    const py::module_ errors = py::module_::import("egdb._errors");
    switch (code) {
    case EGDB_FEN_ERROR:
        return errors.attr("FenError");
    case EGDB_LOOKUP_NOT_POSSIBLE:
    case EGDB_SUBDB_UNAVAILABLE:
    case EGDB_NOT_WLD_TYPE:
    case EGDB_NOT_DISTANCE_TYPE:
        return errors.attr("MissingTableError");
    case EGDB_BAD_ARGUMENT:
    case EGDB_NULL_ARGUMENT:
    case EGDB_BUFFER_TOO_SMALL:
        return py::module_::import("builtins").attr("ValueError");
    case EGDB_CANCELLED:
        return errors.attr("CancelledError");
    default:  // open, identify, handle, I/O and internal errors
        return errors.attr("DatabaseError");
    }
}

// The message of the failed call: the handle's last error, else this thread's (FEN parsing and
// the handle-less functions report there), else the code itself.
std::string error_message(int code, int handle) {
    std::string message = handle >= 0 ? egdb_last_error(handle) : "";
    if (message.empty()) message = egdb_last_error(-1);
    if (message.empty()) message = "egdb error " + std::to_string(code);
    return message;
}

// Raises the Python exception for a negative C return code. Only called with the GIL held.
[[noreturn]] void raise_error(int code, int handle) {
    const std::string message = error_message(code, handle);
    const py::object cls = error_class(code);
    py::object exc = cls(message);
    // The C code stays available to callers that want to tell e.g. a missing slice from a
    // database without DTW data.
    if (py::isinstance(exc, py::module_::import("egdb._errors").attr("EgdbError"))) exc.attr("code") = code;
    PyErr_SetObject(cls.ptr(), exc.ptr());
    throw py::error_already_set();
}

int checked(int result, int handle) {
    if (result < 0) raise_error(result, handle);
    return result;
}

// --- stateless functions: FEN, moves, indexing -------------------------------------------------

std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, int> fen_to_position(const std::string& fen) {
    EgdbPosition p{};
    int color = 0;
    checked(fentoposition(fen.c_str(), &p, &color), -1);
    return {p.black, p.white, p.king, color};
}

std::string position_to_fen(std::uint64_t black, std::uint64_t white, std::uint64_t king, int color) {
    const EgdbPosition p = make_position(black, white, king);
    std::array<char, EGDB_MAXFENLEN> fen{};
    const int n = checked(positiontofen(&p, color, fen.data()), -1);
    return std::string(fen.data(), static_cast<std::size_t>(n));
}

std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, int> hub_to_position(const std::string& hub) {
    EgdbPosition p{};
    int color = 0;
    checked(egdb_hub_to_position(hub.c_str(), &p, &color), -1);
    return {p.black, p.white, p.king, color};
}

std::string position_to_hub(std::uint64_t black, std::uint64_t white, std::uint64_t king, int color) {
    const EgdbPosition p = make_position(black, white, king);
    std::array<char, EGDB_HUBLEN> hub{};
    const int n = checked(egdb_position_to_hub(&p, color, hub.data()), -1);
    return std::string(hub.data(), static_cast<std::size_t>(n));
}

using LegalMove = std::tuple<std::string, std::string, std::uint64_t, std::uint64_t, std::uint64_t>;

// Legal moves as (PDN, Hub, black, white, king) of the position after the move, in generator
// order: one call instead of get_movelist plus two egdb_move_text per move from Python.
std::vector<LegalMove> legal_moves(std::uint64_t black, std::uint64_t white, std::uint64_t king, int color) {
    const EgdbPosition p = make_position(black, white, king);
    std::array<EgdbPosition, EGDB_MAXMOVES> list{};
    const int n = checked(get_movelist(&p, color, list.data()), -1);
    std::vector<LegalMove> moves;
    moves.reserve(static_cast<std::size_t>(n));
    std::array<char, 128> pdn{};
    std::array<char, 128> hub{};
    for (int i = 0; i < n; ++i) {
        const EgdbPosition& q = list[static_cast<std::size_t>(i)];
        const int pdn_length =
            checked(egdb_move_text(&p, &q, color, EGDB_NOTATION_PDN, pdn.data(), static_cast<int>(pdn.size())), -1);
        const int hub_length =
            checked(egdb_move_text(&p, &q, color, EGDB_NOTATION_HUB, hub.data(), static_cast<int>(hub.size())), -1);
        moves.emplace_back(std::string(pdn.data(), static_cast<std::size_t>(pdn_length)),
                           std::string(hub.data(), static_cast<std::size_t>(hub_length)), q.black, q.white, q.king);
    }
    return moves;
}

// The position after a move written in PDN or Hub notation (egdb_parse_move).
Boards parse_move(std::uint64_t black, std::uint64_t white, std::uint64_t king, int color, const std::string& move) {
    const EgdbPosition p = make_position(black, white, king);
    EgdbPosition after{};
    checked(egdb_parse_move(&p, color, move.c_str(), &after), -1);
    return boards_of(after);
}

int signed_wdl(int value) {
    const int wdl = egdb_wdl(value);
    if (wdl < -1) raise_error(wdl, -1);
    return wdl;
}

bool has_capture(std::uint64_t black, std::uint64_t white, std::uint64_t king, int color) {
    const EgdbPosition p = make_position(black, white, king);
    return is_capture(&p, color) != 0;
}

std::int64_t slice_size(int nbm, int nbk, int nwm, int nwk) {
    const std::int64_t n = getdatabasesize_slice(nbm, nbk, nwm, nwk);
    if (n < 0) raise_error(static_cast<int>(n), -1);
    return n;
}

std::int64_t position_to_index(std::uint64_t black, std::uint64_t white, std::uint64_t king, int nbm, int nbk,
                               int nwm, int nwk) {
    const EgdbPosition p = make_position(black, white, king);
    const std::int64_t index = positiontoindex(&p, nbm, nbk, nwm, nwk);
    if (index < 0) raise_error(static_cast<int>(index), -1);
    return index;
}

Boards index_to_position(std::int64_t index, int nbm, int nbk, int nwm, int nwk) {
    // The C function leaves a zero position and a message when the index or the counts are bad;
    // a slice always has at least one piece, so a zero position means failure.
    EgdbPosition p{};
    indextoposition(index, &p, nbm, nbk, nwm, nwk);
    if (p.black == 0 && p.white == 0) raise_error(EGDB_BAD_ARGUMENT, -1);
    return boards_of(p);
}

// --- databases --------------------------------------------------------------------------------

int open_database(const std::string& options, int cache_mb, const std::string& directory) {
    int handle = 0;
    {
        py::gil_scoped_release release;
        handle = egdb_open(options.c_str(), cache_mb, directory.c_str(), nullptr);
    }
    return checked(handle, -1);
}

void close_database(int handle) { checked(egdb_close(handle), -1); }

std::tuple<int, int> identify(const std::string& directory) {
    int type = 0;
    int pieces = 0;
    int rc = 0;
    {
        py::gil_scoped_release release;
        rc = egdb_identify(directory.c_str(), &type, &pieces);
    }
    checked(rc, -1);
    return {type, pieces};
}

int database_type(int handle) { return checked(egdb_type(handle), handle); }
int max_pieces(int handle) { return checked(egdb_max_pieces(handle), handle); }

// The raw stored value (egdb_lookup): Kingsrow codes, including EGDB_UNKNOWN and the negative
// "unavailable" values, which are answers here and not errors.
int lookup(int handle, std::uint64_t black, std::uint64_t white, std::uint64_t king, int color, bool conditional) {
    const EgdbPosition p = make_position(black, white, king);
    int v = 0;
    {
        py::gil_scoped_release release;
        v = egdb_lookup(handle, &p, color, conditional ? 1 : 0);
    }
    if (v < EGDB_SUBDB_UNAVAILABLE) raise_error(v, handle);
    return v;
}

int lookup_with_search(int handle, std::uint64_t black, std::uint64_t white, std::uint64_t king, int color) {
    const EgdbPosition p = make_position(black, white, king);
    int v = 0;
    {
        py::gil_scoped_release release;
        v = egdb_lookup_with_search(handle, &p, color);
    }
    return checked(v, handle);
}

int lookup_fen_with_search(int handle, const std::string& fen) {
    int v = 0;
    {
        py::gil_scoped_release release;
        v = egdb_lookup_fen_with_search(handle, fen.c_str());
    }
    return checked(v, handle);
}

// (wld, dtw, mtc, best move) of egdb_probe.
std::tuple<int, int, int, std::string> probe(int handle, std::uint64_t black, std::uint64_t white, std::uint64_t king,
                                             int color) {
    const EgdbPosition p = make_position(black, white, king);
    EgdbProbe out{};
    int rc = 0;
    {
        py::gil_scoped_release release;
        rc = egdb_probe(handle, &p, color, &out);
    }
    checked(rc, handle);
    return {out.wld, out.dtw, out.mtc, std::string(out.best)};
}

// The position after the only winning move, or None (is_sharp_win returns -1 for "yes", 0 for
// "no", and error codes, which are all below -1).
std::optional<Boards> sharp_win(int handle, std::uint64_t black, std::uint64_t white, std::uint64_t king, int color) {
    const EgdbPosition p = make_position(black, white, king);
    EgdbPosition sharp{};
    int r = 0;
    {
        py::gil_scoped_release release;
        r = is_sharp_win(handle, &p, color, &sharp);
    }
    if (r < -1) raise_error(r, handle);
    if (r == -1) return boards_of(sharp);
    return std::nullopt;
}

// Every legal move with (PDN, distance, wld after the move for the mover, black, white, king).
std::vector<std::tuple<std::string, int, int, std::uint64_t, std::uint64_t, std::uint64_t>> best_moves(
    int handle, const std::string& fen, int kind) {
    std::vector<EgdbMoveDistance> out(EGDB_MAXMOVES);
    int n = 0;
    {
        py::gil_scoped_release release;
        n = egdb_best_moves(handle, fen.c_str(), kind, out.data(), static_cast<int>(out.size()));
    }
    checked(n, handle);
    std::vector<std::tuple<std::string, int, int, std::uint64_t, std::uint64_t, std::uint64_t>> moves;
    moves.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        const EgdbMoveDistance& m = out[static_cast<std::size_t>(i)];
        moves.emplace_back(std::string(m.move), m.distance, m.wld, m.after.black, m.after.white, m.after.king);
    }
    return moves;
}

std::string principal_variation(int handle, const std::string& fen) {
    // A variation to the end of a 10-piece endgame is a few hundred plies; grow on the rare
    // EGDB_BUFFER_TOO_SMALL instead of guessing a bound.
    for (std::size_t size = 4096;; size *= 4) {
        std::string buffer(size, '\0');
        int n = 0;
        {
            py::gil_scoped_release release;
            n = egdb_pv(handle, fen.c_str(), buffer.data(), static_cast<int>(buffer.size()));
        }
        if (n == EGDB_BUFFER_TOO_SMALL && size < (std::size_t{1} << 24)) continue;
        checked(n, handle);
        buffer.resize(static_cast<std::size_t>(n));
        return buffer;
    }
}

// WLD with search of N positions in one C call. `positions` is an (N, 3) uint64 array of
// (black, white, king) rows, which is exactly the memory layout of EgdbPosition[N], so it is
// passed without a copy when it is already C-contiguous uint64. Per-position failures stay in
// the result as negative codes; the Python layer decides what to do with them.
py::array_t<std::int32_t> lookup_batch(int handle,
                                       const py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>& positions,
                                       const py::array_t<std::int32_t, py::array::c_style | py::array::forcecast>& colors) {
    static_assert(sizeof(EgdbPosition) == 3 * sizeof(std::uint64_t), "EgdbPosition must be three packed uint64");
    static_assert(sizeof(int) == sizeof(std::int32_t), "the C ABI's int must be 32 bits");
    if (positions.ndim() != 2 || positions.shape(1) != 3) throw py::value_error("positions must have shape (N, 3)");
    const py::ssize_t count = positions.shape(0);
    if (colors.ndim() != 1 || colors.shape(0) != count) throw py::value_error("colors must have shape (N,)");
    if (count > INT32_MAX) throw py::value_error("at most 2**31 - 1 positions per batch");
    py::array_t<std::int32_t> results(count);
    const auto* p = reinterpret_cast<const EgdbPosition*>(positions.data());
    const int* c = reinterpret_cast<const int*>(colors.data());
    int* r = reinterpret_cast<int*>(results.mutable_data());
    int rc = 0;
    {
        py::gil_scoped_release release;
        rc = egdb_lookup_batch(handle, p, c, static_cast<int>(count), r);
    }
    checked(rc, handle);
    return results;
}

std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t> stats(int handle) {
    EgdbStats s{};
    checked(egdb_stats(handle, &s), handle);
    return {s.lookups, s.cache_hits, s.cache_misses, s.cache_bytes, s.files};
}

// A Python progress callback behind the C callback. The C library may call it from any of its
// threads, so it takes the GIL itself; an exception in the callback cancels the job and is
// raised again once the C call has returned.
struct Progress {
    py::object callback;
    std::optional<py::error_already_set> error;

    static int EGDB_CALL call(void* user, const char* what, std::int64_t done, std::int64_t total) {
        auto* self = static_cast<Progress*>(user);
        py::gil_scoped_acquire acquire;
        if (self->error) return 1;
        try {
            // Ctrl-C during a long build lands here, the only place Python code runs.
            if (PyErr_CheckSignals() != 0) throw py::error_already_set();
            if (!self->callback.is_none()) self->callback(std::string(what != nullptr ? what : ""), done, total);
        } catch (py::error_already_set& e) {
            self->error = std::move(e);
            return 1;
        }
        return 0;
    }

    // Raises the callback's exception, if any, else the C error.
    void finish(int rc, int handle) {
        if (error) {
            py::error_already_set e = std::move(*error);
            error.reset();
            throw e;
        }
        if (rc < 0) raise_error(rc, handle);
    }
};

// The number of problems found (0 = good); the caller raises with the description.
int verify(int handle, const py::object& callback) {
    Progress progress{callback, std::nullopt};
    int rc = 0;
    {
        py::gil_scoped_release release;
        rc = egdb_verify(handle, &Progress::call, &progress);
    }
    progress.finish(rc, handle);
    return rc;
}

void build(const std::string& directory, int pieces, int threads, const std::string& kinds, bool verify_after,
           const py::object& callback) {
    Progress progress{callback, std::nullopt};
    int rc = 0;
    {
        py::gil_scoped_release release;
        rc = egdb_build(directory.c_str(), pieces, threads, kinds.c_str(), verify_after ? 1 : 0, &Progress::call,
                        &progress);
    }
    progress.finish(rc, -1);
}

}  // namespace

PYBIND11_MODULE(_egdb, m) {
    m.doc() = "Low-level wrapper of the egdb C ABI (capi/egdb.h). Use the egdb package instead.";

    m.attr("WIN") = int{EGDB_WIN};
    m.attr("LOSS") = int{EGDB_LOSS};
    m.attr("DRAW") = int{EGDB_DRAW};
    m.attr("UNKNOWN") = int{EGDB_UNKNOWN};
    m.attr("SUBDB_UNAVAILABLE") = int{EGDB_SUBDB_UNAVAILABLE};
    m.attr("NOT_IN_CACHE") = int{EGDB_NOT_IN_CACHE};
    m.attr("LOOKUP_NOT_POSSIBLE") = int{EGDB_LOOKUP_NOT_POSSIBLE};
    m.attr("BAD_ARGUMENT") = int{EGDB_BAD_ARGUMENT};

    m.def("version", [] { return std::string(egdb_version()); });
    m.def("last_error", [](int handle) { return std::string(egdb_last_error(handle)); }, py::arg("handle"));

    m.def("fen_to_position", &fen_to_position, py::arg("fen"));
    m.def("position_to_fen", &position_to_fen, py::arg("black"), py::arg("white"), py::arg("king"), py::arg("color"));
    m.def("hub_to_position", &hub_to_position, py::arg("hub"));
    m.def("position_to_hub", &position_to_hub, py::arg("black"), py::arg("white"), py::arg("king"), py::arg("color"));
    m.def("parse_move", &parse_move, py::arg("black"), py::arg("white"), py::arg("king"), py::arg("color"),
          py::arg("move"));
    m.def("wdl", &signed_wdl, py::arg("value"));
    m.def("legal_moves", &legal_moves, py::arg("black"), py::arg("white"), py::arg("king"), py::arg("color"));
    m.def("is_capture", &has_capture, py::arg("black"), py::arg("white"), py::arg("king"), py::arg("color"));
    m.def("slice_size", &slice_size, py::arg("nbm"), py::arg("nbk"), py::arg("nwm"), py::arg("nwk"));
    m.def("position_to_index", &position_to_index, py::arg("black"), py::arg("white"), py::arg("king"), py::arg("nbm"),
          py::arg("nbk"), py::arg("nwm"), py::arg("nwk"));
    m.def("index_to_position", &index_to_position, py::arg("index"), py::arg("nbm"), py::arg("nbk"), py::arg("nwm"),
          py::arg("nwk"));

    m.def("open", &open_database, py::arg("options"), py::arg("cache_mb"), py::arg("directory"));
    m.def("close", &close_database, py::arg("handle"));
    m.def("identify", &identify, py::arg("directory"));
    m.def("type", &database_type, py::arg("handle"));
    m.def("max_pieces", &max_pieces, py::arg("handle"));
    m.def("lookup", &lookup, py::arg("handle"), py::arg("black"), py::arg("white"), py::arg("king"), py::arg("color"),
          py::arg("conditional") = false);
    m.def("lookup_with_search", &lookup_with_search, py::arg("handle"), py::arg("black"), py::arg("white"),
          py::arg("king"), py::arg("color"));
    m.def("lookup_fen_with_search", &lookup_fen_with_search, py::arg("handle"), py::arg("fen"));
    m.def("probe", &probe, py::arg("handle"), py::arg("black"), py::arg("white"), py::arg("king"), py::arg("color"));
    m.def("is_sharp_win", &sharp_win, py::arg("handle"), py::arg("black"), py::arg("white"), py::arg("king"),
          py::arg("color"));
    m.def("best_moves", &best_moves, py::arg("handle"), py::arg("fen"), py::arg("kind"));
    m.def("pv", &principal_variation, py::arg("handle"), py::arg("fen"));
    m.def("lookup_batch", &lookup_batch, py::arg("handle"), py::arg("positions"), py::arg("colors"));
    m.def("stats", &stats, py::arg("handle"));
    m.def("verify", &verify, py::arg("handle"), py::arg("progress"));
    m.def("build", &build, py::arg("directory"), py::arg("pieces"), py::arg("threads"), py::arg("kinds"),
          py::arg("verify"), py::arg("progress"));
}
