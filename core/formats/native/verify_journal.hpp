// The journal of a long `egdb verify` (docs/native-format.md, "Verify journal"): the slices
// found consistent so far, each with the size and CRC-32C of its file, so that a verification
// stopped at any moment (a session that ends, kill -9) goes on where it stopped instead of
// starting again. Checking every position of the 6-piece set takes over an hour; the journal is
// to verify what unit files are to the build.
//
// A slice's check holds only for the bytes it read: its own file and the files of the slices its
// moves reach. So an entry counts only while its file has the same size and CRC-32C, the same
// value kinds are compared, and every slice it reaches still counts too (checked before it in
// build order, so one pass in that order decides). A change anywhere sends the slice and every
// slice that reaches it back to be checked.
//
// Text, rewritten whole and atomically after each slice (a kill leaves the old journal or the
// new one, never half a line):
//   egdb-verify-journal 1
//   slice-0303.egdb 7145264 1a2b3c4d wld,dtw,mtc 317814000 59.98
//                   file size, CRC-32C, kinds compared, positions checked, seconds
//   ...
//   end 5e6f7081    CRC-32C of every byte before this line
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/index/slice.hpp"

namespace egdb::native {

// Where `egdb build` keeps the journal of its closing verification: in the database directory,
// so that a build resumed after the last slice resumes its verification too.
inline constexpr std::string_view kBuildVerifyJournalName = "egdb-verify-journal.txt";

struct VerifiedSlice {
    SliceId slice;
    std::uint64_t file_bytes = 0;
    std::uint32_t file_crc = 0;  // CRC-32C of the whole slice file
    std::string kinds;           // the value kinds compared: "wld", "wld,dtw", "wld,dtw,mtc"
    std::uint64_t positions = 0;
    double seconds = 0;  // how long its check took, restoring included
    friend bool operator==(const VerifiedSlice&, const VerifiedSlice&) = default;
};

// The kinds text of an entry for a check that compared WLD and, as given, DTW and MTC. A build
// records its slices with it and a verification matches them with it, so both must spell it
// alike: an entry whose kinds differ is checked again.
std::string journal_kinds(bool dtw, bool mtc);

class VerifyJournal {
public:
    // Reads the journal at `path`; a missing file is an empty journal (the first run). Throws
    // CorruptDataError naming the line for a journal that is damaged or not one, FileError when
    // it cannot be read.
    explicit VerifyJournal(std::filesystem::path path);

    const std::filesystem::path& path() const noexcept { return path_; }
    const std::vector<VerifiedSlice>& entries() const noexcept { return entries_; }
    const VerifiedSlice* find(SliceId slice) const noexcept;

    // Adds (or replaces) the entry of `entry.slice`, and writes the journal. Throws FileError.
    void record(const VerifiedSlice& entry);
    // Drops the entry of `slice`, if any, and writes the journal when there was one. Throws FileError.
    void forget(SliceId slice);

private:
    void write() const;

    std::filesystem::path path_;
    std::vector<VerifiedSlice> entries_;
};

}  // namespace egdb::native
