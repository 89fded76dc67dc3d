// `egdb verify` for native databases: every page's CRC, then every stored position against its
// successors (the one-ply rule of core/generate/one_ply_check.hpp, for each value kind stored).
// Slices are decoded into memory in build order (smaller first), each kept only while a slice
// still to be checked can reach it, and checked one men configuration (a block of king
// placements) at a time on `threads` threads.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/index/slice.hpp"

namespace egdb::native {

struct VerifyProgress {
    SliceId slice;
    std::uint64_t positions = 0;  // positions checked in this slice (both stored sides)
    std::uint64_t mismatches = 0;
    bool checked = true;  // false: the slice could not be checked (see the report's messages)
    double seconds = 0;
    std::size_t slices_done = 0;
    std::size_t slices_total = 0;
};

struct VerifyOptions {
    int threads = 1;
    // The most bytes of decoded values, capture flags and page cache to hold (0: no limit). Under
    // a budget, decoded slices that do not fit are read from their files, through a page cache of
    // an eighth of the budget (8 MiB .. 1 GiB), when a later slice's moves reach them.
    std::uint64_t memory_budget_bytes = 0;
    std::size_t max_messages = 20;  // mismatches described in full; all are counted
    std::function<void(const VerifyProgress&)> on_slice_done;
};

struct VerifyReport {
    std::uint64_t files = 0;
    std::uint64_t pages = 0;
    std::uint64_t bad_pages = 0;
    std::uint64_t positions_checked = 0;
    std::uint64_t mismatches = 0;
    // Slices that could not be checked: a slice their moves reach is missing or could not be
    // checked itself, or reading them failed.
    std::uint64_t unchecked_slices = 0;
    bool checked_dtw = false;  // DTW and MTC are compared when every file stores them
    bool checked_mtc = false;
    // The most bytes of decoded values (and capture flags) held at once: the slice being checked
    // and the slices that slices still to be checked can reach.
    std::uint64_t peak_memory_bytes = 0;
    // The manifest (manifest.hpp): whether the directory has one, and the listed files that are
    // missing or changed (a damaged manifest counts as one).
    bool manifest_found = false;
    std::uint64_t manifest_problems = 0;
    std::vector<std::string> messages;  // bad pages and the first problems, with FENs

    bool ok() const noexcept { return bad_pages == 0 && mismatches == 0 && unchecked_slices == 0 && manifest_problems == 0; }
};

// Throws what NativeDatabase's constructor throws when the directory cannot be opened at all.
VerifyReport verify_native_database(const std::filesystem::path& directory, const VerifyOptions& options = {});

}  // namespace egdb::native
