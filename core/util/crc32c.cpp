#include "core/util/crc32c.hpp"

#include <array>
#include <cstring>

#if defined(__SSE4_2__)
#include <nmmintrin.h>
#endif

namespace egdb {
namespace {

// Reflected polynomial of CRC-32C.
constexpr std::uint32_t kPolynomial = 0x82F63B78U;

constexpr std::array<std::uint32_t, 256> make_table() {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t c = i;
        for (int k = 0; k < 8; ++k) c = (c & 1U) ? (c >> 1) ^ kPolynomial : c >> 1;
        t[i] = c;
    }
    return t;
}

inline constexpr std::array<std::uint32_t, 256> kTable = make_table();

}  // namespace

std::uint32_t crc32c_portable(std::span<const std::byte> data, std::uint32_t crc) noexcept {
    std::uint32_t c = ~crc;
    for (std::byte b : data) c = kTable[(c ^ static_cast<std::uint8_t>(b)) & 0xFFU] ^ (c >> 8);
    return ~c;
}

std::uint32_t crc32c(std::span<const std::byte> data, std::uint32_t crc) noexcept {
#if defined(__SSE4_2__)
    std::uint32_t c = ~crc;
    const std::byte* p = data.data();
    std::size_t n = data.size();
    std::uint64_t c64 = c;
    while (n >= 8) {
        std::uint64_t word;
        std::memcpy(&word, p, 8);
        c64 = _mm_crc32_u64(c64, word);
        p += 8;
        n -= 8;
    }
    c = static_cast<std::uint32_t>(c64);
    while (n > 0) {
        c = _mm_crc32_u8(c, static_cast<std::uint8_t>(*p++));
        --n;
    }
    return ~c;
#else
    return crc32c_portable(data, crc);
#endif
}

}  // namespace egdb
