/* Threads that call egdb.dll and then end, as Excel's calculation threads or a program's worker
 * threads do: each thread makes failing calls (which keep a per-thread error message in the DLL)
 * and successful lookups on a shared handle, then returns. With MinGW-w64's emulated TLS, a
 * thread_local object with a destructor in the DLL would run its destructor on freed memory when
 * its thread ends; this program crashes then instead of printing "N threads ended cleanly".
 * Usage: thread_exit_test.exe DATABASE_DIR */
#include <stdio.h>
#include <string.h>
#include <windows.h>

#include "capi/egdb.h"

static int handle = -1;
static volatile LONG failures = 0;

static DWORD WINAPI worker(LPVOID arg) {
    EgdbPosition pos;
    int color = 0, i;
    (void)arg;
    for (i = 0; i < 50; ++i) {
        if (fentoposition("W:W28:B23x", &pos, &color) != EGDB_FEN_ERROR) InterlockedIncrement(&failures);
        if (strlen(egdb_last_error(-1)) == 0) InterlockedIncrement(&failures);
        if (egdb_lookup_fen_with_search(handle, "B:W28:BK26") != EGDB_WIN) InterlockedIncrement(&failures);
        if (egdb_lookup_fen_with_search(handle, "W:W31-50:B1-20") >= 0) InterlockedIncrement(&failures);
        if (strlen(egdb_last_error(handle)) == 0) InterlockedIncrement(&failures);
    }
    return 0;
}

int main(int argc, char **argv) {
    enum { kThreads = 8, kRounds = 4 };
    HANDLE threads[kThreads];
    int round, t;
    if (argc < 2) {
        fprintf(stderr, "usage: %s DATABASE_DIR\n", argv[0]);
        return 2;
    }
    handle = egdb_open("", 16, argv[1], "");
    if (handle < 0) {
        printf("cannot open %s: %s\n", argv[1], egdb_last_error(-1));
        return 1;
    }
    for (round = 0; round < kRounds; ++round) {
        for (t = 0; t < kThreads; ++t) threads[t] = CreateThread(NULL, 0, worker, NULL, 0, NULL);
        WaitForMultipleObjects(kThreads, threads, TRUE, INFINITE);
        for (t = 0; t < kThreads; ++t) CloseHandle(threads[t]);
    }
    egdb_close(handle);
    if (failures != 0) {
        printf("%ld calls gave unexpected results\n", (long)failures);
        return 1;
    }
    printf("%d threads ended cleanly\n", kThreads * kRounds);
    return 0;
}
