#include "core/generate/slice_solver.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/generate/block_check.hpp"
#include "core/generate/block_solver.hpp"
#include "core/generate/colour_mirror.hpp"
#include "core/generate/king_placements.hpp"
#include "core/generate/kings_only_solver.hpp"
#include "core/generate/men_order.hpp"
#include "core/util/error.hpp"

namespace egdb {

namespace {

// Copies every finished level into one SolvedSlice: the in-memory solve.
class SliceAssembler final : public LevelSink {
public:
    explicit SliceAssembler(SliceId slice) : out_(slice) {}

    bool has_level(SliceId, int) override { return false; }
    SolvedLevel load_level(SliceId slice, int) override {
        throw InternalError("slice " + slice.to_string() + ": no stored levels in memory");
    }
    void store_level(const SolvedLevel& level, double) override { out_.store(level); }
    const SolvedSlice* whole_slice() const noexcept override { return &out_; }

    SolvedSlice take() { return std::move(out_); }

private:
    SolvedSlice out_;
};

}  // namespace

SliceSolver::SliceSolver(SliceId slice, const SolvedLookup& smaller, SolveOptions options)
    : slice_(slice), smaller_(smaller), options_(options) {
    if (!is_indexable(slice) || slice.black() == 0 || slice.white() == 0) {
        throw InvalidArgumentError("cannot solve slice " + slice_.to_string() +
                                    ": need 1 to " + std::to_string(kMaxPiecesPerSide) + " pieces a side");
    }
}

SolvedSlice SliceSolver::solve() const {
    SliceAssembler assembler(slice_);
    solve_levels(assembler);
    return assembler.take();
}

namespace {

// One block workspace per worker thread, reused for every configuration it takes (made on first
// use: a resumed slice with every level stored needs none).
class LevelWorkers {
public:
    // `workers` block workspaces; `threads` threads in all (more than the workers when the
    // widest level has fewer configurations than threads: the spare threads then share the blocks).
    LevelWorkers(SliceId slice, const KingPlacements& kings, const SolvedLookup& smaller, std::size_t workers, std::size_t threads,
                 const SolveOptions& options)
        : slice_(slice), kings_(kings), smaller_(smaller), workers_(workers), threads_(std::max(threads, workers)),
          narrow_limit_(options.narrow_limit), sharing_(options.sharing), colour_mirror_(options.colour_mirror),
          kings_only_in_place_(options.kings_only_in_place && slice.nbm == 0 && slice.nwm == 0) {}

    // Solves every configuration of `level`, on up to `threads` threads. With `checks`, each
    // block is checked (block_check.hpp) by the thread(s) that solved it, right after: the check
    // reads what the solver keeps of the block's conversions until its next block. In a
    // colour-symmetric slice, the blocks whose reversed configuration is solved are filled from it
    // once every block is solved (colour_mirror.hpp).
    //
    // The workers take the blocks to solve in turn, except the last `count % active`, which the
    // threads then share (BlockSharing) when they are large: a level of 5 large blocks on 2
    // threads (the slices with one man: 1401, 1302, ...) would otherwise end with one thread
    // solving the fifth block alone, a third of the level's wall time with a core idle. In a level
    // of fewer configurations than threads, each block has threads / count of them.
    void solve(SolvedLevel& level, const SolvedLevel* next, const SolvedSlice* whole, LevelChecks* checks) {
        if (kings_only_in_place_) {
            solve_kings_only(level, checks);
            return;
        }
        const MirrorPlan plan = plan_colour_mirror(level, colour_mirror_, threads_);
        const std::vector<std::uint64_t>& slots = plan.solve;
        const std::size_t count = slots.size();
        const std::size_t active = std::max<std::size_t>(1, std::min(workers_.size(), count));
        const std::size_t tail = count % active;
        const std::size_t max_messages = checks != nullptr ? checks->max_messages : 0;
        std::vector<CheckTally> tallies(active);
        std::vector<double> check_seconds(active, 0.0);
        const auto solve_block = [&](std::size_t w, std::size_t k, std::size_t block_threads) {
            const std::uint64_t slot = slots[k];
            workers_[w]->solve(level, slot, next, whole, block_threads);
            if (checks == nullptr) return;
            const auto start = std::chrono::steady_clock::now();
            check_solved_block(*workers_[w], level, slot, block_threads, tallies[w], max_messages);
            check_seconds[w] += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        };
        const std::size_t shared_from = tail != 0 && worker(0).shares_block(threads_ / tail) ? count - tail : count;
        run_blocks(0, shared_from, active, threads_ / active, solve_block);
        if (shared_from < count) run_blocks(shared_from, count, tail, threads_ / tail, solve_block);
        fill_colour_mirror(level, kings_, plan.fill, threads_);
        if (checks == nullptr) return;
        // The threads checked side by side: the wall time of the checks is about their mean.
        double seconds = 0;
        for (std::size_t w = 0; w < active; ++w) {
            checks->result.add(std::move(tallies[w]), max_messages);
            seconds += check_seconds[w];
        }
        checks->seconds += seconds / static_cast<double>(active);
        checks->positions_mirrored += 2 * plan.fill.size() * level.block_size();
        ++checks->levels_checked;
    }

private:
    // The one block of a slice without men, on every thread, checked on every thread after.
    void solve_kings_only(SolvedLevel& level, LevelChecks* checks) {
        if (!kings_only_) kings_only_ = std::make_unique<KingsOnlySolver>(slice_, kings_, smaller_, narrow_limit_);
        kings_only_->solve(level, threads_);
        if (checks == nullptr) return;
        const auto start = std::chrono::steady_clock::now();
        check_solved_block(*kings_only_, level, 0, threads_, checks->result, checks->max_messages);
        checks->seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        ++checks->levels_checked;
    }

    // Items [first, last) of the blocks to solve (solve_block takes an item to its slot) on `active`
    // workers taking them in turn, each block shared by `block_threads` threads (the worker's among
    // them).
    template <class SolveBlock>
    void run_blocks(std::size_t first, std::size_t last, std::size_t active, std::size_t block_threads, SolveBlock& solve_block) {
        if (first >= last) return;
        active = std::min(active, last - first);
        for (std::size_t w = 0; w < active; ++w) worker(w);
        if (active == 1) {
            for (std::size_t k = first; k < last; ++k) solve_block(0, k, block_threads);
            return;
        }
        std::atomic<std::size_t> next_slot{first};
        std::vector<std::exception_ptr> errors(active);
        {
            std::vector<std::jthread> pool;
            for (std::size_t w = 0; w < active; ++w) {
                pool.emplace_back([&, w] {
                    try {
                        for (std::size_t k = next_slot.fetch_add(1, std::memory_order_relaxed); k < last;
                             k = next_slot.fetch_add(1, std::memory_order_relaxed)) {
                            solve_block(w, k, block_threads);
                        }
                    } catch (...) {
                        errors[w] = std::current_exception();
                        next_slot.store(last, std::memory_order_relaxed);
                    }
                });
            }
        }  // joins: the blocks' entries are complete and visible before the next blocks or level read them
        for (const auto& error : errors) {
            if (error) std::rethrow_exception(error);
        }
    }

    BlockSolver& worker(std::size_t w) {
        if (!workers_[w]) workers_[w] = std::make_unique<BlockSolver>(slice_, kings_, smaller_, narrow_limit_, sharing_);
        return *workers_[w];
    }

    SliceId slice_;
    const KingPlacements& kings_;
    const SolvedLookup& smaller_;
    std::vector<std::unique_ptr<BlockSolver>> workers_;
    std::size_t threads_;
    Plies narrow_limit_;
    BlockSharing sharing_;
    bool colour_mirror_;
    bool kings_only_in_place_;
    std::unique_ptr<KingsOnlySolver> kings_only_;
};

std::size_t total_threads(const SolveOptions& options) { return static_cast<std::size_t>(std::max(1, options.threads)); }

std::size_t thread_count(const SolveOptions& options, std::size_t widest_level) {
    return std::min(static_cast<std::size_t>(std::max(1, options.threads)), std::max<std::size_t>(1, widest_level));
}

}  // namespace

void SliceSolver::solve_levels(LevelSink& sink) const {
    const KingPlacements kings(slice_);
    std::vector<MenLevel> levels = men_configuration_levels(slice_);
    std::size_t widest_level = 1;
    for (const auto& level : levels) widest_level = std::max(widest_level, level.configurations.size());
    LevelWorkers workers(slice_, kings, smaller_, thread_count(options_, widest_level), total_threads(options_),
                         options_);

    // The level above the one being solved, when it is one row of advancement higher.
    std::optional<SolvedLevel> above;
    bool above_stored = false;  // `above` was skipped as stored and is not loaded yet
    int above_advancement = -2;
    for (MenLevel& men_level : levels) {
        const int a = men_level.advancement;
        if (sink.has_level(slice_, a)) {
            if (options_.checks != nullptr) ++options_.checks->levels_not_checked;
            above.reset();
            above_stored = true;
            above_advancement = a;
            continue;
        }
        if (above_stored && above_advancement == a + 1) above.emplace(sink.load_level(slice_, above_advancement));
        const SolvedLevel* next = above && above->advancement() == a + 1 ? &*above : nullptr;

        const auto start = std::chrono::steady_clock::now();
        SolvedLevel level(slice_, a, std::move(men_level.configurations));
        workers.solve(level, next, sink.whole_slice(), options_.checks);
        const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
        sink.store_level(level, seconds.count());
        above.emplace(std::move(level));
        above_stored = false;
        above_advancement = a;
    }
}

SolvedLevel SliceSolver::solve_level(int advancement, std::vector<std::uint64_t> configurations,
                                     const SolvedLevel* next) const {
    if (next != nullptr && (next->slice() != slice_ || next->advancement() != advancement + 1)) {
        throw InvalidArgumentError("slice " + slice_.to_string() + " level " + std::to_string(advancement) +
                                    ": the level given as the next is not level " + std::to_string(advancement + 1));
    }
    const KingPlacements kings(slice_);
    SolvedLevel level(slice_, advancement, std::move(configurations));
    LevelWorkers workers(slice_, kings, smaller_, thread_count(options_, level.configurations().size()), total_threads(options_),
                         options_);
    workers.solve(level, next, nullptr, options_.checks);
    return level;
}

}  // namespace egdb
