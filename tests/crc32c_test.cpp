#include "core/util/crc32c.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string_view>
#include <vector>

namespace egdb {
namespace {

std::span<const std::byte> bytes_of(std::string_view s) { return std::as_bytes(std::span(s.data(), s.size())); }

TEST(Crc32c, StandardCheckValue) {
    // The CRC-32C check value of the ASCII digits (RFC 3720, iSCSI).
    EXPECT_EQ(crc32c(bytes_of("123456789")), 0xE3069283U);
    EXPECT_EQ(crc32c_portable(bytes_of("123456789")), 0xE3069283U);
    EXPECT_EQ(crc32c(bytes_of("")), 0U);
}

TEST(Crc32c, FastAndPortableAgreeAndChain) {
    std::mt19937 rng(1);
    std::vector<std::byte> data(1000);
    for (auto& b : data) b = static_cast<std::byte>(rng());
    for (std::size_t len : {0U, 1U, 7U, 8U, 9U, 63U, 64U, 999U, 1000U}) {
        const auto part = std::span<const std::byte>(data.data(), len);
        EXPECT_EQ(crc32c(part), crc32c_portable(part)) << len;
    }
    const auto all = std::span<const std::byte>(data);
    EXPECT_EQ(crc32c(all.subspan(300), crc32c(all.first(300))), crc32c(all));
}

}  // namespace
}  // namespace egdb
