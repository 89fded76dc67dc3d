// Where the decoding of a 4096-byte block may start: the first local index decoded by each of its
// 64-byte sub-blocks (upstream keeps the same starts, 4.4, 17). Upstream bisects them; egdb counts
// how many are at or before the wanted index over all 64 at once, with no branch to mispredict (the
// compiler makes it a few vector compares over the four cache lines, which the processor loads in
// parallel), then scans at most one cache line of code bytes.
//
// Why one level of 256 bytes per block: a random lookup is bound by dependent cache misses. The
// table is 1/16 of the data it indexes, small enough to stay in the second-level cache for tens of
// megabytes of data, so that usually only the line of code bytes comes from memory. (A finer
// two-level table, 32-byte steps under 256-byte segments, scanned half as far but was 9 lines per
// block: its lines came from memory, and lookups were slower.)
//
// Layout (kBytes = 4 cache lines, little-endian, read with memcpy so that a cache page may hold it
// unaligned): uint32 start[64], start[s] the first local index decoded at byte 64*s, kNone past
// the block. A start that is absent only makes the scan longer, never wrong: any start at or
// before the wanted index decodes it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace egdb::kingsrow::block_checkpoints {

inline constexpr std::size_t kBlockBytes = 4096;
inline constexpr std::size_t kSubBlockBytes = 64;  // upstream's checkpoint step, kept by the writers (17)
inline constexpr std::size_t kStepBytes = kSubBlockBytes;
inline constexpr std::size_t kSteps = kBlockBytes / kStepBytes;  // 64
inline constexpr std::uint32_t kNone = 0xFFFFFFFFU;
inline constexpr std::size_t kBytes = kSteps * sizeof(std::uint32_t);
static_assert(kBytes == 4 * 64, "a whole number of cache lines");

// Writes the checkpoints of a block whose code bytes are `codes`, the first decoding local index
// `first`, where positions_of(byte) is the number of positions a code byte covers (>= 1).
// Returns the local index after the block's last code.
template <class PositionsOf>
std::uint64_t build(std::span<const std::byte> codes, std::uint64_t first, PositionsOf&& positions_of,
                    std::byte* out) noexcept {
    std::uint32_t start[kSteps];
    std::fill(std::begin(start), std::end(start), kNone);
    std::uint64_t n = first;
    for (std::size_t i = 0; i < codes.size() && i < kBlockBytes; ++i) {
        // Indices past 32 bits arise only from filler codes after a subslice's end; such a step is
        // left absent and the previous start still decodes everything before it.
        if (i % kStepBytes == 0 && n < kNone) start[i / kStepBytes] = static_cast<std::uint32_t>(n);
        n += positions_of(static_cast<std::uint8_t>(codes[i]));
    }
    std::memcpy(out, start, sizeof start);
    return n;
}

struct DecodeStart {
    std::uint32_t byte = 0;   // offset in the block where decoding starts
    std::uint32_t index = 0;  // local index decoded by that byte's code
};

// The latest recorded start at or before local index x; x must be at least the block's first
// index. Starts increase strictly (every code covers a position) and absent ones compare above
// every x, so "how many starts after the first are <= x" is the position of the last one.
// The starts are read in place (a copy to the stack first, then vector loads at other offsets,
// would defeat store-to-load forwarding); start[0] is at or before x, hence the count minus one.
inline DecodeStart find_start(const std::byte* checkpoints, std::uint32_t x) noexcept {
    const auto start = [checkpoints](std::size_t s) {
        std::uint32_t v;
        std::memcpy(&v, checkpoints + s * sizeof v, sizeof v);
        return v;
    };
    std::uint32_t count = 0;
    for (std::size_t s = 0; s < kSteps; ++s) count += start(s) <= x ? 1U : 0U;
    const std::uint32_t step = count - 1;
    return {static_cast<std::uint32_t>(step * kStepBytes), start(step)};
}

}  // namespace egdb::kingsrow::block_checkpoints
