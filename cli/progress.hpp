// Progress reporting for long CLI jobs (build, verify): a live bar redrawn in place when stderr
// is a terminal, one log line per finished item otherwise (logs and CI output stay readable).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace egdb::cli {

class Progress {
public:
    // `total_work` is in arbitrary units (positions), used for the rate and the ETA.
    Progress(std::string what, std::uint64_t total_work);
    // Reports one finished item: `label` (e.g. the slice), its work units and seconds.
    void item_done(const std::string& label, std::uint64_t work, double seconds, const std::string& extra = "");
    void finish();

private:
    std::string what_;
    std::uint64_t total_;
    std::uint64_t done_ = 0;
    bool terminal_;
    std::chrono::steady_clock::time_point start_;
};

}  // namespace egdb::cli
