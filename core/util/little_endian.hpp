// Explicit little-endian encoding of integers in byte buffers, so file formats do not depend on
// the host's byte order or on struct layout.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

namespace egdb {

template <class T>
    requires std::is_unsigned_v<T>
constexpr T load_le(std::span<const std::byte> bytes, std::size_t offset) noexcept {
    T v = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) v |= static_cast<T>(static_cast<T>(bytes[offset + i]) << (8 * i));
    return v;
}

template <class T>
    requires std::is_unsigned_v<T>
void append_le(std::vector<std::byte>& out, T value) {
    for (std::size_t i = 0; i < sizeof(T); ++i) out.push_back(static_cast<std::byte>((value >> (8 * i)) & 0xFFU));
}

template <class T>
    requires std::is_unsigned_v<T>
void store_le(std::span<std::byte> bytes, std::size_t offset, T value) noexcept {
    for (std::size_t i = 0; i < sizeof(T); ++i) bytes[offset + i] = static_cast<std::byte>((value >> (8 * i)) & 0xFFU);
}

}  // namespace egdb
