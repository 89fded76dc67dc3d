#include "core/build/slice_memory.hpp"

#include <algorithm>

#include "core/generate/men_order.hpp"
#include "core/index/slice_indexer.hpp"

namespace egdb::native {

std::uint64_t solve_need_bytes(SliceId s, bool by_units, int threads, std::uint64_t part_positions) {
    const std::uint64_t n = slice_size(s);
    std::uint64_t widest = 0;
    for (const MenLevel& l : men_configuration_levels(s)) widest = std::max<std::uint64_t>(widest, l.configurations.size());
    const std::uint64_t block = n / men_configurations(s.nbm, s.nwm);
    const std::uint64_t workers = std::min<std::uint64_t>(static_cast<std::uint64_t>(std::max(threads, 1)), widest);
    const std::uint64_t workspaces = kBlockWorkspaceBytes * block * workers;
    // Each level's plan of blocks (colour_mirror.hpp): a slot to solve (8 bytes) per
    // configuration; in a colour-symmetric slice a partner (8), then a slot to solve (8) or a pair
    // to fill (16).
    const std::uint64_t block_plan = (is_color_symmetric(s) ? 24 : 8) * widest;
    if (!by_units) return std::max(7 * n, 4 * n + workspaces + block_plan);
    // 4 bytes a position and 2 capture bits (solved_level.hpp).
    const std::uint64_t level_bytes = 4 * block * widest + block * widest / 4;
    const std::uint64_t part = std::max<std::uint64_t>(1, std::min(part_positions, n));
    const std::uint64_t writers = std::min<std::uint64_t>(static_cast<std::uint64_t>(std::max(threads, 1)), (n + part - 1) / part);
    return std::max(2 * level_bytes + workspaces + block_plan, 8 * part * writers);
}

}  // namespace egdb::native
