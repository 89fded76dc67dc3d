// Where the decoding of a 4096-byte block may start. Upstream keeps the first local index of every
// 64-byte sub-block (4.4, 17), bisects them and scans up to 64 code bytes, 32 on average: most of a
// lookup's instructions and branch mispredictions. egdb keeps the first index of every 256-byte
// segment and, relative to it, of every 32-byte step: two branch-free searches over one cache line
// each, then a scan of at most 32 bytes. (16-bit offsets would halve the table, but in the
// compressible blocks a random position most likely falls in, a segment often covers more than
// 65535 positions.)
//
// Layout (kBytes = 9 cache lines, little-endian, read with memcpy so that a cache page may hold it
// unaligned):
//   uint32 segment_start[16]    first local index decoded at byte 256*s; kNone past the block
//   uint32 step_offset[16][8]   index at byte 256*s + 32*t minus segment_start[s] (t = 0 is 0);
//                               kNoStep past the block
// A start that is absent only makes the scan longer, never wrong: any start at or before the
// wanted index decodes it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace egdb::kingsrow::block_checkpoints {

inline constexpr std::size_t kBlockBytes = 4096;
inline constexpr std::size_t kSubBlockBytes = 64;  // upstream's checkpoint step, kept by the writers (17)
inline constexpr std::size_t kSegmentBytes = 256;
inline constexpr std::size_t kStepBytes = 32;
inline constexpr std::size_t kSegments = kBlockBytes / kSegmentBytes;      // 16
inline constexpr std::size_t kStepsPerSegment = kSegmentBytes / kStepBytes;  // 8
inline constexpr std::uint32_t kNone = 0xFFFFFFFFU;
inline constexpr std::uint32_t kNoStep = 0xFFFFFFFFU;
inline constexpr std::size_t kStepTableOffset = kSegments * sizeof(std::uint32_t);
inline constexpr std::size_t kBytes = kStepTableOffset + kSegments * kStepsPerSegment * sizeof(std::uint32_t);
static_assert(kBytes == 9 * 64, "a whole number of cache lines");

// Writes the checkpoints of a block whose code bytes are `codes`, the first decoding local index
// `first`, where positions_of(byte) is the number of positions a code byte covers (>= 1).
// Returns the local index after the block's last code.
template <class PositionsOf>
std::uint64_t build(std::span<const std::byte> codes, std::uint64_t first, PositionsOf&& positions_of,
                    std::byte* out) noexcept {
    std::uint32_t segment_start[kSegments];
    std::uint32_t step_offset[kSegments][kStepsPerSegment];
    std::fill(std::begin(segment_start), std::end(segment_start), kNone);
    for (auto& row : step_offset) std::fill(std::begin(row), std::end(row), kNoStep);
    std::uint64_t n = first;
    for (std::size_t i = 0; i < codes.size() && i < kBlockBytes; ++i) {
        const std::size_t segment = i / kSegmentBytes;
        if (i % kSegmentBytes == 0) {
            // Indices past 32 bits arise only from filler codes after a subslice's end; such a
            // segment is left absent and the previous start still decodes everything before it.
            if (n < kNone) {
                segment_start[segment] = static_cast<std::uint32_t>(n);
                step_offset[segment][0] = 0;
            }
        } else if (i % kStepBytes == 0 && segment_start[segment] != kNone) {
            const std::uint64_t offset = n - segment_start[segment];
            if (offset < kNoStep) step_offset[segment][i % kSegmentBytes / kStepBytes] = static_cast<std::uint32_t>(offset);
        }
        n += positions_of(static_cast<std::uint8_t>(codes[i]));
    }
    std::memcpy(out, segment_start, sizeof segment_start);
    std::memcpy(out + kStepTableOffset, step_offset, sizeof step_offset);
    return n;
}

struct DecodeStart {
    std::uint32_t byte = 0;   // offset in the block where decoding starts
    std::uint32_t index = 0;  // local index decoded by that byte's code
};

// The latest recorded start at or before local index x; x must be at least the block's first
// index. Starts increase strictly (every code covers a position) and absent ones compare above
// every x, so "how many starts are <= x" is the position of the last one: a count the compiler
// turns into a few vector compares, with no branch to mispredict.
// In two halves, each reading one cache line, so that a pipeline of lookups can request the
// second line (step_line) before it needs it: the segment holding x, then the start inside it.
inline std::uint32_t find_segment(const std::byte* checkpoints, std::uint32_t x) noexcept {
    std::uint32_t segment_start[kSegments];
    std::memcpy(segment_start, checkpoints, sizeof segment_start);
    std::uint32_t segment = 0;
    for (std::size_t s = 1; s < kSegments; ++s) segment += segment_start[s] <= x ? 1U : 0U;
    return segment;
}

inline const std::byte* step_line(const std::byte* checkpoints, std::uint32_t segment) noexcept {
    return checkpoints + kStepTableOffset + segment * kStepsPerSegment * sizeof(std::uint32_t);
}

inline DecodeStart find_start_in_segment(const std::byte* checkpoints, std::uint32_t segment, std::uint32_t x) noexcept {
    std::uint32_t base;
    std::memcpy(&base, checkpoints + segment * sizeof base, sizeof base);
    std::uint32_t step_offset[kStepsPerSegment];
    std::memcpy(step_offset, step_line(checkpoints, segment), sizeof step_offset);
    const std::uint32_t rest = std::min<std::uint32_t>(x - base, kNoStep - 1);
    std::uint32_t step = 0;
    for (std::size_t t = 1; t < kStepsPerSegment; ++t) step += step_offset[t] <= rest ? 1U : 0U;
    return {static_cast<std::uint32_t>(segment * kSegmentBytes + step * kStepBytes), base + step_offset[step]};
}

inline DecodeStart find_start(const std::byte* checkpoints, std::uint32_t x) noexcept {
    return find_start_in_segment(checkpoints, find_segment(checkpoints, x), x);
}

}  // namespace egdb::kingsrow::block_checkpoints
