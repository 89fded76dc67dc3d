// Writes a file so that it appears under its name only once it is complete and on disk: the
// bytes go to a temporary file beside it (`<name>.tmp`), which commit() flushes to the device and
// renames over the final name (replacing an older file), and the rename itself is then made
// durable. A writer destroyed without commit() removes the temporary file, so an interrupted or
// failed write leaves either the old file or nothing, never a truncated one.
//
// atomic_file_writer_posix.cpp (open, write, fsync, rename, directory fsync) and
// atomic_file_writer_windows.cpp (CreateFileW, WriteFile, FlushFileBuffers, MoveFileExW) implement
// it; CMake compiles one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>

#include "core/util/mapped_file.hpp"  // FileError

namespace egdb {

class AtomicFileWriter {
public:
    // Creates (truncates) `final_path` + ".tmp". Throws FileError.
    explicit AtomicFileWriter(std::filesystem::path final_path);
    AtomicFileWriter(const AtomicFileWriter&) = delete;
    AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;
    ~AtomicFileWriter();

    // Appends all of `data`. Throws FileError (e.g. disk full), naming the final path.
    void write(std::span<const std::byte> data);
    // Flushes, closes and renames into place, then syncs the directory. Throws FileError; after a
    // failure before the rename the temporary file is removed by the destructor.
    void commit();

    const std::filesystem::path& final_path() const noexcept { return final_path_; }
    const std::filesystem::path& temporary_path() const noexcept { return temporary_path_; }

private:
    void close_quietly() noexcept;

    std::filesystem::path final_path_;
    std::filesystem::path temporary_path_;
    // The open temporary file: a file descriptor on POSIX, a HANDLE on Windows; -1 (which is also
    // INVALID_HANDLE_VALUE) once closed.
    std::intptr_t handle_ = -1;
    bool committed_ = false;
};

}  // namespace egdb
