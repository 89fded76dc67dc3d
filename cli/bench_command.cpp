#include <iostream>
#include <string>

#include "bench/build_table.hpp"
#include "bench/index_table.hpp"
#include "bench/perft_table.hpp"
#include "bench/probe_table.hpp"
#include "cli/command.hpp"
#include "core/index/slice.hpp"

namespace egdb::cli {

int run_bench(Args args) {
    constexpr const char* kHelp =
        "usage: egdb bench index [--seconds S]\n"
        "       egdb bench perft [--depth D] [--threads N]\n"
        "       egdb bench build [--pieces N] [--threads N]\n"
        "       egdb bench probe --db DIR [--pieces N] [--seconds S] [--small-cache-mb M]\n"
        "Prints speed tables; each row is compared with a baseline measured in the same run.\n"
        "  index   position <-> index rates on the largest material of 2..7 pieces (single thread)\n"
        "  perft   leaves per second on the start position (depth D, default 11) and the upstream\n"
        "          perft positions, single thread, plus one row with N threads (default 2)\n"
        "  build   solves every slice up to N pieces (default 4) in memory: seconds, positions/s,\n"
        "          peak memory per slice\n"
        "  probe   lookups per second on random positions of a database (native or Kingsrow): raw and\n"
        "          with search, single calls and batches of 256, 1 and 2 threads, warm and small cache,\n"
        "          against dependent memory loads over the same bytes; bytes per position\n";
    if (args.empty() || wants_help(args)) {
        std::cout << kHelp;
        return args.empty() ? kExitBadInput : kExitOk;
    }
    const std::string_view what = args[0];
    if (what == "perft") {
        bench::PerftBenchOptions options;
        for (std::size_t i = 1; i < args.size(); ++i) {
            if (args[i] == "--depth" && i + 1 < args.size()) {
                options.start_depth = static_cast<int>(parse_integer(args[++i], "--depth", 1, 14));
            } else if (args[i] == "--threads" && i + 1 < args.size()) {
                options.threads = static_cast<int>(parse_integer(args[++i], "--threads", 1, 256));
            } else {
                throw UsageError("unexpected argument \"" + std::string(args[i]) + "\"\n" + kHelp);
            }
        }
        bench::print_perft_benchmark(std::cout, options);
        return kExitOk;
    }
    if (what == "build") {
        bench::BuildBenchOptions options;
        for (std::size_t i = 1; i < args.size(); ++i) {
            if (args[i] == "--pieces" && i + 1 < args.size()) {
                options.max_pieces = static_cast<int>(parse_integer(args[++i], "--pieces", 2, 2 * kMaxPiecesPerSide));
            } else if (args[i] == "--threads" && i + 1 < args.size()) {
                options.threads = static_cast<int>(parse_integer(args[++i], "--threads", 1, 256));
            } else {
                throw UsageError("unexpected argument \"" + std::string(args[i]) + "\"\n" + kHelp);
            }
        }
        bench::print_build_benchmark(std::cout, options);
        return kExitOk;
    }
    if (what == "probe") {
        bench::ProbeBenchOptions options;
        for (std::size_t i = 1; i < args.size(); ++i) {
            if (args[i] == "--db" && i + 1 < args.size()) {
                options.directory = std::string(args[++i]);
            } else if (args[i] == "--pieces" && i + 1 < args.size()) {
                options.pieces = static_cast<int>(parse_integer(args[++i], "--pieces", 2, 2 * kMaxPiecesPerSide));
            } else if (args[i] == "--seconds" && i + 1 < args.size()) {
                options.seconds = static_cast<double>(parse_integer(args[++i], "--seconds", 1, 600));
            } else if (args[i] == "--small-cache-mb" && i + 1 < args.size()) {
                options.small_cache_mb = static_cast<std::size_t>(parse_integer(args[++i], "--small-cache-mb", 1, 1 << 16));
            } else {
                throw UsageError("unexpected argument \"" + std::string(args[i]) + "\"\n" + kHelp);
            }
        }
        if (options.directory.empty()) throw UsageError(std::string("bench probe needs --db DIR\n") + kHelp);
        bench::print_probe_benchmark(std::cout, options);
        return kExitOk;
    }
    if (what == "index") {
        double seconds = 1.0;
        for (std::size_t i = 1; i < args.size(); ++i) {
            if (args[i] == "--seconds" && i + 1 < args.size()) {
                seconds = static_cast<double>(parse_integer(args[++i], "--seconds", 1, 600));
            } else {
                throw UsageError("unexpected argument \"" + std::string(args[i]) + "\"\n" + kHelp);
            }
        }
        bench::print_index_benchmark(std::cout, seconds);
        return kExitOk;
    }
    throw UsageError("unknown benchmark \"" + std::string(what) + "\"\n" + kHelp);
}

}  // namespace egdb::cli
