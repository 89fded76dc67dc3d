// MappedFile on POSIX systems: open(2), fstat(2), mmap(2).
#include "core/util/mapped_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace egdb {

MappedFile::MappedFile(const std::filesystem::path& path) : path_(path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw FileError("cannot open " + path.string() + ": " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int err = errno;
        ::close(fd);
        throw FileError("cannot stat " + path.string() + ": " + std::strerror(err));
    }
    size_ = static_cast<std::size_t>(st.st_size);
    if (size_ > 0) {
        void* p = ::mmap(nullptr, size_, PROT_READ, MAP_SHARED, fd, 0);
        if (p == MAP_FAILED) {
            const int err = errno;
            ::close(fd);
            throw FileError("cannot map " + path.string() + ": " + std::strerror(err));
        }
        data_ = static_cast<const std::byte*>(p);
    }
    ::close(fd);
}

void MappedFile::release_resident_pages(std::size_t offset, std::size_t length) const noexcept {
    // MADV_DONTNEED on a shared read-only file mapping drops the page-table entries only; the
    // next read maps the page again from the page cache (or the file). madvise takes a
    // page-aligned start, so the range starts at the page holding `offset` (the mapping itself
    // starts on a page).
    if (data_ == nullptr || offset >= size_) return;
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t first = offset - offset % page;
    const std::size_t end = offset + std::min(length, size_ - offset);
    ::madvise(const_cast<std::byte*>(data_ + first), end - first, MADV_DONTNEED);
}

void MappedFile::release() noexcept {
    if (data_ != nullptr) ::munmap(const_cast<std::byte*>(data_), size_);
    data_ = nullptr;
    size_ = 0;
}

}  // namespace egdb
