// AtomicFileWriter on POSIX systems.
#include "core/util/atomic_file_writer.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <system_error>
#include <unistd.h>

namespace egdb {
namespace {

std::filesystem::path temporary_path_of(const std::filesystem::path& final_path) {
    std::filesystem::path tmp = final_path;
    tmp += ".tmp";
    return tmp;
}

}  // namespace

AtomicFileWriter::AtomicFileWriter(std::filesystem::path final_path)
    : final_path_(std::move(final_path)), temporary_path_(temporary_path_of(final_path_)) {
    handle_ = ::open(temporary_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (handle_ < 0) throw FileError("cannot create " + temporary_path_.string() + ": " + std::strerror(errno));
}

AtomicFileWriter::~AtomicFileWriter() {
    close_quietly();
    if (!committed_) {
        std::error_code ec;
        std::filesystem::remove(temporary_path_, ec);
    }
}

void AtomicFileWriter::close_quietly() noexcept {
    if (handle_ >= 0) ::close(static_cast<int>(handle_));
    handle_ = -1;
}

void AtomicFileWriter::write(std::span<const std::byte> data) {
    while (!data.empty()) {
        const ssize_t n = ::write(static_cast<int>(handle_), data.data(), data.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            throw FileError("cannot write " + final_path_.string() + ": " + std::strerror(errno));
        }
        data = data.subspan(static_cast<std::size_t>(n));
    }
}

void AtomicFileWriter::commit() {
    const int fd = static_cast<int>(handle_);
    if (::fsync(fd) != 0) throw FileError("cannot sync " + temporary_path_.string() + ": " + std::strerror(errno));
    handle_ = -1;
    if (::close(fd) != 0) throw FileError("cannot close " + temporary_path_.string() + ": " + std::strerror(errno));
    std::error_code ec;
    std::filesystem::rename(temporary_path_, final_path_, ec);
    if (ec) {
        throw FileError("cannot rename " + temporary_path_.string() + " to " + final_path_.string() + ": " +
                        ec.message());
    }
    committed_ = true;
    // The rename is durable only once the directory entry is on disk. Best effort: a failure
    // here leaves a complete file under its final name.
    const int dir = ::open(final_path_.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
}

}  // namespace egdb
