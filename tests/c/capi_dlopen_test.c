/* Loads the egdb shared library at run time with dlopen/dlsym, as a program in any language with
 * a C FFI would, and probes a database built through it.
 * Usage: egdb_capi_dlopen_test LIBRARY SCRATCH_DIR. Prints "N passed, M failed". */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "capi/egdb.h"

typedef int (*build_fn)(const char *, int, int, const char *, int, egdb_progress_fn, void *);
typedef int (*open_fn)(const char *, int, const char *, const char *);
typedef int (*close_fn)(int);
typedef int (*lookup_fen_fn)(int, const char *);
typedef const char *(*version_fn)(void);

int main(int argc, char **argv) {
    int passed = 0, failed = 0, handle;
    void *lib;
    build_fn build;
    open_fn open_db;
    close_fn close_db;
    lookup_fen_fn lookup;
    version_fn version;
    if (argc < 3) {
        fprintf(stderr, "usage: %s LIBRARY SCRATCH_DIR\n", argv[0]);
        return 2;
    }
    lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        fprintf(stderr, "dlopen failed: %s\n0 passed, 1 failed\n", dlerror());
        return 1;
    }
    build = (build_fn)dlsym(lib, "egdb_build");
    open_db = (open_fn)dlsym(lib, "egdb_open");
    close_db = (close_fn)dlsym(lib, "egdb_close");
    lookup = (lookup_fen_fn)dlsym(lib, "egdb_lookup_fen_with_search");
    version = (version_fn)dlsym(lib, "egdb_version");
#define CHECK(c) ((c) ? ++passed : (++failed, fprintf(stderr, "CHECK failed: %s\n", #c)))
    CHECK(build && open_db && close_db && lookup && version);
    if (failed == 0) {
        CHECK(strlen(version()) > 0);
        CHECK(build(argv[2], 2, 1, "wld", 1, NULL, NULL) == 0);
        handle = open_db("", 8, argv[2], "");
        CHECK(handle >= 0);
        /* One king each off the long diagonal: a draw; on it, the side to move must step into the
         * other king's capture. A side that takes the last enemy piece wins. */
        CHECK(lookup(handle, "W:WK1:BK50") == EGDB_DRAW);
        CHECK(lookup(handle, "W:WK46:BK5") == EGDB_LOSS);
        CHECK(lookup(handle, "W:W28:B23") == EGDB_WIN);
        CHECK(lookup(handle, "B:W28:B23") == EGDB_WIN);
        CHECK(lookup(handle, "W:W31-50:B1-20") == EGDB_LOOKUP_NOT_POSSIBLE);
        CHECK(close_db(handle) == 0);
    }
    dlclose(lib);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
