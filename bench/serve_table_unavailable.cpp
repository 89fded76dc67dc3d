// `egdb bench serve` in a program built without the HTTP server (EGDB_HTTP=OFF): it says why.
#include "bench/serve_table.hpp"

#include "core/util/error.hpp"

namespace egdb::bench {

void print_serve_benchmark(std::ostream&, const ServeBenchOptions&) {
    throw RuntimeError(ErrorKind::Unsupported,
                       "this egdb was built without the HTTP server (EGDB_HTTP=OFF): egdb bench serve needs the egdb of "
                       "the install prefix or one built from source");
}

}  // namespace egdb::bench
