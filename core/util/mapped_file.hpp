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

private:
    void release() noexcept;

    const std::byte* data_ = nullptr;
    std::size_t size_ = 0;
    std::filesystem::path path_;
};

}  // namespace egdb
