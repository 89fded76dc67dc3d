// Builds the 3-piece database with the C++ library and probes one position: a C++ program
// compiled only against the installed headers and libegdb.a (find_package(egdb) -> egdb::egdb).
#include <cstdio>
#include <exception>

#include <egdb/core/notation/fen.hpp>
#include <egdb/core/probe/database.hpp>
#include <egdb/core/workflow/build.hpp>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: probe_cpp DIRECTORY\n");
        return 2;
    }
    try {
        egdb::workflow::BuildRequest request;
        request.pieces = 3;
        request.out = argv[1];
        request.resources.threads = 2;
        if (!egdb::workflow::build_database(request).ok()) {
            std::fprintf(stderr, "the build did not verify\n");
            return 1;
        }
        const auto database = egdb::Database::open(argv[1]);
        const egdb::FenPosition fen = egdb::parse_fen("B:W28:BK26");
        const auto dtw = database->dtw(fen.position, fen.side_to_move);
        const bool win = database->wld(fen.position, fen.side_to_move) == egdb::WldValue::Win;
        std::printf("c++: %s in %d plies\n", win ? "win" : "not a win", dtw.value_or(-1));
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "probe_cpp: %s\n", e.what());
        return 1;
    }
}
