#include "core/util/resident_buffer.hpp"

#include <algorithm>
#include <new>
#include <string>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "core/util/error.hpp"

namespace egdb {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

std::size_t round_up(std::size_t bytes) noexcept { return (bytes + kHugePage - 1) / kHugePage * kHugePage; }

}  // namespace

ResidentBuffer::ResidentBuffer(std::size_t bytes) : size_(bytes) {
    if (bytes == 0) return;
    reserved_ = round_up(bytes);
#if defined(__linux__)
    // Anonymous memory is zero-filled; a whole number of huge pages lets all of it use them.
    void* p = ::mmap(nullptr, reserved_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw OutOfMemoryError("cannot map " + std::to_string(reserved_) + " bytes of memory");
    ::madvise(p, reserved_, MADV_HUGEPAGE);  // a hint: failure leaves ordinary pages
    data_ = static_cast<std::byte*>(p);
#else
    data_ = static_cast<std::byte*>(::operator new(reserved_, std::align_val_t{kHugePage}));
    std::fill(data_, data_ + reserved_, std::byte{0});
#endif
}

ResidentBuffer::ResidentBuffer(ResidentBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      reserved_(std::exchange(other.reserved_, 0)) {}

ResidentBuffer& ResidentBuffer::operator=(ResidentBuffer&& other) noexcept {
    if (this != &other) {
        release();
        data_ = std::exchange(other.data_, nullptr);
        size_ = std::exchange(other.size_, 0);
        reserved_ = std::exchange(other.reserved_, 0);
    }
    return *this;
}

ResidentBuffer::~ResidentBuffer() { release(); }

void ResidentBuffer::release() noexcept {
    if (data_ == nullptr) return;
#if defined(__linux__)
    ::munmap(data_, reserved_);
#else
    ::operator delete(data_, std::align_val_t{kHugePage});
#endif
    data_ = nullptr;
}

}  // namespace egdb
