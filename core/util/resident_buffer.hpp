// Memory for data that random lookups read all the time (autoloaded database files, their block
// checkpoints): one anonymous region that the kernel is asked to back with 2 MiB pages.
//
// Why: a random lookup touches a few bytes of a region of tens of megabytes, so with 4 KiB pages
// nearly every lookup misses the TLB, and under virtualisation a TLB miss walks two page tables.
// Reading a file through its mapping keeps 4 KiB pages (the page cache cannot use huge pages for
// ordinary files), so autoloaded data is copied here once at open. Huge pages are a hint: where the
// system has none (or is not Linux) the buffer is ordinary memory and everything works the same.
#pragma once

#include <cstddef>
#include <span>

namespace egdb {

class ResidentBuffer {
public:
    ResidentBuffer() = default;
    // Zero-filled; throws OutOfMemoryError (a std::bad_alloc) when the memory cannot be had.
    explicit ResidentBuffer(std::size_t bytes);
    ResidentBuffer(ResidentBuffer&& other) noexcept;
    ResidentBuffer& operator=(ResidentBuffer&& other) noexcept;
    ResidentBuffer(const ResidentBuffer&) = delete;
    ResidentBuffer& operator=(const ResidentBuffer&) = delete;
    ~ResidentBuffer();

    std::byte* data() noexcept { return data_; }
    const std::byte* data() const noexcept { return data_; }
    std::size_t size() const noexcept { return size_; }
    std::span<const std::byte> bytes() const noexcept { return {data_, size_}; }

private:
    void release() noexcept;

    std::byte* data_ = nullptr;
    std::size_t size_ = 0;
    std::size_t reserved_ = 0;  // bytes actually obtained (rounded up)
};

}  // namespace egdb
