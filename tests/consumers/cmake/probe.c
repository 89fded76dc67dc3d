/* Probes one position through the C interface: a C program compiled against the installed
 * egdb.h and linked with libegdb (find_package(egdb) -> egdb::egdb_c, or pkg-config egdb). */
#include <stdio.h>

#include <egdb/egdb.h>

int main(int argc, char **argv) {
    EgdbProbe probe;
    int handle;
    if (argc != 2) {
        fprintf(stderr, "usage: probe_c DIRECTORY\n");
        return 2;
    }
    if (egdb_build(argv[1], 3, 2, "wld,dtw,mtc", 1, NULL, NULL) != 0) {
        fprintf(stderr, "build failed: %s\n", egdb_last_error(-1));
        return 1;
    }
    handle = egdb_open("", 64, argv[1], "");
    if (handle < 0) {
        fprintf(stderr, "cannot open: %s\n", egdb_last_error(-1));
        return 1;
    }
    if (egdb_probe_fen(handle, "B:W28:BK26", &probe) != 0) {
        fprintf(stderr, "probe failed: %s\n", egdb_last_error(handle));
        egdb_close(handle);
        return 1;
    }
    printf("c %s: %s in %d plies, best move %s\n", egdb_version(), probe.wld == EGDB_WIN ? "win" : "not a win",
           probe.dtw, probe.best);
    egdb_close(handle);
    return 0;
}
