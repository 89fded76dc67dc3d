#include "core/generate/solved_level.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/util/error.hpp"

namespace egdb {

SolvedLevel::SolvedLevel(SliceId slice, int advancement, std::vector<std::uint64_t> configurations)
    : slice_(slice), advancement_(advancement), configurations_(std::move(configurations)) {
    const std::uint64_t men = men_configurations(slice.nbm, slice.nwm);
    block_size_ = slice_size(slice) / men;
    men_divisor_ = detail::FastDivisor(block_size_);
    const std::size_t count = configurations_.size();
    if (count >= std::numeric_limits<std::uint32_t>::max()) {
        throw LimitError("level " + std::to_string(advancement) + " of slice " + slice.to_string() + " is too large");
    }
    for (std::size_t k = 0; k < count; ++k) {
        const std::uint64_t c = configurations_[k];
        if (c >= men || (k > 0 && c <= configurations_[k - 1])) {
            throw InvalidArgumentError("level " + std::to_string(advancement) + " of slice " + slice.to_string() +
                                        ": men configurations must be increasing and below " + std::to_string(men));
        }
    }
    // About one bucket per configuration held: the smallest shift with men >> shift <= count.
    while ((men >> bucket_shift_) > std::max<std::uint64_t>(count, 1)) ++bucket_shift_;
    directory_.assign((men >> bucket_shift_) + 2, 0);
    std::size_t k = 0;
    for (std::uint64_t b = 0; b < directory_.size(); ++b) {
        while (k < count && (configurations_[k] >> bucket_shift_) < b) ++k;
        directory_[b] = static_cast<std::uint32_t>(k);
    }
    for (std::size_t side = 0; side < 2; ++side) {
        dtw_codes_[side].assign(size(), kDrawCode);
        mtc_[side].assign(size(), 0);
        captures_[side].assign((size() + 63) / 64, 0);
    }
}

void SolvedLevel::throw_not_held(std::uint64_t index) const {
    throw InternalError("level " + std::to_string(advancement_) + " of slice " + slice_.to_string() +
                           " does not hold index " + std::to_string(index));
}

}  // namespace egdb
