#include "core/generate/king_placements.hpp"

#include "core/index/binomial.hpp"

namespace egdb {

KingPlacements::KingPlacements(SliceId slice)
    : nbk_(slice.nbk),
      nwk_(slice.nwk),
      black_ranks_(binomial(kNumSquares - slice.nbm - slice.nwm, slice.nbk)),
      white_ranks_(binomial(kNumSquares - slice.nbm - slice.nwm - slice.nbk, slice.nwk)),
      white_divisor_(white_ranks_) {
    black_logical_.resize(black_ranks_);
    for (std::uint64_t r = 0; r < black_ranks_; ++r) black_logical_[r] = detail::group_unrank(r, nbk_);
    white_logical_.resize(white_ranks_);
    for (std::uint64_t r = 0; r < white_ranks_; ++r) white_logical_[r] = detail::group_unrank(r, nwk_);
}

}  // namespace egdb
