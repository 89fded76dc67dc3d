// CRC-32C (Castagnoli), the checksum of every page of the native format. Hardware-accelerated
// with SSE4.2 where the build targets it, table-driven otherwise; both give identical results.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace egdb {

// CRC-32C of `data`, continuing from `crc` (0 for a fresh checksum).
std::uint32_t crc32c(std::span<const std::byte> data, std::uint32_t crc = 0) noexcept;

// The table-driven implementation, always available (tests compare it with the fast one).
std::uint32_t crc32c_portable(std::span<const std::byte> data, std::uint32_t crc = 0) noexcept;

}  // namespace egdb
