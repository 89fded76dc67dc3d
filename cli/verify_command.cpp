// `egdb verify DIR`: page checksums and one-ply consistency of every stored position.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <thread>

#include "cli/command.hpp"
#include "cli/progress.hpp"
#include "core/formats/native/verify_database.hpp"

namespace egdb::cli {

int run_verify_report(const std::filesystem::path& dir, int threads) {
    const auto start = std::chrono::steady_clock::now();
    Progress progress("verify", 0);
    native::VerifyOptions options;
    options.threads = threads;
    options.on_slice_done = [&](const native::VerifyProgress& p) {
        progress.item_done(p.slice.to_string(), p.positions, p.seconds,
                           p.mismatches == 0 ? "ok" : std::to_string(p.mismatches) + " MISMATCHES");
    };
    const native::VerifyReport report = native::verify_native_database(dir, options);
    progress.finish();
    for (const std::string& m : report.messages) std::cout << "error: " << m << '\n';
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("verify %s: %llu files, %llu pages (%llu bad), %llu positions checked, %llu mismatches, %.1f s: %s\n",
                dir.string().c_str(), static_cast<unsigned long long>(report.files),
                static_cast<unsigned long long>(report.pages), static_cast<unsigned long long>(report.bad_pages),
                static_cast<unsigned long long>(report.positions_checked),
                static_cast<unsigned long long>(report.mismatches), seconds, report.ok() ? "OK" : "FAILED");
    return report.ok() ? kExitOk : kExitFailure;
}

int run_verify(Args args) {
    constexpr const char* kHelp =
        "usage: egdb verify DIR [--threads T]\n"
        "Checks every page checksum of a native database, then every stored position against its\n"
        "successors (WLD, DTW and MTC one-ply consistency). Prints each problem with the position's\n"
        "FEN. Exit code 0 when everything is consistent, 1 otherwise.\n";
    if (wants_help(args)) {
        std::cout << kHelp;
        return kExitOk;
    }
    std::filesystem::path dir;
    unsigned hw = std::thread::hardware_concurrency();
    int threads = hw == 0 ? 1 : static_cast<int>(hw);
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--threads" && i + 1 < args.size()) {
            threads = static_cast<int>(parse_integer(args[++i], "--threads", 1, 256));
        } else if (dir.empty() && !args[i].starts_with("--")) {
            dir = std::string(args[i]);
        } else {
            throw UsageError("unexpected argument \"" + std::string(args[i]) + "\"\n" + kHelp);
        }
    }
    if (dir.empty()) throw UsageError(std::string("missing DIR\n") + kHelp);
    return run_verify_report(dir, threads);
}

}  // namespace egdb::cli
