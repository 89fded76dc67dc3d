// Which solved slices stay decoded in memory while a slice is solved (egdb build) or checked
// (egdb verify) under a memory budget: the one policy both follow.
//
// What the process holds during a step:
//   process   what the plan does not itemise: the program, thread arenas, buffers, measured
//             (resident set minus decoded slices minus the page cache's filled slots);
//   decoded   the solved slices in the store (2 bytes a position and side to move held: a slice
//             brought back to be read is held for the sides it is read at, build_driver.hpp);
//   step      what the step itself needs (the caller says: a slice being solved holds its levels
//             and workspaces, one being checked its values, capture flags and own file);
//   cache     the page cache, charged at its capacity;
//   files     the file pages of the slices the step reads that are not decoded for the sides
//             it reads them at (a lookup through
//             a file reads its pages; they leave the resident set after the step,
//             MappedFile::release_resident_pages).
// A lookup in memory is a load; one through a file a page decompression and, at a capture
// position, a search. So the plan drops decoded slices the step does not read first (oldest
// first), then those it reads, and brings back the slices it reads that fit.
//
// Why measured: the process part is about 0.5 GiB in a 6-piece build and changes with the
// threads and the allocator; a plan that left it out went 14 MiB over an 11 GiB budget in a
// verification, and more in a build. It is taken at the step's start, when the file pages of
// the previous step have been given back, and never decreases (arenas rarely shrink).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>

#include "core/generate/build_driver.hpp"
#include "core/index/side_set.hpp"
#include "core/generate/solution_store.hpp"
#include "core/index/slice.hpp"

namespace egdb {

// Whether `store` answers r.slice at every side to move it is read at (SolutionStore::answers).
bool answers_every_side_read(const SolutionStore& store, const SuccessorRead& r);

class DecodedSlicePlan {
public:
    // `file_bytes(t)`: the size of slice t's file, 0 when there is none yet.
    DecodedSlicePlan(std::uint64_t budget_bytes, std::uint64_t cache_bytes, std::function<std::uint64_t(SliceId)> file_bytes);

    // Records what the process holds besides `store` and `cache_filled_bytes` of the page cache,
    // given its resident set (`resident_bytes`, e.g. resident_memory_bytes()). Call it at the start
    // of a step, after file pages were given back. No effect once assume() was called.
    void measure(std::uint64_t resident_bytes, const SolutionStore& store, std::uint64_t cache_filled_bytes);

    // Takes the process part to be `bytes` from now on, instead of measuring it: a budget of a
    // few MiB in a test then does not depend on the test process's allocator.
    void assume(std::uint64_t bytes) noexcept {
        process_bytes_ = bytes;
        assumed_ = true;
    }

    // The process part measured so far (0 before any measure()).
    std::uint64_t process_bytes() const noexcept { return process_bytes_; }

    // What a step on `slice` that needs `step_bytes` itself would hold with `store` as it is.
    std::uint64_t held(const SolutionStore& store, SliceId slice, std::uint64_t step_bytes) const;

    // Drops slices of `earlier` (oldest first) from `store` until the step fits: first those
    // `slice` does not read (or holds for a side to move it does not read them at), then those it
    // reads. Then, for each slice t it reads (successor_reads) that the store does not answer at
    // the sides read and that is `available(t)`, calls `restore(t, sides)` (which adds t to the
    // store, decoded for `sides`) if the step still fits with t decoded instead of read through
    // its file. `sides` are the sides read, with those t was already held for when that fits too.
    // Returns what the step holds then (more than the budget when even an empty store does not
    // make it fit).
    std::uint64_t make_room(SolutionStore& store, SliceId slice, std::uint64_t step_bytes, std::span<const SliceId> earlier,
                            const std::function<bool(SliceId)>& available,
                            const std::function<void(SliceId, SideSet)>& restore) const;

    // The bytes of slice t decoded for `sides` (SolvedSlice::sides_to_hold): 2 a position and side.
    static std::uint64_t decoded_bytes(SliceId t, SideSet sides) noexcept;

    std::uint64_t budget_bytes() const noexcept { return budget_; }

    // The page cache of the finished files that build and verify open under a budget of
    // `budget_bytes`: an eighth of it, at least 8 MiB and at most 1 GiB.
    static std::size_t cache_bytes(std::uint64_t budget_bytes) noexcept;

private:
    // held() for a step that reads `reads` (successor_reads(slice), computed once by the caller).
    std::uint64_t held(const SolutionStore& store, std::span<const SuccessorRead> reads, std::uint64_t step_bytes) const;

    std::uint64_t budget_;
    std::uint64_t cache_;
    std::function<std::uint64_t(SliceId)> file_bytes_;
    std::uint64_t process_bytes_ = 0;
    bool assumed_ = false;
};

}  // namespace egdb
