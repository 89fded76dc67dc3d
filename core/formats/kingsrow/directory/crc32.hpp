// The standard CRC-32 (IEEE 802.3 / zlib) that the Kingsrow driver uses to identify and verify
// files (kingsrow-format.md section 12.5), and the suffix that forces a file's CRC to a chosen
// value (section 12.4). Not the CRC-32C of core/util, which the native format uses.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>

namespace egdb::kingsrow {

// CRC-32 of `data`, continuing from `crc` (0 for a fresh checksum), as zlib's crc32().
std::uint32_t crc32(std::span<const std::byte> data, std::uint32_t crc = 0) noexcept;

// CRC-32 of a whole file; throws FileError when it cannot be read.
std::uint32_t file_crc32(const std::filesystem::path& path);

// Four bytes that, appended to data whose CRC-32 is `crc_so_far`, give the CRC-32 `target`.
// CRC-32 is affine in the appended bits, so the bytes solve a 32x32 linear system over GF(2).
std::array<std::byte, 4> crc32_forcing_bytes(std::uint32_t crc_so_far, std::uint32_t target) noexcept;

}  // namespace egdb::kingsrow
