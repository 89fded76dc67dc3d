// `egdb verify` for native databases: every page's CRC, then every stored position against its
// successors (the one-ply rule of core/values/one_ply_check.hpp, for each value kind stored).
// Slices are decoded into memory in build order (smaller first), each kept only while a slice
// still to be checked can reach it, and checked one men configuration (a block of king
// placements) at a time on `threads` threads.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/index/slice.hpp"
#include "core/util/resources.hpp"

namespace egdb::native {

struct VerifyProgress {
    SliceId slice;
    std::uint64_t positions = 0;  // positions checked in this slice (both stored sides)
    std::uint64_t mismatches = 0;
    bool checked = true;  // false: the slice could not be checked (see the report's messages)
    // Found consistent by an earlier run (NativeVerifyOptions::journal), not checked again: `positions`
    // and `seconds` are that run's.
    bool verified_earlier = false;
    double seconds = 0;
    double restore_seconds = 0;  // of `seconds`: decoding the file and deriving capture positions
    std::size_t slices_done = 0;
    std::size_t slices_total = 0;
};

struct NativeVerifyOptions {
    // Threads, and the most bytes to hold (memory_bytes, 0: no limit): the process itself, decoded values, capture flags,
    // files read and page cache (DecodedSlicePlan). Under a budget, decoded slices that do not fit
    // are read from their files, through a page cache of an eighth of the budget (8 MiB .. 1 GiB),
    // when a later slice's moves reach them.
    Resources resources;
    // As workflow::BuildRequest::assumed_process_bytes: nullopt measures the process.
    std::optional<std::uint64_t> assumed_process_bytes;
    std::size_t max_messages = 20;  // mismatches described in full; all are counted
    // A journal file (verify_journal.hpp), or empty for none: slices it lists as consistent with
    // unchanged files are not checked again (only decoded, when a slice still to check reads
    // them), and each slice found consistent is added as soon as it is, so that a run stopped at
    // any moment resumes at the first slice not done.
    std::filesystem::path journal;
    std::function<void(const VerifyProgress&)> on_slice_done;
};

struct VerifyReport {
    std::uint64_t files = 0;
    std::uint64_t pages = 0;
    std::uint64_t bad_pages = 0;
    std::uint64_t positions_checked = 0;
    // Of a run with a journal: the slices, and their positions, found consistent by earlier runs.
    std::uint64_t slices_verified_earlier = 0;
    std::uint64_t positions_verified_earlier = 0;
    // Where this run's time went: decoding slices (restoring capture positions included) and
    // checking positions against their successors.
    double restore_seconds = 0;
    double check_seconds = 0;
    std::uint64_t mismatches = 0;
    // Slices that could not be checked: a slice their moves reach is missing or could not be
    // checked itself, or reading them failed.
    std::uint64_t unchecked_slices = 0;
    bool checked_dtw = false;  // DTW and MTC are compared when every file stores them
    bool checked_mtc = false;
    // The most bytes of decoded values (and capture flags) held at once: the slice being checked
    // and the slices that slices still to be checked can reach.
    std::uint64_t peak_memory_bytes = 0;
    // Under a budget: slices dropped from memory and decoded again for a slice that reads them.
    std::uint64_t slices_decoded_again = 0;
    // The manifest (manifest.hpp): whether the directory has one, and the listed files that are
    // missing or changed (a damaged manifest counts as one).
    bool manifest_found = false;
    std::uint64_t manifest_problems = 0;
    std::vector<std::string> messages;  // bad pages and the first problems, with FENs

    bool ok() const noexcept { return bad_pages == 0 && mismatches == 0 && unchecked_slices == 0 && manifest_problems == 0; }
};

// Throws what NativeDatabase's constructor throws when the directory cannot be opened at all.
VerifyReport verify_native_database(const std::filesystem::path& directory, const NativeVerifyOptions& options = {});

}  // namespace egdb::native
