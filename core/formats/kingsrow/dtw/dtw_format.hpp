// Constants, result codes and the error type of the Kingsrow EGDB_DTW format
// (kingsrow-format.md section 8). Shared by the reader and the writer of this folder only.
//
// The result codes are kept private to dtw/ until the shared Kingsrow layer provides its own;
// their numeric values are the Kingsrow ones (spec 12.6), so unifying them changes no behaviour.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include "core/util/error.hpp"

namespace egdb::kingsrow {

// Values a DTW lookup returns besides a distance v >= 0 (spec 3.3, 12.6).
inline constexpr int kDtwSubdbUnavailable = -2;  // EGDB_SUBDB_UNAVAILABLE
inline constexpr int kDtwNotInCache = -1;         // EGDB_NOT_IN_CACHE

// File geometry (8.2): 4096-byte blocks of eight 512-byte miniblocks.
inline constexpr std::size_t kDtwBlockBytes = 4096;
inline constexpr std::size_t kDtwMiniblockBytes = 512;
inline constexpr std::size_t kDtwMiniblocksPerBlock = kDtwBlockBytes / kDtwMiniblockBytes;
inline constexpr std::size_t kDtwMiniblockWords = kDtwMiniblockBytes / 4;
inline constexpr unsigned kDtwMiniblockBits = 8 * kDtwMiniblockBytes;

// A miniblock's position count is a 17-bit field of the index (8.3).
inline constexpr unsigned kDtwLengthFieldBits = 17;
inline constexpr std::uint32_t kDtwMaxMiniblockPositions = (std::uint32_t{1} << kDtwLengthFieldBits) - 1;

// Grammar symbols are u16 (8.3) and upstream keeps expansion lengths in a uint16.
inline constexpr std::uint32_t kDtwMaxSymbols = 0xFFFF;
inline constexpr std::uint32_t kDtwMaxExpansion = 0xFFFF;
inline constexpr unsigned kDtwMaxCodeLength = 32;

// Terminal i is DTW value i, so the largest storable value is the last u16 symbol slot.
inline constexpr std::uint32_t kDtwMaxValue = kDtwMaxSymbols - 1;

// The DTW files hold at most 7 pieces (3.1; file naming is in file_set.hpp).
inline constexpr int kDtwMaxPieces = 7;

}  // namespace egdb::kingsrow
