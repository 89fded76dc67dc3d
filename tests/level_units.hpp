// The units of one slice cut into whole levels, as the build engine cuts a single-process build
// (chunk_positions 0, build/unit_chunks.hpp): each level a SliceSolver hands on is written as
// its unit file in OUT/units. For tests of the unit files and of what is read back from them.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/build/build_directory.hpp"
#include "core/build/unit_chunks.hpp"
#include "core/build/unit_file.hpp"
#include "core/generate/build_driver.hpp"
#include "core/generate/men_order.hpp"
#include "core/generate/slice_solver.hpp"

namespace egdb::test {

class LevelUnits final : public LevelSink {
public:
    LevelUnits(std::filesystem::path out, SliceId slice, int write_threads = 1)
        : out_(std::move(out)), slice_(slice), write_threads_(write_threads), levels_(men_configuration_levels(slice)) {
        native::create_unit_folder(out_);
    }

    std::filesystem::path path(int advancement) const { return native::unit_chunk_path(out_, slice_, advancement, 0); }
    native::UnitInputs inputs(int advancement) const { return native::unit_inputs(levels_, successor_slices(slice_), advancement); }
    std::vector<native::UnitSource> sources() const { return native::chunk_sources(out_, slice_, levels_, 0); }
    SolvedSlice assemble(SideSet sides = SideSet::both(), int threads = 1) const {
        return native::assemble_units(slice_, sources(), sides, threads);
    }

    bool has_level(SliceId, int) override { return false; }
    SolvedLevel load_level(SliceId slice, int) override { throw std::logic_error("slice " + slice.to_string() + ": no levels kept"); }
    void store_level(const SolvedLevel& level, double) override {
        native::write_unit_file(path(level.advancement()), level, inputs(level.advancement()), {.threads = write_threads_});
    }

private:
    std::filesystem::path out_;
    SliceId slice_;
    int write_threads_ = 1;
    std::vector<MenLevel> levels_;
};

}  // namespace egdb::test
