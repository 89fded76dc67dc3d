// Value types of the Kingsrow databases: the database types and the lookup results
// (kingsrow-format.md section 12.6). They are converted to the Kingsrow integer constants only
// at the edges (C ABI, tools), with to_code().
#pragma once

#include <cstdint>
#include <string_view>

#include "core/formats/database_type.hpp"

namespace egdb::kingsrow {

// The Kingsrow types are the upstream values of the one DatabaseType (EGDB_WLD_RUNLEN ...
// EGDB_DTW); EGDB_NATIVE is never a Kingsrow type.
using DbType = DatabaseType;
using egdb::name_of;

constexpr int to_code(DbType type) noexcept { return static_cast<int>(type); }

// A WLD lookup result (EGDB_SUBDB_UNAVAILABLE ... EGDB_WIN_OR_DRAW), from the point of view of the
// side to move.
enum class WldResult : std::int8_t {
    SubdbUnavailable = -2,
    NotInCache = -1,
    Unknown = 0,
    Win = 1,
    Loss = 2,
    Draw = 3,
    DrawOrLoss = 4,
    WinOrDraw = 5,
};

constexpr int to_code(WldResult r) noexcept { return static_cast<int>(r); }
std::string_view name_of(WldResult r) noexcept;  // "EGDB_WIN", ...

// An MTC lookup result (section 7): the moves-to-conversion in plies rounded up to even when it
// is at least kMtcThreshold, or the marker "below the threshold" (also returned for absent data,
// for positions with too many pieces and for conditional lookups, as upstream does).
class MtcValue {
public:
    static constexpr int kThreshold = 10;            // MTC_THRESHOLD
    static constexpr int kLessThanThresholdCode = 1;  // MTC_LESS_THAN_THRESHOLD

    constexpr MtcValue() noexcept = default;
    static constexpr MtcValue less_than_threshold() noexcept { return MtcValue(kLessThanThresholdCode); }
    static constexpr MtcValue plies(int even_plies) noexcept { return MtcValue(even_plies); }

    constexpr int to_code() const noexcept { return code_; }

    friend constexpr bool operator==(MtcValue, MtcValue) = default;

private:
    constexpr explicit MtcValue(int code) noexcept : code_(code) {}
    int code_ = kLessThanThresholdCode;
};

constexpr int to_code(MtcValue v) noexcept { return v.to_code(); }

// Whether a lookup may read the disk (upstream argument `cl`): a conditional lookup of data that
// is not in memory returns EGDB_NOT_IN_CACHE (MTC: MTC_LESS_THAN_THRESHOLD) instead.
enum class Conditional : std::uint8_t { No, Yes };

}  // namespace egdb::kingsrow
