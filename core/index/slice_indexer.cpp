#include "core/index/slice_indexer.hpp"

#include <cassert>
#include <utility>
#include <vector>

namespace egdb {

namespace {

// One side's (men, kings) with men + kings <= kMaxPiecesPerSide, numbered by pieces then kings.
struct SideCounts {
    int men;
    int kings;
};

constexpr int kSideCombinations = (kMaxPiecesPerSide + 1) * (kMaxPiecesPerSide + 2) / 2;

constexpr int side_slot(int men, int kings) noexcept {
    const int pieces = men + kings;
    return pieces * (pieces + 1) / 2 + kings;
}

constexpr SideCounts side_counts(int slot) noexcept {
    int pieces = 0;
    while ((pieces + 1) * (pieces + 2) / 2 <= slot) ++pieces;
    const int kings = slot - pieces * (pieces + 1) / 2;
    return {pieces - kings, kings};
}

constexpr int slice_slot(SliceId s) noexcept {
    return side_slot(s.nbm, s.nbk) * kSideCombinations + side_slot(s.nwm, s.nwk);
}

struct Dispatch {
    std::uint64_t (*index_of)(const Position&) noexcept;
    Position (*position_at)(std::uint64_t) noexcept;
};

template <int Slot>
constexpr Dispatch dispatch_for() noexcept {
    constexpr SideCounts black = side_counts(Slot / kSideCombinations);
    constexpr SideCounts white = side_counts(Slot % kSideCombinations);
    using Indexer = StaticSliceIndexer<black.men, black.kings, white.men, white.kings>;
    return {&Indexer::index_of, &Indexer::position_at};
}

template <int... Slots>
constexpr std::array<Dispatch, sizeof...(Slots)> make_dispatch_table(std::integer_sequence<int, Slots...>) noexcept {
    return {dispatch_for<Slots>()...};
}

// The StaticSliceIndexer of every indexable slice, by slice_slot.
constexpr auto kDispatch =
    make_dispatch_table(std::make_integer_sequence<int, kSideCombinations * kSideCombinations>{});

}  // namespace

SliceIndexer::SliceIndexer(SliceId slice) noexcept : slice_(slice), size_(slice_size(slice)) {
    assert(is_indexable(slice));
    const Dispatch& d = kDispatch[slice_slot(slice)];
    index_of_ = d.index_of;
    position_at_ = d.position_at;
}

std::uint64_t index_in_slice(SliceId slice, const Position& p) noexcept {
    assert(is_indexable(slice));
    return kDispatch[slice_slot(slice)].index_of(p);
}

const SliceIndexer& slice_indexer(SliceId slice) {
    static const std::vector<SliceIndexer> indexers = [] {
        std::vector<SliceIndexer> all;
        all.reserve(kSideCombinations * kSideCombinations);
        for (int slot = 0; slot < kSideCombinations * kSideCombinations; ++slot) {
            const SideCounts black = side_counts(slot / kSideCombinations);
            const SideCounts white = side_counts(slot % kSideCombinations);
            all.emplace_back(SliceId{black.men, black.kings, white.men, white.kings});
        }
        return all;
    }();
    assert(is_indexable(slice));
    return indexers[slice_slot(slice)];
}

std::int64_t position_to_index(const Position& p, int nbm, int nbk, int nwm, int nwk) noexcept {
    return static_cast<std::int64_t>(index_in_slice({nbm, nbk, nwm, nwk}, p));
}

void index_to_position(std::int64_t index, Position* p, int nbm, int nbk, int nwm, int nwk) noexcept {
    *p = slice_indexer({nbm, nbk, nwm, nwk}).position_at(static_cast<std::uint64_t>(index));
}

std::int64_t get_database_size_slice(int nbm, int nbk, int nwm, int nwk) noexcept {
    return static_cast<std::int64_t>(slice_size({nbm, nbk, nwm, nwk}));
}

}  // namespace egdb
