#include "cli/progress.hpp"

#include <cstdio>
#include <unistd.h>

#include "core/util/peak_memory.hpp"

namespace egdb::cli {

Progress::Progress(std::string what, std::uint64_t total_work)
    : what_(std::move(what)), total_(total_work), terminal_(::isatty(STDERR_FILENO) != 0),
      start_(std::chrono::steady_clock::now()) {}

void Progress::item_done(const std::string& label, std::uint64_t work, double seconds, const std::string& extra,
                         std::uint64_t stage_done, bool resumed) {
    const std::uint64_t before = done_;
    done_ = stage_done > 0 ? stage_done : done_ + work;
    if (resumed) resumed_ += done_ - std::min(before, done_);
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double rate = elapsed > 0 ? static_cast<double>(done_ - std::min(resumed_, done_)) / elapsed : 0;
    const double eta = rate > 0 ? static_cast<double>(total_ - std::min(done_, total_)) / rate : 0;
    const double fraction = total_ > 0 ? static_cast<double>(done_) / static_cast<double>(total_) : 1;
    if (terminal_ && total_ > 0) {
        constexpr int kWidth = 30;
        const int filled = static_cast<int>(fraction * kWidth);
        std::fprintf(stderr, "\r%s [%-*s] %5.1f%%  %s  %.1fM pos/s  ETA %.0f s  peak %.0f MiB   ", what_.c_str(), kWidth,
                     std::string(static_cast<std::size_t>(filled), '#').c_str(), 100 * fraction, label.c_str(),
                     rate / 1e6, eta, peak_memory_mib());
    } else {
        // An item that took no measurable time (a slice already built) has no rate worth printing.
        char rate_text[48] = "";
        if (seconds >= 0.001) std::snprintf(rate_text, sizeof rate_text, " (%.1fM/s)", static_cast<double>(work) / seconds / 1e6);
        char done_text[64] = "";
        if (total_ > 0) std::snprintf(done_text, sizeof done_text, ", done %.1f%%, ETA %.0f s", 100 * fraction, eta);
        std::fprintf(stderr, "%s %s: %llu positions in %.2f s%s%s%s%s, peak %.0f MiB\n", what_.c_str(), label.c_str(),
                     static_cast<unsigned long long>(work), seconds, rate_text, extra.empty() ? "" : ", ", extra.c_str(),
                     done_text, peak_memory_mib());
    }
    std::fflush(stderr);
}

void Progress::finish() {
    if (terminal_) std::fprintf(stderr, "\n");
}

}  // namespace egdb::cli
