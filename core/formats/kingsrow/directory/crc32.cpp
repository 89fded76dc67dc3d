#include "core/formats/kingsrow/directory/crc32.hpp"

#include <fstream>
#include <vector>

#include "core/util/mapped_file.hpp"

namespace egdb::kingsrow {
namespace {

constexpr std::uint32_t kReflectedPolynomial = 0xEDB88320U;

constexpr std::array<std::uint32_t, 256> make_table() noexcept {
    std::array<std::uint32_t, 256> table{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t r = i;
        for (int bit = 0; bit < 8; ++bit) r = (r >> 1) ^ ((r & 1U) != 0 ? kReflectedPolynomial : 0U);
        table[i] = r;
    }
    return table;
}

constexpr std::array<std::uint32_t, 256> kTable = make_table();

}  // namespace

std::uint32_t crc32(std::span<const std::byte> data, std::uint32_t crc) noexcept {
    std::uint32_t r = ~crc;
    for (const std::byte b : data) r = (r >> 8) ^ kTable[(r ^ static_cast<std::uint32_t>(b)) & 0xFFU];
    return ~r;
}

std::uint32_t file_crc32(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw FileError("cannot open " + path.string());
    std::vector<char> buffer(1 << 16);
    std::uint32_t crc = 0;
    while (in) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        const auto got = static_cast<std::size_t>(in.gcount());
        crc = crc32(std::as_bytes(std::span(buffer.data(), got)), crc);
    }
    if (in.bad()) throw FileError("cannot read " + path.string());
    return crc;
}

std::array<std::byte, 4> crc32_forcing_bytes(std::uint32_t crc_so_far, std::uint32_t target) noexcept {
    const auto crc_with = [crc_so_far](std::uint32_t suffix) {
        const std::array<std::byte, 4> bytes{std::byte(suffix & 0xFFU), std::byte((suffix >> 8) & 0xFFU),
                                             std::byte((suffix >> 16) & 0xFFU), std::byte(suffix >> 24)};
        return crc32(bytes, crc_so_far);
    };
    // crc(suffix) = base ^ sum of column[i] over the set bits i of suffix.
    const std::uint32_t base = crc_with(0);
    std::array<std::uint32_t, 32> column{};
    for (int i = 0; i < 32; ++i) column[i] = crc_with(std::uint32_t{1} << i) ^ base;
    // Gaussian elimination: each row is (column value, suffix bits that produce it).
    std::array<std::uint32_t, 32> value = column;
    std::array<std::uint32_t, 32> combination{};
    for (int i = 0; i < 32; ++i) combination[i] = std::uint32_t{1} << i;
    const std::uint32_t want = target ^ base;
    std::uint32_t suffix = 0;
    for (int bit = 0, row = 0; bit < 32; ++bit) {
        int pivot = -1;
        for (int r = row; r < 32; ++r) {
            if ((value[r] >> bit) & 1U) {
                pivot = r;
                break;
            }
        }
        if (pivot < 0) continue;  // cannot happen: the map is invertible for a 4-byte suffix
        std::swap(value[row], value[pivot]);
        std::swap(combination[row], combination[pivot]);
        for (int r = 0; r < 32; ++r) {
            if (r != row && ((value[r] >> bit) & 1U)) {
                value[r] ^= value[row];
                combination[r] ^= combination[row];
            }
        }
        ++row;
    }
    // The map has full rank, so row r now holds exactly bit r.
    for (int r = 0; r < 32; ++r) {
        if ((want >> r) & 1U) suffix ^= combination[r];
    }
    return {std::byte(suffix & 0xFFU), std::byte((suffix >> 8) & 0xFFU), std::byte((suffix >> 16) & 0xFFU),
            std::byte(suffix >> 24)};
}

}  // namespace egdb::kingsrow
