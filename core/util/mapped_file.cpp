// The platform-independent part of MappedFile: ownership moves. Opening and unmapping are in
// mapped_file_posix.cpp (mmap) and mapped_file_windows.cpp (MapViewOfFile); CMake compiles one.
#include "core/util/mapped_file.hpp"

#include <utility>

namespace egdb {

MappedFile::MappedFile(MappedFile&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)), path_(std::move(other.path_)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
    if (this != &other) {
        release();
        data_ = std::exchange(other.data_, nullptr);
        size_ = std::exchange(other.size_, 0);
        path_ = std::move(other.path_);
    }
    return *this;
}

MappedFile::~MappedFile() { release(); }

}  // namespace egdb
