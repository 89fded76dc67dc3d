// EGDB_WLD_RUNLEN byte codes (kingsrow-format.md 6.2): literals of 4 (complete) or 2 (partial,
// "haspartials") positions and runs of the SKIP / SKIP_INC lengths.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "core/formats/kingsrow/text_index/stream_table.hpp"

namespace egdb::kingsrow {

namespace runlen {

inline constexpr std::array<std::uint16_t, 58> kSkip{
    5,  6,  7,  8,  9,  10, 11, 12, 13, 14,  15,  16,  17,  18,  19,  20,  21,  22,  23,   24,
    25, 26, 27, 28, 29, 30, 31, 32, 36, 40,  44,  48,  52,  56,  60,  70,  80,  90,  100,  150,
    200, 250, 300, 400, 500, 650, 800, 1000, 1200, 1400, 1600, 2000, 2400, 3200, 4000, 5000, 7500, 10000};

inline constexpr std::array<std::uint16_t, 36> kSkipPartial = [] {
    std::array<std::uint16_t, 36> skip{};
    for (int i = 0; i < 33; ++i) skip[i] = static_cast<std::uint16_t>(i + 3);
    skip[33] = 70;
    skip[34] = 106;
    skip[35] = 500;
    return skip;
}();

inline constexpr int kCompleteLiterals = 81;   // 0..80: 4 positions, base 3
inline constexpr int kCompleteLiteralPositions = 4;
inline constexpr int kPartialLiterals = 36;    // 0..35: 2 positions, base 6
inline constexpr int kPartialLiteralPositions = 2;

struct CodeTable {
    std::array<std::uint16_t, 256> positions{};
    std::array<std::uint8_t, 256> run_value{};  // value of a run code (literals: unused)
};

constexpr CodeTable make_code_table(bool partial) noexcept {
    CodeTable t{};
    for (int b = 0; b < 256; ++b) {
        if (!partial) {
            if (b < kCompleteLiterals) {
                t.positions[b] = kCompleteLiteralPositions;
            } else {
                t.positions[b] = kSkip[(b - kCompleteLiterals) % kSkip.size()];
                t.run_value[b] = static_cast<std::uint8_t>((b - kCompleteLiterals) / kSkip.size() + 1);
            }
        } else if (b < kPartialLiterals) {
            t.positions[b] = kPartialLiteralPositions;
        } else {
            t.positions[b] = kSkipPartial[(b - kPartialLiterals) % kSkipPartial.size()];
            // 252..255 would give 6, which is no value (6.2); read them as EGDB_UNKNOWN.
            const int v = (b - kPartialLiterals) / static_cast<int>(kSkipPartial.size());
            t.run_value[b] = static_cast<std::uint8_t>(v <= 5 ? v : 0);
        }
    }
    return t;
}

inline constexpr std::array<CodeTable, 2> kCodeTables{make_code_table(false), make_code_table(true)};

}  // namespace runlen

class RunlenCodec {
public:
    BlockCoding coding_of(const IndexRecord& record, std::size_t, std::string_view) const noexcept {
        return {static_cast<std::uint16_t>(record.has_partials ? 1 : 0), 0};
    }

    std::uint32_t positions(BlockCoding coding, std::uint8_t code) const noexcept {
        return runlen::kCodeTables[coding.table].positions[code];
    }

    int value(BlockCoding coding, std::uint8_t code, std::uint32_t offset) const noexcept {
        if (coding.table == 0) {
            if (code >= runlen::kCompleteLiterals) return runlen::kCodeTables[0].run_value[code];
            static constexpr std::array<int, 4> kPower{1, 3, 9, 27};
            return code / kPower[offset] % 3 + 1;
        }
        if (code >= runlen::kPartialLiterals) return runlen::kCodeTables[1].run_value[code];
        return offset == 0 ? code % 6 : code / 6 % 6;
    }
};

}  // namespace egdb::kingsrow
