// MappedFile on Windows: CreateFileW, CreateFileMappingW, MapViewOfFile. The view keeps the
// mapping (and the file) alive by itself, so both handles are closed once it exists and the
// class holds only the view's address, as on POSIX.
#include "core/util/mapped_file.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

#include <windows.h>

#include "core/util/path_text.hpp"
#include "core/util/windows_error.hpp"

namespace egdb {
namespace {

// Closes a Windows handle at the end of the scope.
class ScopedHandle {
public:
    explicit ScopedHandle(HANDLE handle) noexcept : handle_(handle) {}
    ScopedHandle(const ScopedHandle&) = delete;
    ScopedHandle& operator=(const ScopedHandle&) = delete;
    ~ScopedHandle() {
        if (handle_ != nullptr && handle_ != INVALID_HANDLE_VALUE) ::CloseHandle(handle_);
    }
    HANDLE get() const noexcept { return handle_; }

private:
    HANDLE handle_;
};

}  // namespace

MappedFile::MappedFile(const std::filesystem::path& path) : path_(path) {
    // FILE_SHARE_DELETE as well as READ: like an open file on POSIX, a mapped database file does
    // not stop other programs from reading it or a writer from replacing it by a rename.
    const ScopedHandle file(::CreateFileW(path.c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_DELETE, nullptr,
                                          OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr));
    if (file.get() == INVALID_HANDLE_VALUE) {
        throw FileError("cannot open " + path_text(path) + ": " + windows_error_text(::GetLastError()));
    }
    LARGE_INTEGER size{};
    if (!::GetFileSizeEx(file.get(), &size)) {
        throw FileError("cannot stat " + path_text(path) + ": " + windows_error_text(::GetLastError()));
    }
    if (static_cast<std::uint64_t>(size.QuadPart) > std::numeric_limits<std::size_t>::max()) {
        throw FileError("cannot map " + path_text(path) + ": the file does not fit in the address space");
    }
    size_ = static_cast<std::size_t>(size.QuadPart);
    // A mapping of an empty file is an error on Windows; an empty file is an empty span.
    if (size_ == 0) return;
    const ScopedHandle mapping(::CreateFileMappingW(file.get(), nullptr, PAGE_READONLY, 0, 0, nullptr));
    if (mapping.get() == nullptr) {
        throw FileError("cannot map " + path_text(path) + ": " + windows_error_text(::GetLastError()));
    }
    const void* view = ::MapViewOfFile(mapping.get(), FILE_MAP_READ, 0, 0, 0);
    if (view == nullptr) {
        throw FileError("cannot map " + path_text(path) + ": " + windows_error_text(::GetLastError()));
    }
    data_ = static_cast<const std::byte*>(view);
}

void MappedFile::release_resident_pages(std::size_t offset, std::size_t length) const noexcept {
    // VirtualUnlock on pages that are not locked takes them out of the working set (and fails
    // with ERROR_NOT_LOCKED, which is the expected outcome here); they stay in the standby list.
    // It acts on every page holding a byte of the range.
    if (data_ == nullptr || offset >= size_) return;
    ::VirtualUnlock(const_cast<std::byte*>(data_ + offset), (std::min)(length, size_ - offset));
}

void MappedFile::release() noexcept {
    if (data_ != nullptr) ::UnmapViewOfFile(data_);
    data_ = nullptr;
    size_ = 0;
}

}  // namespace egdb
