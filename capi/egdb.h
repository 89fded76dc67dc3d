/*
 * egdb.h - the flat C interface of egdb, the international draughts endgame database library.
 *
 * This header is the whole contract: the Python, Java and VBA bindings call nothing else.
 *
 * Compatibility: every function of the Kingsrow DLL (egdb_intl, branch dll) exists here with the
 * same name, arguments and meaning (docs/kingsrow.md §7), so a program written for
 * egdb_intl64.dll / egdb_intl32.dll switches by swapping the library. Differences, all of them
 * in the direction of safety:
 *   - handles: up to EGDB_MAX_HANDLES databases may be open at once (upstream: 4); a handle is
 *     never reused, so a closed or unknown handle gives EGDB_BAD_HANDLE, never a crash;
 *   - the indexing and FEN helpers work without a prior egdb_open;
 *   - egdb_lookup_with_search has no time limit (upstream's limit is 2 ms of CPU on POSIX);
 *   - null pointers give EGDB_NULL_ARGUMENT instead of a crash;
 *   - fentoposition rejects malformed FEN (upstream silently truncates), with a message in
 *     egdb_last_error(-1); it also reads the dialects other draughts software writes: Lidraughts'
 *     suffixes "W:W31-50:B1-20:H0:F1" (halfmove clock and fullmove number, ignored) and the PDN
 *     tag "[FEN \"W:W31-50:B1-20\"]" (the grammar: core/notation/fen.hpp). Every function taking
 *     a FEN accepts the same.
 *
 * Paths (directories, log files) are UTF-8 strings. On Windows they are converted to UTF-16 for
 * the system, so any file name works whatever the ANSI code page (ASCII paths are the same in
 * both; a caller holding an ANSI string with other characters must convert it); elsewhere their
 * bytes go to the system unchanged.
 *
 * Errors: every function returns an error as a negative code; egdb_last_error() then describes
 * it in words. No C++ exception ever crosses this interface.
 *
 * Threads: all functions may be called from any thread. Lookups on one handle may run in
 * parallel from many threads, without locks. egdb_close may run while other threads use the
 * handle: calls that start after it fail with EGDB_BAD_HANDLE, and it waits for the calls already
 * running on that handle to return before it frees the database.
 *
 * Calling convention: __stdcall on 32-bit Windows (as the Kingsrow DLL), the platform default
 * elsewhere.
 */
#ifndef EGDB_H
#define EGDB_H

#include <stdint.h>

#if defined(_WIN32) && !defined(_WIN64)
#define EGDB_CALL __stdcall
#else
#define EGDB_CALL
#endif

#if defined(EGDB_STATIC)
/* Linked from the static library libegdb.a (CMake: egdb::egdb): nothing to import. */
#define EGDB_API
#elif defined(_WIN32)
#if defined(EGDB_BUILDING_LIBRARY)
#define EGDB_API __declspec(dllexport)
#else
#define EGDB_API __declspec(dllimport)
#endif
#else
#define EGDB_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* A position: three 64-bit bitboards (docs/kingsrow.md §1). Square s (1..50) is bit
 * (s-1) + (s-1)/10, so bits 10, 21, 32 and 43 are never set. Same layout as the Kingsrow
 * driver's Position (24 bytes). */
typedef struct EgdbPosition {
    uint64_t black;
    uint64_t white;
    uint64_t king;
} EgdbPosition;

/* Side to move. */
enum { EGDB_BLACK = 0, EGDB_WHITE = 1 };

/* Values returned by egdb_lookup and the search functions (for the side to move). */
enum {
    EGDB_SUBDB_UNAVAILABLE = -2, /* the slice is not in the database */
    EGDB_NOT_IN_CACHE = -1,      /* conditional lookup and the data is not in memory */
    EGDB_UNKNOWN = 0,            /* the database does not store this position */
    EGDB_WIN = 1,
    EGDB_LOSS = 2,
    EGDB_DRAW = 3,
    EGDB_DRAW_OR_LOSS = 4,
    EGDB_WIN_OR_DRAW = 5
};

/* MTC databases: egdb_lookup returns the MTC in plies (even, rounded up) or this when the
 * position's MTC is below 10 or not stored. */
enum { EGDB_MTC_LESS_THAN_THRESHOLD = 1, EGDB_MTC_THRESHOLD = 10 };

/* Errors (negative return values). -100..-109 are the Kingsrow DLL's. */
enum {
    EGDB_DRIVER_TABLE_FULL = -100,   /* too many databases open */
    EGDB_FOPEN_FAIL = -101,          /* the log file cannot be created */
    EGDB_OPEN_FAIL = -102,           /* the database cannot be opened (see egdb_last_error) */
    EGDB_IDENTIFY_FAIL = -103,       /* no database recognised in the directory */
    EGDB_BAD_HANDLE = -104,          /* unknown or closed handle */
    EGDB_NULL_INTERNAL_HANDLE = -105,/* kept for compatibility; egdb returns EGDB_BAD_HANDLE */
    EGDB_FEN_ERROR = -106,           /* malformed FEN, Hub position or move text (see egdb_last_error(-1)) */
    EGDB_NOT_WLD_TYPE = -107,        /* the handle holds no win/loss/draw data */
    EGDB_NOT_DISTANCE_TYPE = -108,   /* the handle holds no DTW or MTC data */
    EGDB_LOOKUP_NOT_POSSIBLE = -109, /* too many pieces, a draw, or a missing slice */
    EGDB_NULL_ARGUMENT = -110,       /* a required pointer is NULL */
    EGDB_BAD_ARGUMENT = -111,        /* an argument is out of range (colour, piece counts, index) */
    EGDB_BUFFER_TOO_SMALL = -112,    /* an output buffer is too small; nothing useful was written */
    EGDB_INTERNAL_ERROR = -113,      /* an unexpected failure (I/O error, corrupt data) */
    EGDB_CANCELLED = -114            /* a progress callback asked to stop */
};

/* Database types (egdb_identify, egdb_type). EGDB_NATIVE is egdb's own format. */
enum {
    EGDB_WLD_RUNLEN = 0,
    EGDB_MTC_RUNLEN = 1,
    EGDB_WLD_HUFFMAN = 2,
    EGDB_WLD_TUN_V1 = 3,
    EGDB_WLD_TUN_V2 = 4,
    EGDB_DTW = 5,
    EGDB_NATIVE = 100
};

/* Buffer sizes of the Kingsrow DLL interface. */
enum { EGDB_MAXMOVELEN = 20, EGDB_MAXMOVES = 128, EGDB_MAXFENLEN = 180 };
enum { EGDB_MAX_HANDLES = 64 };

/* ---------------------------------------------------------------------------------------------
 * Kingsrow DLL functions (docs/kingsrow.md §7)
 * ------------------------------------------------------------------------------------------- */

/* Opens the database in `directory` (a Kingsrow set of any type, an egdb native database, a
 * folder with several kinds, e.g. WLD + DTW + MTC, or a Kingsrow installation's top folder
 * holding wld_database, mtc_database and dtw_database; docs/kingsrow.md §8). `directory` may also
 * list several folders separated by ';' ("wld_database;mtc_database;dtw_database", as a Kingsrow
 * installation keeps them): each kind then comes from the first folder holding it (a `directory`
 * that exists as given is never split). `options`: NULL or "" or Kingsrow options
 * such as "maxpieces=6" (N a whole number; anything else after "maxpieces" is refused, where the
 * upstream driver reads it as 0, no limit). `cache_mb`: from 0 to the machine's memory in MiB, the
 * bound of the handle's one cache of decompressed pages and blocks, which every folder and kind it
 * opens shares (egdb_stats' cache_bytes stays within it). Kingsrow WLD files that the driver's rule
 * reads whole at open come out of the same budget, as with the driver, but leave the cache at
 * least min(cache_mb, 10 MiB) (docs/kingsrow.md §8). `logfile`: NULL or "" for no log, else a file truncated now and
 * appended with the driver's messages.
 * Returns a handle (>= 0), or EGDB_DRIVER_TABLE_FULL, EGDB_FOPEN_FAIL, EGDB_OPEN_FAIL, or
 * EGDB_BAD_ARGUMENT (options or cache_mb; egdb_last_error(-1) names which). */
EGDB_API int EGDB_CALL egdb_open(const char *options, int cache_mb, const char *directory, const char *logfile);

/* Closes a handle, after the calls running on it in other threads have returned. Returns 0,
 * EGDB_BAD_HANDLE, or EGDB_BAD_ARGUMENT when called from inside a call on the same handle (a
 * progress callback), which would wait for itself. */
EGDB_API int EGDB_CALL egdb_close(int handle);

/* Identifies the database in `directory` as the Kingsrow driver does (plus EGDB_NATIVE).
 * Returns 0 and sets *egdb_type and *max_pieces, or EGDB_IDENTIFY_FAIL (outputs untouched). */
EGDB_API int EGDB_CALL egdb_identify(const char *directory, int *egdb_type, int *max_pieces);

/* The stored value of a position, as upstream (docs/kingsrow.md §3: in Kingsrow sets the stored
 * value of a position whose side to move must capture is arbitrary; use the lookup with search
 * for a true value): EGDB_WIN/LOSS/DRAW..., EGDB_UNKNOWN for positions the format does not
 * store, EGDB_SUBDB_UNAVAILABLE, and with cl != 0
 * EGDB_NOT_IN_CACHE instead of reading the disk. For an MTC handle: the MTC (see above). For a
 * DTW handle: floor(DTW plies / 2). Errors: EGDB_BAD_HANDLE, EGDB_NULL_ARGUMENT, EGDB_BAD_ARGUMENT. */
EGDB_API int EGDB_CALL egdb_lookup(int handle, const EgdbPosition *pos, int color, int cl);
EGDB_API int EGDB_CALL egdb_lookup_fen(int handle, const char *fen, int cl);

/* The true win/loss/draw value of any position with at most the database's pieces: captures,
 * excluded sides and unstored positions resolved by search (docs/kingsrow.md §4, no time limit).
 * Returns EGDB_WIN, EGDB_LOSS, EGDB_DRAW, or an error (EGDB_NOT_WLD_TYPE,
 * EGDB_LOOKUP_NOT_POSSIBLE when the position has too many pieces or a slice is missing). */
EGDB_API int EGDB_CALL egdb_lookup_with_search(int handle, const EgdbPosition *pos, int color);
EGDB_API int EGDB_CALL egdb_lookup_fen_with_search(int handle, const char *fen);

/* All legal moves of a won or lost position with their distances, best first (docs/kingsrow.md §5).
 * handle_dist may be a DTW handle (distances: plies to the end of the game, counting the move) or
 * an MTC handle (the successor's MTC). handle_wld must hold WLD data (it may be the same handle
 * as handle_dist when one directory holds both). Returns the number of entries, or
 * EGDB_LOOKUP_NOT_POSSIBLE (draws, too many pieces, missing data), EGDB_NOT_WLD_TYPE,
 * EGDB_NOT_DISTANCE_TYPE, EGDB_FEN_ERROR. A move longer than 19 characters is written in its
 * short form from x to (use egdb_best_moves for full paths). */
EGDB_API int EGDB_CALL egdb_lookup_distance(int handle_wld, int handle_dist, const char *fen,
                                            int distances[EGDB_MAXMOVES], char moves[EGDB_MAXMOVES][EGDB_MAXMOVELEN]);

/* The positions after every legal move, in the Kingsrow generator's order. Returns the count
 * (at most EGDB_MAXMOVES), or EGDB_NULL_ARGUMENT / EGDB_BAD_ARGUMENT. */
EGDB_API int EGDB_CALL get_movelist(const EgdbPosition *pos, int color, EgdbPosition movelist[EGDB_MAXMOVES]);

/* -1 if the side to move has a capture, 0 if not (a 16-bit VBA Boolean). */
EGDB_API int16_t EGDB_CALL is_capture(const EgdbPosition *pos, int color);

/* Positions in a slice (docs/kingsrow.md §2), or EGDB_BAD_ARGUMENT. */
EGDB_API int64_t EGDB_CALL getdatabasesize_slice(int nbm, int nbk, int nwm, int nwk);

/* The position with a given index in a slice (no colour reversal). An index out of range or
 * bad counts leave *pos zeroed (egdb_last_error(-1) says why). */
EGDB_API void EGDB_CALL indextoposition(int64_t index, EgdbPosition *pos, int nbm, int nbk, int nwm, int nwk);

/* The index of a position in the given slice, or EGDB_BAD_ARGUMENT when the counts do not match
 * the position. */
EGDB_API int64_t EGDB_CALL positiontoindex(const EgdbPosition *pos, int nbm, int nbk, int nwm, int nwk);

/* -1 when the position is won and exactly one move wins (then *sharp is the position after it),
 * 0 otherwise; negative error codes as egdb_lookup_with_search. */
EGDB_API int16_t EGDB_CALL is_sharp_win(int handle, const EgdbPosition *pos, int color, EgdbPosition *sharp);

/* The PDN move from `from` to `to` (docs/kingsrow.md §6) into `out` (at least 128 bytes), returns its length;
 * 0 and "" if `to` is not a legal successor. */
EGDB_API int EGDB_CALL move_string(const EgdbPosition *from, const EgdbPosition *to, int color, char *out);

/* FEN of a position (docs/kingsrow.md §6) into fen[EGDB_MAXFENLEN]; returns the length. */
EGDB_API int EGDB_CALL positiontofen(const EgdbPosition *pos, int color, char fen[EGDB_MAXFENLEN]);

/* Parses a FEN: 0, or EGDB_FEN_ERROR (message in egdb_last_error(-1)); outputs untouched on error. */
EGDB_API int EGDB_CALL fentoposition(const char *fen, EgdbPosition *pos, int *color);

/* ---------------------------------------------------------------------------------------------
 * egdb additions
 * ------------------------------------------------------------------------------------------- */

/* "MAJOR.MINOR.PATCH" of this library. */
EGDB_API const char *EGDB_CALL egdb_version(void);

/* A description of the last failed call that this thread made on `handle`, or, for handle -1,
 * of the last failed call on this thread that had no valid handle (open, FEN parsing, indexing).
 * Errors are kept per thread: lookups on one handle may run on many threads, and each thread
 * reads its own failure. "" when there was none. The string stays valid until this thread's next
 * call of egdb_last_error. */
EGDB_API const char *EGDB_CALL egdb_last_error(int handle);

/* Type (EGDB_* type constant of its WLD data, else of its distance data) and piece limit. */
EGDB_API int EGDB_CALL egdb_type(int handle);
EGDB_API int EGDB_CALL egdb_max_pieces(int handle);

/* What one probe tells about a position (values for the side to move, distances in plies). */
typedef struct EgdbProbe {
    int wld;       /* EGDB_WIN, EGDB_LOSS or EGDB_DRAW */
    int dtw;       /* plies to the end of the game, -1 if unknown or a draw */
    int mtc;       /* plies to the next conversion, -1 if unknown or a draw */
    char best[128];/* best move in PDN, "" if there is none */
} EgdbProbe;

/* Probes a position or a FEN: WLD with search, DTW and MTC when the handle holds them, the best
 * move. Returns 0 or an error (EGDB_LOOKUP_NOT_POSSIBLE, EGDB_FEN_ERROR, ...). */
EGDB_API int EGDB_CALL egdb_probe(int handle, const EgdbPosition *pos, int color, EgdbProbe *out);
EGDB_API int EGDB_CALL egdb_probe_fen(int handle, const char *fen, EgdbProbe *out);

/* A legal move with the distance it leads to (see egdb_lookup_distance). */
typedef struct EgdbMoveDistance {
    char move[128];      /* PDN, full capture path where ambiguous */
    int distance;        /* plies (DTW counts the move itself, MTC as egdb_lookup_distance) */
    int wld;             /* the value for the side to move after choosing this move */
    EgdbPosition after;  /* the position after the move */
} EgdbMoveDistance;

/* Every legal move with its value and distance, best first. kind: 0 = DTW, 1 = MTC. Returns the
 * number of entries (at most `capacity`) or an error. Draw moves have distance -1. */
EGDB_API int EGDB_CALL egdb_best_moves(int handle, const char *fen, int kind, EgdbMoveDistance *out, int capacity);

/* Principal variation (DTW: to the end of the game) as space-separated PDN moves in out[size].
 * Returns its length, or EGDB_BUFFER_TOO_SMALL, EGDB_LOOKUP_NOT_POSSIBLE (draw, no DTW data). */
EGDB_API int EGDB_CALL egdb_pv(int handle, const char *fen, char *out, int size);

/* WLD with search of `count` positions at once (for the bindings: one call, no per-position
 * overhead). results[i] gets what egdb_lookup_with_search would return for positions[i] and
 * colors[i]. Returns `count` or an error for the whole call. */
EGDB_API int EGDB_CALL egdb_lookup_batch(int handle, const EgdbPosition *positions, const int *colors, int count,
                                         int *results);

/* Counters of a handle since it was opened. */
typedef struct EgdbStats {
    uint64_t lookups;
    uint64_t cache_hits;
    uint64_t cache_misses;
    uint64_t cache_bytes;  /* bytes of blocks/pages held now */
    uint64_t files;        /* database files open */
} EgdbStats;
EGDB_API int EGDB_CALL egdb_stats(int handle, EgdbStats *out);

/* Progress of a long job: return 0 to go on, non-zero to cancel (the job returns EGDB_CANCELLED). */
typedef int(EGDB_CALL *egdb_progress_fn)(void *user, const char *what, int64_t done, int64_t total);

/* Verifies the files of a handle: Kingsrow sets against their published CRCs, native databases
 * page CRCs and one-ply consistency. Returns the number of problems found (0 = all good) or an
 * error; egdb_last_error(handle) describes the first problems. */
EGDB_API int EGDB_CALL egdb_verify(int handle, egdb_progress_fn progress, void *user);

/* Solves every endgame with at most `pieces` pieces into a native database in `directory`
 * (resuming an interrupted build), verifying it unless `verify` is 0. `threads`: 0 for every core.
 * `kinds`: NULL or a
 * comma-separated subset of "wld,dtw,mtc". Returns 0 or an error. */
EGDB_API int EGDB_CALL egdb_build(const char *directory, int pieces, int threads, const char *kinds, int verify,
                                  egdb_progress_fn progress, void *user);

/* ---------------------------------------------------------------------------------------------
 * The notations of the Hub protocol (Scan's protocol.txt), and a signed value
 * ------------------------------------------------------------------------------------------- */

/* A Hub position string with its terminating NUL: the side to move ('W' or 'B') and one
 * character per square 1..50: 'w' white man, 'b' black man, 'W' white king, 'B' black king,
 * 'e' empty. The start position is "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww". */
enum { EGDB_HUBLEN = 52 };

/* Move notations of egdb_move_text. PDN: "32-28", "28x19", the full path "26x37x48" only where
 * two captures share their start and end squares (docs/kingsrow.md §6, as move_string). HUB: "32-28", and a
 * capture as from, to and every captured square in ascending order: "28x19x23". */
enum { EGDB_NOTATION_PDN = 0, EGDB_NOTATION_HUB = 1 };

/* The Hub position string of a position into hub[EGDB_HUBLEN]. Returns its length (51), or
 * EGDB_NULL_ARGUMENT, EGDB_BAD_ARGUMENT (colour). Thread-safe, no open database needed. */
EGDB_API int EGDB_CALL egdb_position_to_hub(const EgdbPosition *pos, int color, char hub[EGDB_HUBLEN]);

/* Parses a Hub position string (whitespace around it is skipped; letters in the protocol's case).
 * Returns 0, EGDB_NULL_ARGUMENT, or EGDB_FEN_ERROR with a message naming the character and its
 * byte offset in egdb_last_error(-1); the outputs are untouched on error. */
EGDB_API int EGDB_CALL egdb_hub_to_position(const char *hub, EgdbPosition *pos, int *color);

/* The move that turns `from` into its successor `to` in `notation` (EGDB_NOTATION_PDN or
 * EGDB_NOTATION_HUB) into out[size]. Returns the length; 0 and "" when `to` is not a legal
 * successor; EGDB_BUFFER_TOO_SMALL (out untouched), EGDB_NULL_ARGUMENT or EGDB_BAD_ARGUMENT.
 * 128 bytes always suffice. */
EGDB_API int EGDB_CALL egdb_move_text(const EgdbPosition *from, const EgdbPosition *to, int color, int notation,
                                      char *out, int size);

/* The position after the legal move `move` of `color`, written in PDN ("32-28", "28x19",
 * "26x37x48") or in Hub notation ("28x19x23", captured squares in any order), told apart by the
 * number of squares a capture names. Returns 0 and sets *after; EGDB_NULL_ARGUMENT,
 * EGDB_BAD_ARGUMENT (colour, or a position that is not well formed), or EGDB_FEN_ERROR when the
 * text is malformed or matches no legal move (egdb_last_error(-1) names the token, for Hub text
 * with its byte offset, and lists the legal moves); *after is untouched on error. */
EGDB_API int EGDB_CALL egdb_parse_move(const EgdbPosition *pos, int color, const char *move, EgdbPosition *after);

/* The signed value of a win/loss/draw code, as python-chess and Syzygy tools read it: +1 for
 * EGDB_WIN, 0 for EGDB_DRAW, -1 for EGDB_LOSS (for the side to move, like the code). Any other
 * number (EGDB_UNKNOWN, the partial values, errors) gives EGDB_BAD_ARGUMENT, which no sign equals. */
EGDB_API int EGDB_CALL egdb_wdl(int value);

#ifdef __cplusplus
}
#endif

#endif /* EGDB_H */
