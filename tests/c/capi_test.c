/* The C ABI used from C (compiled as C11, not C++), through egdb.h only.
 * Usage: egdb_capi_test SCRATCH_DIR [KINGSROW_EXAMPLE_WLD_FILE]
 * Builds a 3-piece database with egdb_build, then checks the Kingsrow DLL functions and the
 * additions, including every documented error. Prints "N passed, M failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi/egdb.h"

static int passed = 0, failed = 0;

#define CHECK(cond)                                                                 \
    do {                                                                            \
        if (cond) {                                                                 \
            ++passed;                                                               \
        } else {                                                                    \
            ++failed;                                                               \
            fprintf(stderr, "%s:%d: CHECK failed: %s (last error: %s)\n", __FILE__, \
                    __LINE__, #cond, egdb_last_error(-1));                           \
        }                                                                           \
    } while (0)

static int count_progress_calls = 0;
static int EGDB_CALL on_progress(void *user, const char *what, int64_t done, int64_t total) {
    (void)user;
    (void)what;
    (void)done;
    (void)total;
    ++count_progress_calls;
    return 0;
}

static void test_stateless(void) {
    EgdbPosition start, after[EGDB_MAXMOVES], p;
    int color = -1, n, i;
    char fen[EGDB_MAXFENLEN], move[128];

    CHECK(strlen(egdb_version()) > 0);
    CHECK(fentoposition("W:W31-50:B1-20", &start, &color) == 0);
    CHECK(color == EGDB_WHITE);
    CHECK(positiontofen(&start, color, fen) > 0 && strcmp(fen, "W:W31-50:B1-20") == 0);
    n = get_movelist(&start, EGDB_WHITE, after);
    CHECK(n == 9);
    CHECK(move_string(&start, &after[0], EGDB_WHITE, move) > 0 && strcmp(move, "31-27") == 0);
    CHECK(move_string(&start, &start, EGDB_WHITE, move) == 0 && move[0] == '\0');
    CHECK(is_capture(&start, EGDB_WHITE) == 0);
    CHECK(fentoposition("W:W28:B23", &p, &color) == 0 && is_capture(&p, EGDB_WHITE) == -1);

    /* Indexing works without any open database (unlike upstream). */
    CHECK(getdatabasesize_slice(0, 1, 0, 1) == 2450);
    CHECK(getdatabasesize_slice(1, 0, 1, 0) == 1985);
    CHECK(fentoposition("B:WK50:BK23", &p, &color) == 0);
    CHECK(positiontoindex(&p, 0, 1, 0, 1) == 1126);
    indextoposition(1126, &after[0], 0, 1, 0, 1);
    CHECK(memcmp(&after[0], &p, sizeof p) == 0);
    for (i = 0; i < 1985; i += 7) {
        indextoposition(i, &p, 1, 0, 1, 0);
        CHECK(positiontoindex(&p, 1, 0, 1, 0) == i);
    }

    /* Errors. */
    CHECK(fentoposition("W:W31-51:B1-20", &p, &color) == EGDB_FEN_ERROR);
    CHECK(strstr(egdb_last_error(-1), "51") != NULL);
    CHECK(fentoposition(NULL, &p, &color) == EGDB_NULL_ARGUMENT);
    CHECK(get_movelist(NULL, 0, after) == EGDB_NULL_ARGUMENT);
    CHECK(get_movelist(&start, 2, after) == EGDB_BAD_ARGUMENT);
    CHECK(getdatabasesize_slice(6, 0, 0, 1) == EGDB_BAD_ARGUMENT);
    CHECK(positiontoindex(&start, 0, 1, 0, 1) == EGDB_BAD_ARGUMENT);
    indextoposition(2450, &p, 0, 1, 0, 1);
    CHECK(p.black == 0 && p.white == 0 && p.king == 0);
}

/* The notations of other draughts software: FEN dialects, Hub positions and moves, signed WDL. */
static void test_notations(void) {
    EgdbPosition start, p, after, expected;
    int color = -1;
    char hub[EGDB_HUBLEN], move[128], tiny[4];
    static const char *start_hub = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"; /* protocol.txt */

    CHECK(fentoposition("W:W31-50:B1-20", &start, &color) == 0);
    CHECK(fentoposition("W:W31-50:B1-20:H0:F1", &p, &color) == 0 && memcmp(&p, &start, sizeof p) == 0);
    CHECK(fentoposition("[FEN \"W:W31-50:B1-20\"]", &p, &color) == 0 && memcmp(&p, &start, sizeof p) == 0);
    CHECK(fentoposition("W:W31-50:B1-20:H0:Fx", &p, &color) == EGDB_FEN_ERROR);
    CHECK(strstr(egdb_last_error(-1), "\"Fx\" at byte 18") != NULL);

    CHECK(egdb_position_to_hub(&start, EGDB_WHITE, hub) == 51 && strcmp(hub, start_hub) == 0);
    color = -1;
    CHECK(egdb_hub_to_position(start_hub, &p, &color) == 0 && color == EGDB_WHITE);
    CHECK(memcmp(&p, &start, sizeof p) == 0);
    CHECK(egdb_hub_to_position("wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww", &p, &color) == EGDB_FEN_ERROR);
    CHECK(strstr(egdb_last_error(-1), "at byte 0") != NULL);
    CHECK(egdb_hub_to_position(NULL, &p, &color) == EGDB_NULL_ARGUMENT);
    CHECK(egdb_position_to_hub(&start, 3, hub) == EGDB_BAD_ARGUMENT);

    /* protocol.txt's capture: after 32-28 19-23, 28x19x23. */
    CHECK(fentoposition("W:W28,31,33-50:B1-18,20,23", &p, &color) == 0);
    CHECK(fentoposition("B:W19,31,33-50:B1-18,20", &expected, &color) == 0);
    CHECK(egdb_parse_move(&p, EGDB_WHITE, "28x19x23", &after) == 0 && memcmp(&after, &expected, sizeof after) == 0);
    CHECK(egdb_parse_move(&p, EGDB_WHITE, "28x19", &after) == 0 && memcmp(&after, &expected, sizeof after) == 0);
    CHECK(egdb_move_text(&p, &expected, EGDB_WHITE, EGDB_NOTATION_HUB, move, sizeof move) == 8);
    CHECK(strcmp(move, "28x19x23") == 0);
    CHECK(egdb_move_text(&p, &expected, EGDB_WHITE, EGDB_NOTATION_PDN, move, sizeof move) == 5);
    CHECK(strcmp(move, "28x19") == 0);
    CHECK(egdb_move_text(&p, &p, EGDB_WHITE, EGDB_NOTATION_HUB, move, sizeof move) == 0 && move[0] == '\0');
    CHECK(egdb_move_text(&p, &expected, EGDB_WHITE, EGDB_NOTATION_HUB, tiny, sizeof tiny) == EGDB_BUFFER_TOO_SMALL);
    CHECK(egdb_move_text(&p, &expected, EGDB_WHITE, 2, move, sizeof move) == EGDB_BAD_ARGUMENT);
    CHECK(egdb_parse_move(&p, EGDB_WHITE, "28x19x24", &after) == EGDB_FEN_ERROR);
    CHECK(strstr(egdb_last_error(-1), "legal moves for White: 28x19x23") != NULL);
    CHECK(egdb_parse_move(&p, EGDB_WHITE, "28x19x51", &after) == EGDB_FEN_ERROR);
    CHECK(strstr(egdb_last_error(-1), "\"51\" at byte 6") != NULL);
    CHECK(egdb_parse_move(&p, EGDB_WHITE, NULL, &after) == EGDB_NULL_ARGUMENT);

    CHECK(egdb_wdl(EGDB_WIN) == 1 && egdb_wdl(EGDB_DRAW) == 0 && egdb_wdl(EGDB_LOSS) == -1);
    CHECK(egdb_wdl(EGDB_UNKNOWN) == EGDB_BAD_ARGUMENT && egdb_wdl(EGDB_WIN_OR_DRAW) == EGDB_BAD_ARGUMENT);
}

static void test_database(const char *dir, const char *oracle) {
    int handle, type = -1, pieces = -1, n, i, checked = 0;
    EgdbPosition p, sharp;
    int color;
    EgdbProbe probe;
    EgdbMoveDistance moves[EGDB_MAXMOVES];
    int distances[EGDB_MAXMOVES];
    char names[EGDB_MAXMOVES][EGDB_MAXMOVELEN];
    char pv[1024];
    EgdbStats stats;
    EgdbPosition batch[3];
    int colors[3], results[3];

    CHECK(egdb_build(dir, 3, 2, NULL, 1, on_progress, NULL) == 0);
    CHECK(count_progress_calls > 0);
    CHECK(egdb_identify(dir, &type, &pieces) == 0 && type == EGDB_NATIVE && pieces == 3);
    CHECK(egdb_identify("/nonexistent/egdb", &type, &pieces) == EGDB_IDENTIFY_FAIL);

    handle = egdb_open("", 16, dir, "");
    CHECK(handle >= 0);
    CHECK(egdb_max_pieces(handle) == 3);

    /* Every position of up to 3 pieces in the Kingsrow oracle. */
    if (oracle != NULL) {
        FILE *f = fopen(oracle, "r");
        char line[256], fen[200], value[32];
        if (f == NULL) {
            printf("SKIPPED oracle check: cannot read %s\n", oracle);
        } else {
            while (fgets(line, sizeof line, f) != NULL) {
                int expected, got;
                if (line[0] == '#' || sscanf(line, "%199s %31s", fen, value) != 2) continue;
                if (fentoposition(fen, &p, &color) != 0) continue;
                {
                    int k, count = 0;
                    for (k = 0; k < 64; ++k) count += (int)(((p.black | p.white) >> k) & 1u);
                    if (count > 3) continue;
                }
                expected = strcmp(value, "win") == 0 ? EGDB_WIN : strcmp(value, "loss") == 0 ? EGDB_LOSS : EGDB_DRAW;
                got = egdb_lookup_fen_with_search(handle, fen);
                CHECK(got == expected);
                if (got != expected) fprintf(stderr, "  %s: expected %s, got %d\n", fen, value, got);
                ++checked;
            }
            fclose(f);
            CHECK(checked >= 18);
        }
    }

    /* Plain lookup: a capture position is not stored (EGDB_UNKNOWN), search resolves it. */
    CHECK(fentoposition("W:W28:BK23", &p, &color) == 0);
    CHECK(egdb_lookup(handle, &p, EGDB_WHITE, 0) == EGDB_UNKNOWN);
    CHECK(egdb_lookup_with_search(handle, &p, EGDB_WHITE) == EGDB_WIN);

    /* Probe, distances, principal variation: each listed DTW is one more than the successor's. */
    CHECK(egdb_probe_fen(handle, "B:W28:BK26", &probe) == 0);
    CHECK(probe.wld == EGDB_WIN && probe.dtw > 0 && probe.best[0] != '\0');
    n = egdb_lookup_distance(handle, handle, "B:W28:BK26", distances, names);
    CHECK(n > 0);
    CHECK(n > 0 && distances[0] == probe.dtw);
    n = egdb_best_moves(handle, "B:W28:BK26", 0, moves, EGDB_MAXMOVES);
    CHECK(n > 0);
    for (i = 0; i < n; ++i) {
        EgdbProbe next;
        if (moves[i].distance < 0) continue;
        CHECK(egdb_probe(handle, &moves[i].after, EGDB_WHITE, &next) == 0);
        CHECK(next.dtw == moves[i].distance - 1);
    }
    CHECK(egdb_pv(handle, "B:W28:BK26", pv, sizeof pv) > 0);
    CHECK(egdb_pv(handle, "B:W28:BK26", pv, 2) == EGDB_BUFFER_TOO_SMALL);
    CHECK(egdb_lookup_distance(handle, handle, "B:WK2:B15,30", distances, names) == EGDB_LOOKUP_NOT_POSSIBLE);

    /* Sharp win: exactly one winning move. */
    CHECK(fentoposition("B:W28:BK26", &p, &color) == 0);
    CHECK(is_sharp_win(handle, &p, color, &sharp) == 0 || is_sharp_win(handle, &p, color, &sharp) == -1);

    /* Batch. */
    CHECK(fentoposition("B:W28:BK26", &batch[0], &colors[0]) == 0);
    CHECK(fentoposition("W:W28:BK26", &batch[1], &colors[1]) == 0);
    CHECK(fentoposition("W:W31-50:B1-20", &batch[2], &colors[2]) == 0);
    CHECK(egdb_lookup_batch(handle, batch, colors, 3, results) == 3);
    CHECK(results[0] == EGDB_WIN && results[1] == EGDB_LOSS && results[2] == EGDB_LOOKUP_NOT_POSSIBLE);

    /* Errors: too many pieces, bad FEN, NULL, bad colour. */
    CHECK(egdb_lookup_fen_with_search(handle, "W:W31-50:B1-20") == EGDB_LOOKUP_NOT_POSSIBLE);
    CHECK(strstr(egdb_last_error(handle), "pieces") != NULL);
    CHECK(egdb_lookup_fen_with_search(handle, "X:W1") == EGDB_FEN_ERROR);
    CHECK(egdb_lookup_with_search(handle, NULL, 0) == EGDB_NULL_ARGUMENT);
    CHECK(egdb_lookup_with_search(handle, &p, 7) == EGDB_BAD_ARGUMENT);
    CHECK(egdb_stats(handle, &stats) == 0 && stats.files == 9);
    CHECK(egdb_verify(handle, NULL, NULL) == 0);

    /* Closed and unknown handles never crash. */
    CHECK(egdb_close(handle) == 0);
    CHECK(egdb_close(handle) == EGDB_BAD_HANDLE);
    CHECK(egdb_lookup_with_search(handle, &p, 0) == EGDB_BAD_HANDLE);
    CHECK(egdb_lookup(-5, &p, 0, 0) == EGDB_BAD_HANDLE);
    CHECK(egdb_lookup(123456, &p, 0, 0) == EGDB_BAD_HANDLE);
    CHECK(egdb_open("", 16, "/nonexistent/egdb", "") == EGDB_OPEN_FAIL);
    CHECK(strlen(egdb_last_error(-1)) > 0);
    CHECK(egdb_open("", 16, dir, "/nonexistent/dir/log.txt") == EGDB_FOPEN_FAIL);

    /* A new handle does not revive the closed one. */
    {
        int h2 = egdb_open("", 16, dir, "");
        CHECK(h2 >= 0 && h2 != handle);
        CHECK(egdb_lookup_with_search(handle, &p, 0) == EGDB_BAD_HANDLE);
        CHECK(egdb_close(h2) == 0);
    }
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s SCRATCH_DIR [ORACLE]\n", argv[0]);
        return 2;
    }
    test_stateless();
    test_notations();
    test_database(argv[1], argc > 2 ? argv[2] : NULL);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
