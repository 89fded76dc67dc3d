#include "cli/progress.hpp"

#include <cstdio>
#include <unistd.h>

#include "core/util/peak_memory.hpp"

namespace egdb::cli {

Progress::Progress(std::string what, std::uint64_t total_work)
    : what_(std::move(what)), total_(total_work), terminal_(::isatty(STDERR_FILENO) != 0),
      start_(std::chrono::steady_clock::now()) {}

void Progress::item_done(const std::string& label, std::uint64_t work, double seconds, const std::string& extra) {
    done_ += work;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double rate = elapsed > 0 ? static_cast<double>(done_) / elapsed : 0;
    const double eta = rate > 0 ? static_cast<double>(total_ - std::min(done_, total_)) / rate : 0;
    const double fraction = total_ > 0 ? static_cast<double>(done_) / static_cast<double>(total_) : 1;
    if (terminal_ && total_ > 0) {
        constexpr int kWidth = 30;
        const int filled = static_cast<int>(fraction * kWidth);
        std::fprintf(stderr, "\r%s [%-*s] %5.1f%%  %s  %.1fM pos/s  ETA %.0f s  peak %.0f MiB   ", what_.c_str(), kWidth,
                     std::string(static_cast<std::size_t>(filled), '#').c_str(), 100 * fraction, label.c_str(),
                     rate / 1e6, eta, peak_memory_mib());
    } else if (total_ == 0) {
        std::fprintf(stderr, "%s %s: %llu positions in %.2f s (%.1fM/s)%s%s, peak %.0f MiB\n", what_.c_str(),
                     label.c_str(), static_cast<unsigned long long>(work), seconds,
                     seconds > 0 ? static_cast<double>(work) / seconds / 1e6 : 0.0, extra.empty() ? "" : ", ",
                     extra.c_str(), peak_memory_mib());
    } else {
        std::fprintf(stderr,
                     "%s %s: %llu positions in %.2f s (%.1fM/s)%s%s, done %.1f%%, ETA %.0f s, peak %.0f MiB\n",
                     what_.c_str(), label.c_str(), static_cast<unsigned long long>(work), seconds,
                     seconds > 0 ? static_cast<double>(work) / seconds / 1e6 : 0.0, extra.empty() ? "" : ", ",
                     extra.c_str(), 100 * fraction, eta, peak_memory_mib());
    }
    std::fflush(stderr);
}

void Progress::finish() {
    if (terminal_) std::fprintf(stderr, "\n");
}

}  // namespace egdb::cli
