// The journal of a long `egdb verify` (docs/native-format.md, "Verify journal"): the slices
// found consistent so far, each with the size and CRC-32C of its file, so that a verification
// stopped at any moment (a session that ends, kill -9) goes on where it stopped instead of
// starting again. Checking every position of the 6-piece set takes over an hour; the journal is
// to verify what unit files are to the build.
//
// A slice's check holds only for the bytes it read: its own file and the files of the slices its
// moves reach. So an entry records both: its file's size and CRC-32C, and a digest of the sizes
// and CRC-32Cs of the files its moves reach as they were when it was checked. It counts while
// its file and those files are unchanged, the same value kinds are compared, and every slice it
// reaches is found consistent too, earlier (its own entry counts) or in the same run. A changed
// file sends its slice and the slices whose moves reach it back to be checked; a slice whose check
// was not recorded (one with levels resumed by a build) is checked alone, the entries of the
// slices reaching it still count once it passes.
//
// Text, rewritten whole and atomically after each slice (a kill leaves the old journal or the
// new one, never half a line):
//   egdb-verify-journal 2
//   slice-0303.egdb 7145264 1a2b3c4d wld,dtw,mtc 317814000 59.98 9f8e7d6c
//                   file size, CRC-32C, kinds compared, positions checked, seconds,
//                   digest of the files its moves reach ("-": not known, an entry of version 1)
//   ...
//   end 5e6f7081    CRC-32C of every byte before this line
// A journal of version 1 (records without the digest) is read; its entries count only while every
// slice they reach counts from the journal as well, the rule version 1 had.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
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
    // SliceFileIdentities::successors_digest of the files its moves reach, as they were when it was
    // checked; none in an entry read from a journal of version 1.
    std::optional<std::uint32_t> successors_digest;
    friend bool operator==(const VerifiedSlice&, const VerifiedSlice&) = default;
};

// What an entry is matched against: a slice file's size and the CRC-32C of its bytes.
struct SliceFileIdentity {
    std::uint64_t bytes = 0;
    std::uint32_t crc = 0;
    friend bool operator==(const SliceFileIdentity&, const SliceFileIdentity&) = default;
};

// The identities of the slice files of one directory, each file read once however many slices
// reach it (checksumming a 6-piece slice file reads hundreds of MB).
class SliceFileIdentities {
public:
    explicit SliceFileIdentities(std::filesystem::path directory) : directory_(std::move(directory)) {}

    // The identity of `slice`'s file; nullopt when there is no such file. Throws FileError when
    // it cannot be read.
    std::optional<SliceFileIdentity> of(SliceId slice);
    // The CRC-32C of the size and CRC-32C of each file of `successors`, in that order (the
    // successor_slices of a slice); nullopt when one of them has no file.
    std::optional<std::uint32_t> successors_digest(std::span<const SliceId> successors);
    // `slice`'s file was written again: its identity is read anew when next asked for.
    void forget(SliceId slice) { known_.erase(slice); }

private:
    std::filesystem::path directory_;
    std::map<SliceId, std::optional<SliceFileIdentity>> known_;
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
