// Binary layout of the native format (docs/native-format.md). Shared by the writer and the reader.
#pragma once

#include <array>
#include <filesystem>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/board/position.hpp"
#include "core/index/slice.hpp"

namespace egdb::native {

inline constexpr std::array<std::byte, 8> kMagic = {std::byte{'E'}, std::byte{'G'}, std::byte{'D'}, std::byte{'B'},
                                                   std::byte{'N'}, std::byte{'A'}, std::byte{'T'}, std::byte{1}};
inline constexpr std::uint32_t kFormatVersion = 1;
inline constexpr std::size_t kFixedHeaderSize = 32;
inline constexpr std::size_t kSectionDescriptorSize = 48;
inline constexpr std::size_t kPageEntrySize = 16;
inline constexpr std::uint8_t kCodecZstd = 1;

enum class ValueKind : std::uint8_t { Wld = 0, Dtw = 1, Mtc = 2 };

inline constexpr std::array<ValueKind, 3> kAllValueKinds = {ValueKind::Wld, ValueKind::Dtw, ValueKind::Mtc};

constexpr const char* to_string(ValueKind k) noexcept {
    switch (k) {
        case ValueKind::Wld: return "wld";
        case ValueKind::Dtw: return "dtw";
        case ValueKind::Mtc: return "mtc";
    }
    return "?";
}

// Stored WLD codes (side to move's view).
inline constexpr std::uint8_t kStoredLoss = 0;
inline constexpr std::uint8_t kStoredDraw = 1;
inline constexpr std::uint8_t kStoredWin = 2;

struct SectionDescriptor {
    ValueKind kind = ValueKind::Wld;
    Color side = Color::Black;
    std::uint8_t value_bits = 2;
    std::uint8_t codec = kCodecZstd;
    std::uint32_t positions_per_page = 0;
    std::uint64_t page_count = 0;
    std::uint64_t page_table_offset = 0;
    std::uint64_t pages_offset = 0;
    std::uint64_t pages_bytes = 0;
    std::uint32_t max_value = 0;
};

// File name of a slice in a native database directory.
std::string slice_file_name(int nbm, int nbk, int nwm, int nwk);

// The slice a file name names, when it is exactly slice_file_name of one ("slice-1212.egdb");
// nullopt for any other name.
std::optional<SliceId> parse_slice_file_name(std::string_view name) noexcept;

// Whether `directory` holds at least one native slice file (what makes it a native database).
bool has_slice_files(const std::filesystem::path& directory);

// Bytes of a packed page of `count` values of `bits` bits.
constexpr std::size_t packed_size(std::size_t count, unsigned bits) noexcept {
    return bits == 2 ? (count + 3) / 4 : count * (bits / 8);
}

// The largest packed page a file may declare: a reader keeps whole pages in the slots of its page
// cache (page_cache.hpp). The writer's pages are 4 KiB (8 KiB for 16-bit distances).
inline constexpr std::size_t kMaxPageBytes = 65535;

}  // namespace egdb::native
