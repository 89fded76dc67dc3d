// The values of solved slices held partly in memory and partly only in their files: a position
// the SolutionStore answers (its slice held for that side to move) is answered from it, any other
// from its native file through a NativeDatabase (page cache; "don't care" positions resolved from
// their successors). A build or a verification under a memory budget drops decoded slices from
// the store, or holds them for one side, and reads the rest here.
#pragma once

#include "core/formats/native/native_database.hpp"
#include "core/generate/solution_store.hpp"

namespace egdb::native {

class StoreThenFiles final : public SolvedLookup {
public:
    // `files` may be null (no file to read yet) and may be replaced between uses (set_files).
    StoreThenFiles(const SolutionStore& store, const NativeDatabase* files) : store_(store), files_(files) {}
    void set_files(const NativeDatabase* files) noexcept { files_ = files; }

    PositionValue value(const Position& position, Color side_to_move) const override {
        PositionValue v;
        if (store_.value_if_held(position, side_to_move, v)) [[likely]] return v;
        if (files_ != nullptr) return files_->value(position, side_to_move);
        return store_.value(position, side_to_move);  // the store's own error
    }
    DtwValue dtw_value(const Position& position, Color side_to_move) const override {
        DtwValue v;
        if (store_.dtw_value_if_held(position, side_to_move, v)) [[likely]] return v;
        if (files_ != nullptr) return dtw_part(files_->value(position, side_to_move));
        return store_.dtw_value(position, side_to_move);  // the store's own error
    }

private:
    const SolutionStore& store_;
    const NativeDatabase* files_;
};

}  // namespace egdb::native
