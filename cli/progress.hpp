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
    // `stage_done` (when not 0) is the work of the stage finished so far as the job counts it,
    // instead of the sum of the items' work. Work `resumed` (found finished on disk) counts as done
    // but not for the rate, so the ETA of a resumed job is that of the work left.
    void item_done(const std::string& label, std::uint64_t work, double seconds, const std::string& extra = "",
                   std::uint64_t stage_done = 0, bool resumed = false);
    void finish();

private:
    std::string what_;
    std::uint64_t total_;
    std::uint64_t done_ = 0;
    std::uint64_t resumed_ = 0;  // of done_
    bool terminal_;
    std::chrono::steady_clock::time_point start_;
};

}  // namespace egdb::cli
