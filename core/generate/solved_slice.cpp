#include "core/generate/solved_slice.hpp"

namespace egdb {

SolvedSlice::SolvedSlice(SliceId slice) : slice_(slice), size_(slice_size(slice)) {
    for (std::size_t side = 0; side < 2; ++side) {
        dtw_codes_[side].assign(size_, kDrawCode);
        mtc_[side].assign(size_, 0);
    }
}

}  // namespace egdb
