#include "core/build/slice_memory.hpp"

#include <algorithm>
#include <string>

#include "core/generate/kings_only_solver.hpp"
#include "core/generate/men_order.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/util/error.hpp"

namespace egdb::native {

std::uint64_t solve_need_bytes(SliceId s, bool by_units, int threads, std::uint64_t part_positions, std::uint64_t chunk_positions) {
    const std::uint64_t n = slice_size(s);
    std::uint64_t widest = 0;
    for (const MenLevelSize& l : men_level_sizes(s)) widest = std::max(widest, l.configurations);
    const std::uint64_t block = n / men_configurations(s.nbm, s.nwm);
    // A unit holds at most `held` configurations of its own level.
    const std::uint64_t held = !by_units || chunk_positions == 0 ? widest : std::min(widest, std::max<std::uint64_t>(1, chunk_positions / block));
    const std::uint64_t workers = std::min<std::uint64_t>(static_cast<std::uint64_t>(std::max(threads, 1)), held);
    // A slice without men is solved in the bytes of its level (kings_only_solver.hpp), on every
    // thread, with a few bits an entry beside them.
    const bool without_men = s.nbm == 0 && s.nwm == 0;
    const std::uint64_t workspaces = without_men ? KingsOnlySolver::workspace_bytes(block) : kBlockWorkspaceBytes * block * workers;
    // Each level's plan of blocks (colour_mirror.hpp): a slot to solve (8 bytes) per
    // configuration; in a colour-symmetric slice a partner (8), then a slot to solve (8) or a pair
    // to fill (16).
    const std::uint64_t block_plan = (is_color_symmetric(s) ? 24 : 8) * held;
    if (!by_units) return std::max(7 * n, 4 * n + workspaces + block_plan);
    // 4 bytes a position and 2 capture bits (solved_level.hpp) for the unit's configurations and
    // for those it reads of the level above: the whole level, or for a chunk the blocks its men's
    // moves reach (configurations_reached), at most two a man.
    const std::uint64_t configuration_bytes = 4 * block + block / 4;
    const std::uint64_t men = static_cast<std::uint64_t>(s.nbm + s.nwm);
    const std::uint64_t above = men == 0 ? 0 : held == widest ? widest : std::min(widest, 2 * men * held);
    const std::uint64_t part = std::max<std::uint64_t>(1, std::min(part_positions, n));
    const std::uint64_t writers = std::min<std::uint64_t>(static_cast<std::uint64_t>(std::max(threads, 1)), (n + part - 1) / part);
    // Writing: each writer's part, and the unit frame the parts are read from, kept decompressed
    // from one part to the next (at least one configuration: the whole slice without men).
    return std::max((held + above) * configuration_bytes + workspaces + block_plan, 8 * part * writers + configuration_bytes);
}

std::optional<SliceNeed> largest_need(std::span<const SliceId> slices, const std::function<std::uint64_t(SliceId)>& need) {
    std::optional<SliceNeed> largest;
    for (const SliceId s : slices) {
        const std::uint64_t bytes = need(s);
        if (!largest || bytes > largest->bytes) largest = SliceNeed{s, bytes};
    }
    return largest;
}

namespace {

// MiB, or KiB below one MiB (tests assume tiny machines).
std::string size_text(std::uint64_t bytes) {
    return bytes >= (std::uint64_t{1} << 20) ? std::to_string(bytes >> 20) + " MiB" : std::to_string(bytes >> 10) + " KiB";
}

}  // namespace

void refuse_beyond_machine(const SliceNeed& largest, std::uint64_t machine_bytes) {
    if (machine_bytes == 0 || largest.bytes <= machine_bytes) return;
    const SliceId s = largest.slice;
    throw RuntimeError(ErrorKind::Unsupported, "slice " + s.to_string() + " needs " + std::to_string(largest.bytes >> 20) +
                                                   " MiB to solve (" + std::to_string(slice_size(s)) + " positions, " +
                                                   std::to_string(slice_size(s) / men_configurations(s.nbm, s.nwm)) +
                                                   " in its largest block), more than this machine's " +
                                                   size_text(machine_bytes) + "; nothing was solved");
}

}  // namespace egdb::native
