// `egdb bench index|perft|build|probe|serve`: the speed tables of bench/, one subcommand each.
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>

#include "bench/build_table.hpp"
#include "bench/index_table.hpp"
#include "bench/kings_only_table.hpp"
#include "bench/perft_table.hpp"
#include "bench/probe_table.hpp"
#include "bench/serve_table.hpp"
#include "cli/command.hpp"
#include "core/index/slice.hpp"
#include "core/workflow/build.hpp"

namespace egdb::cli {
namespace {

struct Benchmark {
    const char* name;
    const char* arguments;
    const char* description;  // continuation lines indented to the column of the first
};

constexpr Benchmark kBenchmarks[] = {
    {"index", "[--seconds S]", "position <-> index rates on the largest material of 2..7 pieces (single thread)\n"},
    {"perft", "[--depth D] [--threads N]",
     "leaves per second on the start position (depth D, default 11) and the upstream\n"
     "          perft positions, single thread, plus one row with N threads (default 2)\n"},
    {"build", "[--pieces N] [--threads N]",
     "solves every slice up to N pieces (default 4) in memory: seconds, positions/s,\n"
     "          peak memory per slice\n"},
    {"kings-only", "[--slice S] [--threads N]",
     "solves slice S without men (default 0302) after its successors, with BlockSolver's\n"
     "          entry states (the baseline) and in place: seconds, positions/s, ratio, memory,\n"
     "          same bytes\n"},
    {"probe", "--db DIR [--pieces N] [--seconds S] [--small-cache-mb M]",
     "lookups per second on random positions of a database (native or Kingsrow): raw and\n"
     "          with search, single calls and batches of 256, 1 and 2 threads, warm and small cache,\n"
     "          against dependent memory loads over the same bytes; bytes per position\n"},
    {"serve", "--db DIR [--pieces N] [--positions N] [--requests N] [--seconds S] [--clients 1,8,64]\n"
              "                   [--cache-mb M] [--server-threads T] [--fens-out FILE]",
     "requests per second and p50/p90/p99 latency of GET /international on loopback for\n"
     "          random positions, with 1, 8 and 64 keep-alive clients, beside the same reports\n"
     "          made offline (egdb probe --json --moves); each row bounded in requests and time\n"},
};

// The help of `egdb bench` (every benchmark) or, given its name, of one benchmark.
std::string help_text(std::string_view only = {}) {
    std::string usage, rows;
    for (const Benchmark& b : kBenchmarks) {
        if (!only.empty() && only != b.name) continue;
        usage += std::string(usage.empty() ? "usage: " : "       ") + "egdb bench " + b.name + " " + b.arguments + "\n";
        rows += std::string("  ") + b.name + "   " + b.description;
    }
    return usage + "Prints speed tables; each row is compared with a baseline measured in the same run.\n" + rows;
}

// Adds benchmark `name`; `print` writes its table with the options its own parser filled in.
template <class Options, class Print>
CLI::App& add_benchmark(CLI::App& benchmarks, const char* name, std::shared_ptr<Options> options, Print print) {
    return add_command(benchmarks, name, help_text(name), [options, print] {
        print(std::cout, *options);
        return kExitOk;
    });
}

}  // namespace

void add_bench(CLI::App& app) {
    CLI::App& benchmarks = add_command(app, "bench", help_text(), nullptr);
    benchmarks.require_subcommand(0, 1);
    // `egdb bench` alone. Checked here rather than by require_subcommand(1), whose message ("A
    // subcommand is required") names nothing, and which would be reported instead of the word
    // on `egdb bench frobnicate` that names no benchmark.
    benchmarks.callback([&benchmarks] {
        if (benchmarks.get_subcommands().empty()) throw CLI::RequiredError("a benchmark (index, perft, build, kings-only, probe or serve)");
    });

    const auto index_seconds = std::make_shared<double>(1.0);
    CLI::App& index = add_benchmark(benchmarks, "index", index_seconds, bench::print_index_benchmark);
    add_integer(index, "--seconds", *index_seconds, 1, 600);

    const auto perft_options = std::make_shared<bench::PerftBenchOptions>();
    CLI::App& perft = add_benchmark(benchmarks, "perft", perft_options, bench::print_perft_benchmark);
    add_integer(perft, "--depth", perft_options->start_depth, 1, 14);
    add_integer(perft, "--threads", perft_options->threads, 1, 256);

    const auto build_options = std::make_shared<bench::BuildBenchOptions>();
    CLI::App& build = add_benchmark(benchmarks, "build", build_options, bench::print_build_benchmark);
    add_integer(build, "--pieces", build_options->max_pieces, 2, 2 * kMaxPiecesPerSide);
    add_integer(build, "--threads", build_options->threads, 1, 256);

    const auto kings_options = std::make_shared<bench::KingsOnlyBenchOptions>();
    CLI::App& kings = add_benchmark(benchmarks, "kings-only", kings_options, bench::print_kings_only_benchmark);
    kings.add_option_function<std::string>("--slice", [o = kings_options.get()](const std::string& text) {
        const std::vector<SliceId> slices = workflow::parse_slice_list(text);
        if (slices.size() != 1) throw UsageError("--slice takes one slice");
        o->slice = slices.front();
    })->type_name("S");
    add_integer(kings, "--threads", kings_options->threads, 1, 256);

    const auto probe_options = std::make_shared<bench::ProbeBenchOptions>();
    CLI::App& probe = add_benchmark(benchmarks, "probe", probe_options, bench::print_probe_benchmark);
    probe.add_option_function<std::string>("--db", [o = probe_options.get()](const std::string& dir) { o->directory = dir; })
        ->type_name("DIR")
        ->required();
    add_integer(probe, "--pieces", probe_options->pieces, 2, 2 * kMaxPiecesPerSide);
    add_integer(probe, "--seconds", probe_options->seconds, 1, 600);
    add_integer(probe, "--small-cache-mb", probe_options->small_cache_mb, 1, 1 << 16);

    const auto serve_options = std::make_shared<bench::ServeBenchOptions>();
    CLI::App& serve = add_benchmark(benchmarks, "serve", serve_options, bench::print_serve_benchmark);
    serve.add_option("--db", serve_options->database)->type_name("DIR")->required();
    add_integer(serve, "--pieces", serve_options->pieces, 2, 2 * kMaxPiecesPerSide);
    add_integer(serve, "--positions", serve_options->positions, 1, 1 << 22);
    add_integer(serve, "--requests", serve_options->requests, 1, 1 << 24);
    add_integer(serve, "--seconds", serve_options->seconds, 1, 600);
    add_integer(serve, "--cache-mb", serve_options->cache_mb, 1, 1 << 20);
    add_integer(serve, "--server-threads", serve_options->server_threads, 0, 1024);
    serve.add_option("--fens-out", serve_options->fens_out)->type_name("FILE");
    serve.add_option_function<std::string>("--clients", [o = serve_options.get()](const std::string& list) {
        o->clients.clear();
        for (std::size_t start = 0; start <= list.size();) {
            const std::size_t comma = std::min(list.find(',', start), list.size());
            o->clients.push_back(static_cast<int>(parse_integer(list.substr(start, comma - start), "--clients", 1, 1024)));
            start = comma + 1;
        }
    })->type_name("N,N,...");
}

}  // namespace egdb::cli
