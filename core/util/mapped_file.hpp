// A read-only memory mapping of a whole file (RAII). Readers map database files instead of
// reading them: the OS page cache then holds compressed data once for all threads and handles.
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include "core/util/error.hpp"

namespace egdb {

class MappedFile {
public:
    MappedFile() = default;
    explicit MappedFile(const std::filesystem::path& path);  // throws FileError
    MappedFile(MappedFile&& other) noexcept;
    MappedFile& operator=(MappedFile&& other) noexcept;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile();

    std::span<const std::byte> bytes() const noexcept { return {data_, size_}; }
    std::size_t size() const noexcept { return size_; }
    const std::filesystem::path& path() const noexcept { return path_; }

    // Takes the pages read so far out of the process's resident set. A mapped page once read
    // counts in the RSS until the system runs short of memory, so a process that reads many
    // files under a memory budget (egdb verify) gives back those it has finished with. The pages
    // stay in the OS page cache: reading them again costs a page-table entry, not a disk read.
    // The mapping and its contents are unchanged; safe while other threads read.
    void release_resident_pages() const noexcept { release_resident_pages(0, size_); }
    // The same for the pages holding bytes [offset, offset + length) only (clamped to the file):
    // a reader that walks a large file gives back each window it has finished with.
    void release_resident_pages(std::size_t offset, std::size_t length) const noexcept;

private:
    void release() noexcept;

    const std::byte* data_ = nullptr;
    std::size_t size_ = 0;
    std::filesystem::path path_;
};

}  // namespace egdb
