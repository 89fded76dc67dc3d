#include "core/index/slice.hpp"

namespace egdb {

std::string SliceId::to_string() const {
    std::string name;
    for (const int count : {nbm, nbk, nwm, nwk}) name += std::to_string(count);
    return name;
}

std::vector<SliceId> canonical_slices(int total_pieces) {
    std::vector<SliceId> slices;
    for (int nb = 1; nb <= kMaxPiecesPerSide && nb < total_pieces; ++nb) {
        const int nw = total_pieces - nb;
        if (nw > nb) continue;
        for (int nbk = 0; nbk <= nb; ++nbk) {
            for (int nwk = 0; nwk <= nw; ++nwk) {
                if (nb == nw && nwk > nbk) continue;
                slices.push_back({nb - nbk, nbk, nw - nwk, nwk});
            }
        }
    }
    return slices;
}

std::vector<SliceId> all_slices(int max_pieces, EmptySide empty_side) {
    const int min_per_side = empty_side == EmptySide::Included ? 0 : 1;
    std::vector<SliceId> slices;
    for (int total = 1; total <= max_pieces; ++total) {
        for (int nbm = 0; nbm <= kMaxPiecesPerSide; ++nbm) {
            for (int nbk = 0; nbm + nbk <= kMaxPiecesPerSide; ++nbk) {
                for (int nwm = 0; nwm <= kMaxPiecesPerSide; ++nwm) {
                    const int nwk = total - nbm - nbk - nwm;
                    if (nwk < 0 || nwm + nwk > kMaxPiecesPerSide) continue;
                    const SliceId slice{nbm, nbk, nwm, nwk};
                    if (slice.black() < min_per_side || slice.white() < min_per_side) continue;
                    slices.push_back(slice);
                }
            }
        }
    }
    return slices;
}

}  // namespace egdb
