#include "core/index/slice_graph.hpp"

#include <algorithm>

namespace egdb {

std::vector<SliceId> build_order(int max_pieces) {
    std::vector<SliceId> order;
    for (int total = 2; total <= max_pieces; ++total) {
        std::vector<SliceId> slices = canonical_slices(total);
        std::stable_sort(slices.begin(), slices.end(),
                         [](SliceId a, SliceId b) { return a.nbm + a.nwm < b.nbm + b.nwm; });
        order.insert(order.end(), slices.begin(), slices.end());
    }
    return order;
}

std::vector<SuccessorRead> successor_reads(SliceId slice) {
    std::vector<SuccessorRead> out;
    auto add = [&](SliceId s, Color side_to_move) {
        if (s.black() == 0 || s.white() == 0) return;
        if (!is_canonical(s)) {
            s = color_reversed(s);
            side_to_move = opposite(side_to_move);
        }
        if (s == slice) return;
        const auto it = std::find_if(out.begin(), out.end(), [&](const SuccessorRead& r) { return r.slice == s; });
        if (it != out.end()) {
            it->sides |= SideSet::only(side_to_move);
        } else {
            out.push_back({s, SideSet::only(side_to_move)});
        }
    };
    // Moves by Black; White's are Black's in the colour-reversed slice.
    for (const bool black_moves : {true, false}) {
        const SliceId mover_view = black_moves ? slice : color_reversed(slice);
        // After Black's move White is to move; after White's, Black.
        auto add_as_played = [&](SliceId s) {
            if (black_moves) {
                add(s, Color::White);
            } else {
                add(color_reversed(s), Color::Black);
            }
        };
        for (const bool promotes : {false, true}) {
            if (promotes && mover_view.nbm == 0) continue;
            const int promoted = promotes ? 1 : 0;
            for (int men_taken = 0; men_taken <= mover_view.nwm; ++men_taken) {
                for (int kings_taken = 0; kings_taken <= mover_view.nwk; ++kings_taken) {
                    if (!promotes && men_taken + kings_taken == 0) continue;  // a king move or a man move
                    add_as_played({mover_view.nbm - promoted, mover_view.nbk + promoted, mover_view.nwm - men_taken,
                                   mover_view.nwk - kings_taken});
                }
            }
        }
    }
    return out;
}

SideSet sides_read_by(SliceId slice, std::span<const SliceId> readers) {
    SideSet sides;
    for (const SliceId reader : readers) {
        for (const SuccessorRead& r : successor_reads(reader)) {
            if (r.slice == slice) sides |= r.sides;
        }
    }
    return sides;
}

std::vector<SliceId> successor_slices(SliceId slice) {
    std::vector<SliceId> out;
    for (const SuccessorRead& r : successor_reads(slice)) out.push_back(r.slice);
    return out;
}

std::vector<SliceId> dependency_closure(std::span<const SliceId> targets) {
    std::vector<SliceId> pending;
    int max_pieces = 0;
    for (SliceId s : targets) {
        pending.push_back(is_canonical(s) ? s : color_reversed(s));
        max_pieces = std::max(max_pieces, s.total());
    }
    std::vector<SliceId> needed;
    while (!pending.empty()) {
        const SliceId s = pending.back();
        pending.pop_back();
        if (std::find(needed.begin(), needed.end(), s) != needed.end()) continue;
        needed.push_back(s);
        for (SliceId t : successor_slices(s)) pending.push_back(t);
    }
    std::vector<SliceId> order;
    for (SliceId s : build_order(max_pieces)) {
        if (std::find(needed.begin(), needed.end(), s) != needed.end()) order.push_back(s);
    }
    return order;
}

}  // namespace egdb
