// Wide positions (core/values/position_value.hpp, wide_values.hpp): distances that do not fit
// the byte encoding are held whole in a table. No distance of up to 6 pieces needs it, so the
// tests lower the solver's narrow limit (every distance above a few plies becomes wide) and check
// that nothing changes: the same values, the same files, in memory, through unit files and part
// files, and after reading back. Distances above 255, which only 7 and 8 pieces have, are put in
// by hand to check that they are stored whole (16-bit sections), the same whether the slice file
// is written at once or assembled from parts of its unit files.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "core/formats/native/native_layout.hpp"
#include "core/formats/native/slice_file_reader.hpp"
#include "core/formats/native/slice_part_file.hpp"
#include "core/build/solved_slice_io.hpp"
#include "core/build/unit_file.hpp"
#include "core/build/unit_range_reader.hpp"
#include "core/build/verify_database.hpp"
#include "core/generate/build_driver.hpp"
#include "core/generate/king_placements.hpp"
#include "core/generate/men_order.hpp"
#include "core/generate/slice_solver.hpp"
#include "core/generate/solution_store.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/rules/movegen.hpp"
#include "core/util/error.hpp"
#include "core/workflow/build.hpp"
#include "tests/build_helpers.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/test_positions.hpp"

namespace egdb {
namespace {

namespace fs = std::filesystem;
using test::slurp;

constexpr Plies kWideTestLimit = 6;  // most wins and losses of 3-4 pieces are longer

std::uint64_t wide_positions_of(const SolvedSlice& s) { return s.wide(Color::Black).size() + s.wide(Color::White).size(); }

// Keeps every level a solve hands over.
class WideTestLevels final : public LevelSink {
public:
    std::map<int, SolvedLevel> levels;
    bool has_level(SliceId, int) override { return false; }
    SolvedLevel load_level(SliceId, int advancement) override { return levels.at(advancement); }
    void store_level(const SolvedLevel& level, double) override { levels.emplace(level.advancement(), level); }
};

// The ordinary solutions of up to 4 pieces (3 in sanitizer builds), solved once for the suite.
class WideDistances : public ::testing::Test {
protected:
    static int pieces() { return test::quick_mode() ? 3 : 4; }
    static void SetUpTestSuite() {
        ordinary_ = new SolutionStore;
        for (const SliceId s : build_order(pieces())) ordinary_->add(SliceSolver(s, *ordinary_, {2}).solve());
    }
    static void TearDownTestSuite() { delete ordinary_; }
    static SolutionStore* ordinary_;
};
SolutionStore* WideDistances::ordinary_ = nullptr;

TEST_F(WideDistances, TheSolverGivesTheSameValuesWithEveryDistanceAboveTheLimitWide) {
    SolutionStore wide;
    std::uint64_t wide_positions = 0;
    for (const SliceId s : build_order(pieces())) {
        wide.add(SliceSolver(s, wide, {2, kWideTestLimit}).solve());
        const SolvedSlice& a = *ordinary_->find(s);
        const SolvedSlice& b = *wide.find(s);
        EXPECT_EQ(wide_positions_of(a), 0U) << s.to_string();
        wide_positions += wide_positions_of(b);
        for (const Color side : {Color::Black, Color::White}) {
            for (std::uint64_t i = 0; i < a.size(); ++i) {
                const PositionValue va = a.value(i, side);
                ASSERT_EQ(va, b.value(i, side)) << s.to_string() << " index " << i;
                // The DTW byte alone, with the table for a wide code.
                ASSERT_EQ(b.dtw_value(i, side), dtw_part(va)) << s.to_string() << " index " << i;
                const bool should_be_wide = va.wld != WldValue::Draw && (va.dtw > kWideTestLimit || va.mtc > kWideTestLimit);
                ASSERT_EQ(is_wide_code(b.dtw_codes(side)[i]), should_be_wide) << s.to_string() << " index " << i;
            }
        }
    }
    EXPECT_GT(wide_positions, test::quick_mode() ? 10'000U : 1'000'000U);
}

// A build of 3 pieces with every slice in units, small parts, and every distance above 6 plies
// wide writes the files of the ordinary solutions byte for byte (every distance is below 256: 8-bit
// sections), and verifies.
TEST_F(WideDistances, ABuildThroughUnitsAndPartsWritesTheSameFiles) {
    const test::ScratchDir scratch("wide_build");
    const fs::path ordinary = scratch.sub("ordinary");
    const fs::path wide = scratch.sub("wide");
    for (const SliceId s : build_order(3)) native::write_solved_slice(ordinary, *ordinary_->find(s), {.threads = 2});
    workflow::BuildRequest request = test::unverified_build(wide, 3);
    request.narrow_limit = kWideTestLimit;
    request.unit_file_min_positions = 0;
    request.part_positions = 1 << 16;
    request.resources.memory_bytes = 64 << 20;
    workflow::build_database(request);
    for (const SliceId s : build_order(3)) {
        const std::string name = native::slice_file_name(s.nbm, s.nbk, s.nwm, s.nwk);
        ASSERT_TRUE(fs::exists(wide / name)) << name;
        EXPECT_TRUE(slurp(wide / name) == slurp(ordinary / name)) << name;
    }
    EXPECT_TRUE(native::verify_native_database(wide, {.resources = {.threads = 2}}).ok());
}

// A level with wide positions survives its unit file; a damaged table of them is refused.
TEST_F(WideDistances, UnitFilesKeepWidePositions) {
    const test::ScratchDir scratch("wide_units");
    SolutionStore store;
    solve_slices(3, store);
    const SliceId slice{2, 0, 1, 0};
    WideTestLevels kept;
    SliceSolver(slice, store, {2, 2}).solve_levels(kept);
    std::size_t levels_with_wide = 0;
    for (const auto& [advancement, level] : kept.levels) {
        SCOPED_TRACE(advancement);
        const native::UnitInputs inputs{advancement + 1, {SliceId{1, 0, 1, 0}}};
        const fs::path path = scratch.path() / native::unit_file_name(slice, advancement, 0);
        native::write_unit_file(path, level, inputs);
        const SolvedLevel back = native::read_unit_file(path, slice, advancement, level.configurations(), inputs);
        EXPECT_TRUE(back == level);
        const bool has_wide = !level.wide(Color::Black).empty() || !level.wide(Color::White).empty();
        levels_with_wide += has_wide ? 1 : 0;
        if (!has_wide) continue;
        // The table of wide positions is the last block before the frame table (20 bytes an
        // entry) and the trailer (16 bytes, the frame count first): one bit of it flipped.
        std::string bytes = slurp(path);
        const auto u64_at = [&](std::size_t at) {
            std::uint64_t v = 0;
            for (int k = 0; k < 8; ++k) v |= std::uint64_t{static_cast<unsigned char>(bytes[at + k])} << (8 * k);
            return v;
        };
        const std::uint64_t frames = u64_at(bytes.size() - 16);
        const std::size_t table_start = bytes.size() - 16 - 20 * frames;
        const std::uint64_t wide_bytes = u64_at(table_start + 20 * (frames - 1) + 8);
        ASSERT_GE(wide_bytes, 16U + 12U);
        bytes[table_start - wide_bytes + 20] = static_cast<char>(bytes[table_start - wide_bytes + 20] ^ 0x40);
        std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
        EXPECT_THROW(native::read_unit_file(path, slice, advancement, level.configurations(), inputs), CorruptDataError);
    }
    EXPECT_GT(levels_with_wide, 0U);
}

// A win in `slice` (Black to move, no capture) whose DTW is set above 255 by hand.
std::uint64_t win_without_capture(const SolvedSlice& solved) {
    const SliceIndexer indexer(solved.slice());
    for (std::uint64_t i = 0; i < solved.size(); ++i) {
        if (solved.value(i, Color::Black).wld == WldValue::Win && !has_capture(indexer.position_at(i), Color::Black)) return i;
    }
    return solved.size();
}

// Distances above 255 take 16-bit sections, read back whole; the slice file assembled from parts
// of the unit files is the bytes of the one written at once.
TEST_F(WideDistances, DistancesAbove255AreStoredWholeAndPartsAgree) {
    const test::ScratchDir scratch("wide_16");
    SolutionStore store;
    solve_slices(3, store);
    const SliceId slice{2, 0, 1, 0};
    WideTestLevels kept;
    SliceSolver(slice, store, {2}).solve_levels(kept);
    SolvedSlice whole(slice);
    for (const auto& [advancement, level] : kept.levels) whole.store(level);
    const std::uint64_t victim = win_without_capture(whole);
    ASSERT_LT(victim, whole.size());
    const PositionValue huge{WldValue::Win, 301, 287};
    whole.set_value(victim, Color::Black, huge);
    // The same position in its level.
    const KingPlacements kings(slice);
    const std::uint64_t men = victim / kings.block_size();
    for (auto& [advancement, level] : kept.levels) {
        const std::uint64_t slot = level.slot_of(men);
        if (slot == SolvedLevel::kAbsent) continue;
        const std::uint64_t offset = victim - men * kings.block_size();
        level.block_dtw_codes(slot, Color::Black)[offset] = kWideWinCode;
        level.block_mtc(slot, Color::Black)[offset] = kWideMtc;
        level.set_wide(slot, offset, Color::Black, {huge.dtw, huge.mtc});
    }

    // Small pages, so that the slice makes several parts.
    native::WriteOptions format;
    format.wld_page_positions = 1024;
    format.distance_page_positions = 256;
    const fs::path at_once = scratch.sub("at_once");
    native::write_solved_slice(at_once, whole, {.format = format});
    const std::string name = native::slice_file_name(slice.nbm, slice.nbk, slice.nwm, slice.nwk);
    {
        const native::SliceFileReader file(at_once / name);
        for (const native::SectionDescriptor& d : file.sections()) {
            const bool sixteen = d.kind != native::ValueKind::Wld && d.side == Color::Black;
            EXPECT_EQ(d.value_bits, sixteen ? 16 : d.kind == native::ValueKind::Wld ? 2 : 8);
        }
        const SolvedSlice back = native::restore_solved_slice(file, store, 2);
        EXPECT_EQ(back.value(victim, Color::Black), huge);
        for (std::uint64_t i = 0; i < whole.size(); ++i) {
            for (const Color side : {Color::Black, Color::White}) ASSERT_EQ(back.value(i, side), whole.value(i, side)) << i;
        }
    }

    // Unit files of every level, then parts of a few thousand positions, assembled.
    const fs::path units = scratch.sub("units");
    std::vector<native::UnitSource> sources;
    for (const auto& [advancement, level] : kept.levels) {
        const fs::path path = units / native::unit_file_name(slice, advancement, 0);
        native::write_unit_file(path, level, {});
        sources.push_back({advancement, level.configurations(), path, {}});
    }
    native::UnitRangeReader reader(slice, sources);
    const std::uint64_t step = 4 * native::page_run_alignment(format);
    std::vector<fs::path> parts;
    for (std::uint64_t first = 0; first < whole.size(); first += step) {
        const std::uint64_t count = std::min(step, whole.size() - first);
        parts.push_back(units / native::slice_part_file_name(slice, static_cast<int>(parts.size())));
        native::encode_part_from_units(reader, parts.back(), static_cast<int>(parts.size()) - 1, first, count, {}, format, 2);
    }
    ASSERT_GT(parts.size(), 1U);
    const fs::path assembled = scratch.sub("assembled");
    native::assemble_slice_file(assembled, slice, parts);
    EXPECT_TRUE(slurp(assembled / name) == slurp(at_once / name));
}

}  // namespace
}  // namespace egdb
