// Helpers of the small checksummed text files egdb writes (the manifest, the verify journal):
// a text's bytes for CRC-32C and writing, and a whole field parsed as a number.
#pragma once

#include <charconv>
#include <cstddef>
#include <span>
#include <string_view>
#include <system_error>
#include <type_traits>

namespace egdb {

inline std::span<const std::byte> text_bytes(std::string_view text) noexcept {
    return {reinterpret_cast<const std::byte*>(text.data()), text.size()};
}

// True when all of `text` (not empty) is one number; integers in `base`.
template <class T>
bool parse_whole_number(std::string_view text, T& value, int base = 10) {
    std::from_chars_result r{};
    if constexpr (std::is_floating_point_v<T>) {
        r = std::from_chars(text.data(), text.data() + text.size(), value);
    } else {
        r = std::from_chars(text.data(), text.data() + text.size(), value, base);
    }
    return r.ec == std::errc{} && r.ptr == text.data() + text.size() && !text.empty();
}

}  // namespace egdb
