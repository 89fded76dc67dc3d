// Binomial coefficients for the combinatorial number system of the slice index
// (kingsrow-format.md, conventions of section 0 and section 2.2): C(n,0) = 1 for every n >= 0 and
// C(n,k) = 0 whenever k > n. Upstream tabulates n <= 50, k <= 8; we go to k = 10 so that more
// pieces a side can be indexed without touching this file.
#pragma once

#include <array>
#include <cstdint>

namespace egdb {

inline constexpr int kBinomialMaxN = 50;  // one square per board square at most
inline constexpr int kBinomialMaxK = 10;  // pieces of one group; C(50,10) still fits in 64 bits

using BinomialTable = std::array<std::array<std::uint64_t, kBinomialMaxK + 1>, kBinomialMaxN + 1>;

// Pascal's triangle: exact, and it yields C(n,k) = 0 for k > n without special cases.
constexpr BinomialTable make_binomial_table() noexcept {
    BinomialTable table{};
    for (int n = 0; n <= kBinomialMaxN; ++n) {
        table[n][0] = 1;
        for (int k = 1; k <= kBinomialMaxK; ++k) {
            table[n][k] = n == 0 ? 0 : table[n - 1][k - 1] + table[n - 1][k];
        }
    }
    return table;
}

inline constexpr BinomialTable kBinomial = make_binomial_table();

// C(n,k); 0 outside 0 <= k <= n. n must not exceed kBinomialMaxN nor k kBinomialMaxK.
constexpr std::uint64_t binomial(int n, int k) noexcept {
    if (n < 0 || k < 0 || k > n) return 0;
    return kBinomial[n][k];
}

static_assert(binomial(50, 10) == 10'272'278'170ULL);
static_assert(binomial(45, 5) == 1'221'759 && binomial(5, 6) == 0 && binomial(0, 0) == 1);

}  // namespace egdb
