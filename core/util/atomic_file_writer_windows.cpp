// AtomicFileWriter on Windows. Handles are not inherited by child processes unless asked for,
// which is what O_CLOEXEC gives on POSIX. Windows has no fsync for a directory: the rename is made
// durable by MOVEFILE_WRITE_THROUGH, which returns only once the move is on disk.
#include "core/util/atomic_file_writer.hpp"

#include <algorithm>
#include <string>
#include <system_error>

#include <windows.h>

#include "core/util/path_text.hpp"
#include "core/util/windows_error.hpp"

namespace egdb {
namespace {

std::filesystem::path temporary_path_of(const std::filesystem::path& final_path) {
    std::filesystem::path tmp = final_path;
    tmp += ".tmp";
    return tmp;
}

HANDLE as_handle(std::intptr_t handle) noexcept { return reinterpret_cast<HANDLE>(handle); }

// WriteFile takes a 32-bit count; larger buffers go in pieces of this size.
constexpr std::size_t kMaxWriteBytes = std::size_t{1} << 30;

}  // namespace

AtomicFileWriter::AtomicFileWriter(std::filesystem::path final_path)
    : final_path_(std::move(final_path)), temporary_path_(temporary_path_of(final_path_)) {
    const HANDLE file = ::CreateFileW(temporary_path_.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_ALWAYS,
                                      FILE_ATTRIBUTE_NORMAL, nullptr);
    if (file == INVALID_HANDLE_VALUE) {
        throw FileError("cannot create " + path_text(temporary_path_) + ": " + windows_error_text(::GetLastError()));
    }
    handle_ = reinterpret_cast<std::intptr_t>(file);
}

AtomicFileWriter::~AtomicFileWriter() {
    close_quietly();
    if (!committed_) {
        std::error_code ec;
        std::filesystem::remove(temporary_path_, ec);
    }
}

void AtomicFileWriter::close_quietly() noexcept {
    if (as_handle(handle_) != INVALID_HANDLE_VALUE) ::CloseHandle(as_handle(handle_));
    handle_ = reinterpret_cast<std::intptr_t>(INVALID_HANDLE_VALUE);
}

void AtomicFileWriter::write(std::span<const std::byte> data) {
    while (!data.empty()) {
        const auto chunk = static_cast<DWORD>(std::min(data.size(), kMaxWriteBytes));
        DWORD written = 0;
        if (!::WriteFile(as_handle(handle_), data.data(), chunk, &written, nullptr)) {
            throw FileError("cannot write " + path_text(final_path_) + ": " + windows_error_text(::GetLastError()));
        }
        if (written == 0) throw FileError("cannot write " + path_text(final_path_) + ": nothing was written");
        data = data.subspan(written);
    }
}

void AtomicFileWriter::commit() {
    const HANDLE file = as_handle(handle_);
    if (!::FlushFileBuffers(file)) {
        throw FileError("cannot sync " + path_text(temporary_path_) + ": " + windows_error_text(::GetLastError()));
    }
    handle_ = reinterpret_cast<std::intptr_t>(INVALID_HANDLE_VALUE);
    if (!::CloseHandle(file)) {
        throw FileError("cannot close " + path_text(temporary_path_) + ": " + windows_error_text(::GetLastError()));
    }
    if (!::MoveFileExW(temporary_path_.c_str(), final_path_.c_str(),
                       MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) {
        throw FileError("cannot rename " + path_text(temporary_path_) + " to " + path_text(final_path_) + ": " +
                        windows_error_text(::GetLastError()));
    }
    committed_ = true;
}

}  // namespace egdb
