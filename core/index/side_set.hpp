// A set of sides to move: which halves of a slice's solution a step needs or a SolvedSlice holds.
// A slice's successors are nearly always read at one side to move each (slice_graph.hpp,
// successor_reads), so a slice brought back into memory for a step that only reads it needs half
// of its values.
#pragma once

#include <cstdint>

#include "core/board/position.hpp"

namespace egdb {

class SideSet {
public:
    constexpr SideSet() noexcept = default;
    static constexpr SideSet both() noexcept { return SideSet(3); }
    static constexpr SideSet only(Color c) noexcept { return SideSet(static_cast<std::uint8_t>(1u << static_cast<unsigned>(c))); }

    constexpr bool contains(Color c) const noexcept { return (bits_ >> static_cast<unsigned>(c) & 1u) != 0; }
    constexpr bool contains(SideSet other) const noexcept { return (bits_ & other.bits_) == other.bits_; }
    constexpr bool empty() const noexcept { return bits_ == 0; }
    constexpr int count() const noexcept { return (bits_ & 1) + (bits_ >> 1 & 1); }

    constexpr SideSet operator|(SideSet other) const noexcept { return SideSet(static_cast<std::uint8_t>(bits_ | other.bits_)); }
    constexpr SideSet operator&(SideSet other) const noexcept { return SideSet(static_cast<std::uint8_t>(bits_ & other.bits_)); }
    constexpr SideSet& operator|=(SideSet other) noexcept { return *this = *this | other; }
    friend constexpr bool operator==(SideSet, SideSet) = default;

private:
    constexpr explicit SideSet(std::uint8_t bits) noexcept : bits_(bits) {}
    std::uint8_t bits_ = 0;
};

}  // namespace egdb
