// EGDB_MTC_RUNLEN byte codes (kingsrow-format.md 7.3): bytes 0..93 are runs of MTC_SKIP[b]
// positions below the threshold, bytes 94..255 one position of MTC 2*(b-94).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "core/formats/kingsrow/result.hpp"
#include "core/formats/kingsrow/text_index/stream_table.hpp"

namespace egdb::kingsrow {

namespace mtc {

inline constexpr int kRunCodes = 94;

// MTC_SKIP, including upstream's 800000 where 80000 was surely meant: the files depend on it
// (7.3, 16.6). The spec's text says "index 74" but its own list (and upstream's table) puts it
// at index 84 = 50 + 34, between 70000 and 90000.
inline constexpr std::array<std::uint32_t, kRunCodes> kSkip = [] {
    std::array<std::uint32_t, kRunCodes> skip{};
    for (std::uint32_t i = 0; i < 50; ++i) skip[i] = i + 1;
    constexpr std::array<std::uint32_t, 44> kLong{
        100,   150,   200,   250,   300,   350,   400,   450,    500,    550,    600,     650,     700,      750,     800,
        850,   900,   950,   1000,  2000,  3000,  4000,  5000,   6000,   7000,   8000,    9000,    10000,    20000,   30000,
        40000, 50000, 60000, 70000, 800000, 90000, 100000, 300000, 1000000, 3000000, 10000000, 30000000, 100000000, 1000000000};
    for (std::size_t i = 0; i < kLong.size(); ++i) skip[50 + i] = kLong[i];
    return skip;
}();
static_assert(kSkip[84] == 800000 && kSkip[83] == 70000 && kSkip[85] == 90000, "the MTC_SKIP anomaly must be kept");

// The largest MTC (in plies) a byte can hold: 2 * (255 - 94).
inline constexpr int kMaxStoredMtc = 2 * (255 - kRunCodes);

}  // namespace mtc

class MtcCodec {
public:
    BlockCoding coding_of(const IndexRecord&, std::size_t, std::string_view) const noexcept { return {}; }

    std::uint32_t positions(BlockCoding, std::uint8_t code) const noexcept {
        return code < mtc::kRunCodes ? mtc::kSkip[code] : 1U;
    }

    int value(BlockCoding, std::uint8_t code, std::uint32_t) const noexcept {
        return code < mtc::kRunCodes ? MtcValue::kLessThanThresholdCode : 2 * (code - mtc::kRunCodes);
    }
};

}  // namespace egdb::kingsrow
