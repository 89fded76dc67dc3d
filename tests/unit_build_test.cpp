// Solving by (slice, advancement level) units (generate/solved_level.hpp) and the unit files a
// build resumes from (build/unit_file.hpp): a level-by-level solve equals the in-memory
// one, unit files round-trip and refuse damage, a build through unit files writes the same bytes,
// and a build killed with SIGKILL while it writes units resumes at the first unfinished unit to
// the same bytes. Builds up to 4 pieces (3 in sanitizer builds, EGDB_TEST_QUICK).
#include <gtest/gtest.h>
#include <zstd.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "core/formats/native/native_layout.hpp"
#include "core/formats/native/manifest.hpp"
#include "core/build/unit_chunks.hpp"
#include "core/build/unit_file.hpp"
#include "core/build/unit_range_reader.hpp"
#include "core/formats/native/slice_file_writer.hpp"
#include "core/formats/native/slice_part_file.hpp"
#include "core/generate/build_driver.hpp"
#include "core/generate/men_order.hpp"
#include "core/generate/slice_solver.hpp"
#include "core/generate/solution_store.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/rules/movegen.hpp"
#include "core/util/crc32c.hpp"
#include "core/util/error.hpp"
#include "core/util/little_endian.hpp"
#include "core/workflow/build.hpp"
#include "tests/build_helpers.hpp"
#include "tests/level_units.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/shared_dir.hpp"
#include "tests/test_positions.hpp"

namespace egdb {
namespace {

namespace fs = std::filesystem;

using test::slurp;

void spit(const fs::path& p, const std::string& bytes) {
    std::ofstream f(p, std::ios::binary | std::ios::trunc);
    f << bytes;
}

// Keeps levels in memory and claims to hold those of `stored`: a resumed solve.
class MemorySink final : public LevelSink {
public:
    std::map<int, SolvedLevel> stored;
    std::vector<int> solved;  // advancements solved, in order
    std::vector<int> loaded;  // advancements loaded, in order

    bool has_level(SliceId, int advancement) override { return stored.contains(advancement); }
    SolvedLevel load_level(SliceId, int advancement) override {
        loaded.push_back(advancement);
        return stored.at(advancement);
    }
    void store_level(const SolvedLevel& level, double) override {
        solved.push_back(level.advancement());
        stored.emplace(level.advancement(), level);
    }
};

// The solutions of up to 3 pieces, and slice 2010's levels: 2010 has men of both colours, so its
// levels read each other, and each level has several configurations.
class LevelSolve : public ::testing::Test {
protected:
    static constexpr SliceId kSlice{2, 0, 1, 0};
    static void SetUpTestSuite() {
        store_ = new SolutionStore;
        solve_slices(3, *store_);
    }
    static void TearDownTestSuite() {
        delete store_;
        store_ = nullptr;
    }
    static SolutionStore* store_;
};
SolutionStore* LevelSolve::store_ = nullptr;

TEST_F(LevelSolve, LevelsAssembleToTheInMemorySolution) {
    MemorySink sink;
    SliceSolver(kSlice, *store_, {2}).solve_levels(sink);
    const auto levels = men_configuration_levels(kSlice);
    ASSERT_EQ(sink.solved.size(), levels.size());
    EXPECT_TRUE(sink.loaded.empty());
    SolvedSlice assembled(kSlice);
    for (const auto& [a, level] : sink.stored) assembled.store(level);
    EXPECT_TRUE(assembled == *store_->find(kSlice));
}

// A resumed solve skips the stored levels, loads only a stored level that the next unsolved one
// reads (one row of advancement higher), and ends with the same solution.
TEST_F(LevelSolve, ResumedSolveLoadsOnlyTheLevelAboveAndGivesTheSameLevels) {
    MemorySink full;
    SliceSolver(kSlice, *store_, {1}).solve_levels(full);
    const auto levels = men_configuration_levels(kSlice);
    ASSERT_GE(levels.size(), 6U);
    MemorySink resumed;
    // Stored: the first three levels and the fifth.
    for (const std::size_t k : {0, 1, 2, 4}) resumed.stored.emplace(levels[k].advancement, full.stored.at(levels[k].advancement));
    SliceSolver(kSlice, *store_, {2}).solve_levels(resumed);
    EXPECT_EQ(resumed.solved.size(), levels.size() - 4);
    EXPECT_EQ(resumed.solved.front(), levels[3].advancement);
    std::vector<int> expected_loads;
    for (const std::size_t k : {2, 4}) {
        if (levels[k].advancement == levels[k + 1].advancement + 1) expected_loads.push_back(levels[k].advancement);
    }
    EXPECT_EQ(resumed.loaded, expected_loads);
    for (const auto& [a, level] : full.stored) EXPECT_TRUE(resumed.stored.at(a) == level) << "level " << a;
}

// The solver keeps, for every position of a level, whether the side to move has a capture: what
// a slice file is written from (solved_slice_io.hpp). Two threads: blocks of one position share
// a word (2010), and so can blocks of kings (1101 and 0201, whose blocks are not multiples of 64).
TEST_F(LevelSolve, EveryLevelKeepsWhichPositionsHaveACapture) {
    for (const SliceId slice : {kSlice, SliceId{1, 1, 0, 1}, SliceId{0, 2, 0, 1}}) {
        MemorySink sink;
        SliceSolver(slice, *store_, {2}).solve_levels(sink);
        const SliceIndexer indexer(slice);
        std::uint64_t captures = 0;
        for (const auto& [a, level] : sink.stored) {
            const std::uint64_t b = level.block_size();
            for (std::uint64_t slot = 0; slot < level.configurations().size(); ++slot) {
                for (std::uint64_t local = 0; local < b; ++local) {
                    const Position p = indexer.position_at(level.configurations()[slot] * b + local);
                    for (const Color side : {Color::Black, Color::White}) {
                        const bool expected = has_capture(p, side);
                        captures += expected ? 1 : 0;
                        ASSERT_EQ(level.has_capture_at(slot, local, side), expected) << slice.to_string() << " level " << a << " slot " << slot << " offset " << local;
                    }
                }
            }
            // No bit beyond the level's positions.
            for (const Color side : {Color::Black, Color::White}) {
                const std::span<const std::uint64_t> words = level.capture_bits(side);
                if (level.size() % 64 != 0) {
                    EXPECT_EQ(words.back() >> (level.size() % 64), 0u) << slice.to_string();
                }
            }
        }
        EXPECT_GT(captures, 0u) << slice.to_string();
    }
}

TEST_F(LevelSolve, ALevelDoesNotAnswerForConfigurationsItDoesNotHold) {
    const auto levels = men_configuration_levels(kSlice);
    const SolvedLevel level(kSlice, levels[1].advancement, levels[1].configurations);
    const std::uint64_t other = levels[0].configurations.front();
    EXPECT_FALSE(level.holds(other * level.block_size()));
    EXPECT_TRUE(level.holds(levels[1].configurations.back() * level.block_size() + level.block_size() - 1));
    EXPECT_THROW(level.value(other * level.block_size(), Color::Black), std::logic_error);
    EXPECT_THROW(SolvedLevel(kSlice, 0, {3, 2}), std::invalid_argument);
    EXPECT_THROW(SolvedLevel(kSlice, 0, {men_configurations(kSlice.nbm, kSlice.nwm)}), std::invalid_argument);
}

// The blocks of the level above that a chunk reads (configurations_reached): every man move that
// stays in the slice, from every position of every configuration, either side to move, lands in
// one of them, and all of them are of the next advancement. A chunk of one configuration reaches
// a few blocks, not the level.
TEST_F(LevelSolve, TheBlocksAChunkReachesHoldEveryManMoveOfItsPositions) {
    for (const SliceId slice : {kSlice, SliceId{1, 1, 1, 0}, SliceId{2, 0, 2, 0}}) {
        const SliceIndexer indexer(slice);
        const std::vector<MenLevel> levels = men_configuration_levels(slice);
        const std::uint64_t block = slice_size(slice) / men_configurations(slice.nbm, slice.nwm);
        std::size_t moves_seen = 0;
        for (std::size_t k = 1; k < levels.size(); ++k) {
            if (levels[k - 1].advancement != levels[k].advancement + 1) continue;
            const std::vector<std::uint64_t>& above = levels[k - 1].configurations;
            for (const std::uint64_t men : levels[k].configurations) {
                const std::vector<std::uint64_t> reached = configurations_reached(slice, std::span(&men, 1));
                EXPECT_LE(reached.size(), static_cast<std::size_t>(2 * (slice.nbm + slice.nwm)));
                for (const std::uint64_t r : reached) {
                    EXPECT_TRUE(std::binary_search(above.begin(), above.end(), r)) << slice.to_string() << " " << men << " -> " << r;
                }
                for (std::uint64_t local = 0; local < block; ++local) {
                    const Position p = indexer.position_at(men * block + local);
                    for (const Color side : {Color::Black, Color::White}) {
                        MoveList moves;
                        generate_man_non_captures(p, side, moves);
                        for (const Move& move : moves) {
                            if ((move.to & (side == Color::Black ? kRow10 : kRow1)) != 0) continue;
                            ++moves_seen;
                            const std::uint64_t child = indexer.index_of(apply_move(p, side, move)) / block;
                            ASSERT_TRUE(std::binary_search(reached.begin(), reached.end(), child))
                                << slice.to_string() << " configuration " << men << ": a man move reaches " << child;
                        }
                    }
                }
            }
        }
        EXPECT_GT(moves_seen, 0U) << slice.to_string();
    }
}

// The level sizes a build plans with are those of the levels listed, for every slice up to 5
// pieces and for 6-piece slices with 4 and 5 men; and they count the 1.6e9 configurations of a
// 7-man slice without listing them.
TEST_F(LevelSolve, LevelSizesAreCountedWithoutListingTheLevels) {
    std::vector<SliceId> slices = build_order(5);
    for (const SliceId s : {SliceId{2, 1, 2, 1}, SliceId{5, 0, 0, 1}}) slices.push_back(s);
    for (const SliceId s : slices) {
        const std::vector<MenLevel> levels = men_configuration_levels(s);
        const std::vector<MenLevelSize> sizes = men_level_sizes(s);
        ASSERT_EQ(sizes.size(), levels.size()) << s.to_string();
        for (std::size_t i = 0; i < levels.size(); ++i) {
            EXPECT_EQ(sizes[i].advancement, levels[i].advancement) << s.to_string();
            EXPECT_EQ(sizes[i].configurations, levels[i].configurations.size()) << s.to_string() << " a" << levels[i].advancement;
        }
    }
    std::uint64_t total = 0;
    for (const MenLevelSize& l : men_level_sizes(SliceId{4, 0, 3, 0})) total += l.configurations;
    EXPECT_EQ(total, men_configurations(4, 3));
    EXPECT_GT(total, std::uint64_t{1'600'000'000});
}

class UnitFiles : public LevelSolve {};

TEST_F(UnitFiles, RoundTripAndNameTheirUnit) {
    const test::ScratchDir dir("unit_round_trip");
    test::LevelUnits units(dir.path(), kSlice);
    SliceSolver(kSlice, *store_, {2}).solve_levels(units);
    const auto levels = men_configuration_levels(kSlice);
    for (const MenLevel& l : levels) EXPECT_TRUE(fs::exists(units.path(l.advancement))) << l.advancement;
    EXPECT_EQ(native::unit_file_name(kSlice, 7, 3), "unit-2010-a007-c0003.egdbu");
    EXPECT_TRUE(units.assemble() == *store_->find(kSlice));
    // Inputs: the level above when there is one, and the slices the moves reach.
    const native::UnitInputs top = units.inputs(levels.front().advancement);
    EXPECT_EQ(top.level_read, -1);
    EXPECT_EQ(top.slices, successor_slices(kSlice));
    EXPECT_EQ(units.inputs(levels[1].advancement).level_read, levels[0].advancement == levels[1].advancement + 1 ? levels[0].advancement : -1);
}

// A slice brought back from its units for the sides a later slice reads, on one or several
// threads, is the solution with the other side dropped; wide positions included.
TEST_F(UnitFiles, AssembledForSomeSidesIsTheSolutionKeptToThem) {
    for (const Plies narrow_limit : {kMaxNarrowMtc, Plies{2}}) {
        const test::ScratchDir dir("unit_assemble_sides");
        test::LevelUnits units(dir.path(), kSlice);
        SliceSolver(kSlice, *store_, {2, narrow_limit}).solve_levels(units);
        const SolvedSlice whole = SliceSolver(kSlice, *store_, {2, narrow_limit}).solve();
        if (narrow_limit == 2) {
            ASSERT_FALSE(whole.wide(Color::Black).empty() || whole.wide(Color::White).empty());
        }
        for (const SideSet sides : {SideSet::both(), SideSet::only(Color::Black), SideSet::only(Color::White)}) {
            SolvedSlice expected = whole;
            expected.keep(sides);
            for (const int threads : {1, 3}) {
                EXPECT_TRUE(units.assemble(sides, threads) == expected) << "narrow limit " << narrow_limit << ", " << threads << " threads";
            }
        }
    }
}

// Units compressed on zstd's worker threads (what a build with several threads writes) read back
// the same levels.
TEST_F(UnitFiles, UnitsCompressedOnSeveralThreadsReadBackTheSame) {
    const test::ScratchDir dir("unit_threads");
    test::LevelUnits units(dir.path(), kSlice, 3);
    SliceSolver(kSlice, *store_, {2}).solve_levels(units);
    EXPECT_TRUE(units.assemble() == *store_->find(kSlice));
    for (const MenLevel& l : men_configuration_levels(kSlice)) {
        EXPECT_NO_THROW(native::read_unit_file(units.path(l.advancement), kSlice, l.advancement, l.configurations, units.inputs(l.advancement)))
            << l.advancement;
    }
}

TEST_F(UnitFiles, DamagedTruncatedOrForeignFilesAreRefused) {
    const test::ScratchDir dir("unit_damage");
    const auto levels = men_configuration_levels(kSlice);
    const MenLevel& l = levels[1];
    test::LevelUnits units(dir.path(), kSlice);
    SliceSolver(kSlice, *store_, {1}).solve_levels(units);
    const fs::path path = units.path(l.advancement);
    const std::string good = slurp(path);
    const native::UnitInputs inputs = units.inputs(l.advancement);
    const auto read = [&] { return native::read_unit_file(path, kSlice, l.advancement, l.configurations, inputs); };
    ASSERT_NO_THROW(read());

    const auto expect_corrupt = [&](const std::string& bytes, const std::string& what) {
        spit(path, bytes);
        try {
            read();
            ADD_FAILURE() << what << ": accepted";
        } catch (const CorruptDataError& e) {
            EXPECT_NE(std::string(e.what()).find(path.filename().string()), std::string::npos) << e.what();
        }
    };
    for (const std::size_t cut : {std::size_t{0}, std::size_t{10}, good.size() / 2, good.size() - 1}) {
        expect_corrupt(good.substr(0, cut), "truncated to " + std::to_string(cut));
    }
    for (const std::size_t at : {std::size_t{3}, std::size_t{14}, good.size() / 2, good.size() - 20, good.size() - 3}) {
        std::string bad = good;
        bad[at] = static_cast<char>(bad[at] ^ 0x10);
        expect_corrupt(bad, "byte " + std::to_string(at) + " flipped");
    }
    expect_corrupt(good + "x", "a byte appended");
    // A unit written before capture bits were kept (versions 2 and 3) is refused by its version,
    // so a resumed build solves it again.
    for (const char version : {'\x02', '\x03'}) {
        std::string old = good;
        old[8] = version;  // u32 version after the 8-byte magic
        spit(path, old);
        try {
            read();
            ADD_FAILURE() << "version " << int{version} << " accepted";
        } catch (const CorruptDataError& e) {
            EXPECT_NE(std::string(e.what()).find("unknown version"), std::string::npos) << e.what();
        }
    }
    spit(path, good);
    // Another unit than the one expected: other level, other slice, other inputs.
    EXPECT_THROW(native::read_unit_file(path, kSlice, levels[2].advancement, levels[2].configurations, inputs), CorruptDataError);
    native::UnitInputs other_inputs = inputs;
    other_inputs.slices.pop_back();
    EXPECT_THROW(native::read_unit_file(path, kSlice, l.advancement, l.configurations, other_inputs), CorruptDataError);
    EXPECT_THROW(native::read_unit_file(dir.path() / "missing.egdbu", kSlice, l.advancement, l.configurations, inputs), FileError);
}


// A unit file with `frame` (the whole payload of its only frame) in place of its own, every
// checksum made right again: only the frame's size can then tell it from a good one.
std::string with_frame_payload(const std::string& good, const std::string& payload) {
    const auto bytes = [](const std::string& s) { return std::as_bytes(std::span(s.data(), s.size())); };
    const std::size_t trailer_at = good.size() - 16;
    const auto frames = load_le<std::uint64_t>(bytes(good), trailer_at);
    EXPECT_EQ(frames, 1u) << "the test expects a unit of one frame";
    const std::size_t table_at = trailer_at - 20 * frames;
    const auto old_size = load_le<std::uint64_t>(bytes(good), table_at + 8);
    const std::string header = good.substr(0, table_at - old_size);
    std::string frame(ZSTD_compressBound(payload.size()), '\0');
    frame.resize(ZSTD_compress(frame.data(), frame.size(), payload.data(), payload.size(), 1));
    std::vector<std::byte> table;
    append_le<std::uint64_t>(table, 0);
    append_le<std::uint64_t>(table, frame.size());
    append_le<std::uint32_t>(table, crc32c(bytes(frame)));
    std::vector<std::byte> trailer;
    append_le<std::uint64_t>(trailer, 1);
    append_le<std::uint32_t>(trailer, crc32c(table));
    append_le<std::uint32_t>(trailer, crc32c(trailer, crc32c(bytes(header))));
    const auto text = [](const std::vector<std::byte>& b) { return std::string(reinterpret_cast<const char*>(b.data()), b.size()); };
    return header + frame + text(table) + text(trailer);
}

// The frames of a unit are decompressed straight into the level: one that holds fewer or more
// bytes than its configurations' blocks is refused, even when every checksum agrees.
TEST_F(UnitFiles, AFrameOfTheWrongSizeIsRefused) {
    const test::ScratchDir dir("unit_frame_size");
    const SliceId slice{0, 1, 0, 1};  // one configuration: its only level is one frame
    const auto levels = men_configuration_levels(slice);
    ASSERT_EQ(levels.size(), 1u);
    test::LevelUnits units(dir.path(), slice);
    SliceSolver(slice, *store_, {1}).solve_levels(units);
    const fs::path path = units.path(levels[0].advancement);
    const std::string good = slurp(path);
    const native::UnitInputs inputs = units.inputs(levels[0].advancement);
    const auto read = [&] { return native::read_unit_file(path, slice, levels[0].advancement, levels[0].configurations, inputs); };
    const SolvedLevel level = read();
    // The payload: both sides' DTW codes and MTC, then their capture words, as the writer lays
    // them out (the level is the frame).
    std::string payload;
    for (const Color side : {Color::Black, Color::White}) {
        for (const auto part : {level.dtw_codes(side), level.mtc(side)}) payload.append(reinterpret_cast<const char*>(part.data()), part.size());
    }
    for (const Color side : {Color::Black, Color::White}) {
        const std::span<const std::uint64_t> words = level.capture_bits(side);
        payload.append(reinterpret_cast<const char*>(words.data()), words.size_bytes());
    }
    spit(path, with_frame_payload(good, payload));
    EXPECT_TRUE(read() == level) << "the rebuilt file itself must be good";
    for (const std::string& bad : {payload.substr(0, payload.size() - 1), payload + "x", std::string()}) {
        spit(path, with_frame_payload(good, bad));
        try {
            read();
            ADD_FAILURE() << "a frame of " << bad.size() << " bytes instead of " << payload.size() << " was accepted";
        } catch (const CorruptDataError& e) {
            EXPECT_NE(std::string(e.what()).find("wrong size"), std::string::npos) << e.what();
        }
    }
}

// Every run of configurations of every level of `units` (of `slice`) reads the blocks read_all
// gives, and both give the capture rule's bits. Returns the levels.
std::vector<MenLevel> expect_any_run_reads_the_whole_level(const test::LevelUnits& units, SliceId slice) {
    const SliceIndexer indexer(slice);
    const auto levels = men_configuration_levels(slice);
    for (const MenLevel& l : levels) {
        const native::UnitFileReader reader(units.path(l.advancement), slice, l.advancement, l.configurations, units.inputs(l.advancement));
        reader.verify();
        const SolvedLevel whole = reader.read_all();
        const std::uint64_t slots = l.configurations.size();
        const std::uint64_t b = whole.block_size();
        for (const auto& [first, count] : {std::pair<std::uint64_t, std::uint64_t>{0, slots}, {slots / 3, slots / 2}, {slots - 1, 1}, {slots / 2, 0}}) {
            std::uint64_t expected_slot = first;
            reader.read_slots(first, count, [&](std::uint64_t slot, const native::UnitFileReader::Block& block) {
                ASSERT_EQ(slot, expected_slot++);
                for (const Color side : {Color::Black, Color::White}) {
                    const auto k = static_cast<std::size_t>(side);
                    const auto& [dtw, mtc, captures] = block;
                    ASSERT_TRUE(std::equal(dtw[k].begin(), dtw[k].end(), whole.dtw_codes(side).begin() + static_cast<std::ptrdiff_t>(slot * b)));
                    ASSERT_TRUE(std::equal(mtc[k].begin(), mtc[k].end(), whole.mtc(side).begin() + static_cast<std::ptrdiff_t>(slot * b)));
                    ASSERT_EQ(captures[k].count, b);
                    // The bits read back are the capture rule's, not only those read_all gives.
                    for (std::uint64_t i = 0; i < b; ++i) {
                        const bool expected = has_capture(indexer.position_at(l.configurations[slot] * b + i), side);
                        ASSERT_EQ(whole.has_capture_at(slot, i, side), expected) << slice.to_string() << " " << slot << " " << i;
                        ASSERT_EQ(captures[k].test(i), expected) << slice.to_string() << " " << slot << " " << i;
                    }
                }
            });
            EXPECT_EQ(expected_slot, first + count);
        }
        EXPECT_THROW(reader.read_slots(slots, 1, [](std::uint64_t, const native::UnitFileReader::Block&) {}), std::out_of_range);
    }
    return levels;
}

// 2010's levels are one frame each; 1101's span many (a block of 49 x 48 king placements fills a
// frame).
TEST_F(UnitFiles, AnyRunOfConfigurationsReadsTheSameBlocksAsTheWholeLevel) {
    {
        const test::ScratchDir kings_dir("unit_partial_kings");
        const SliceId slice{1, 1, 0, 1};
        test::LevelUnits units(kings_dir.path(), slice);
        SliceSolver(slice, *store_, {2}).solve_levels(units);
        expect_any_run_reads_the_whole_level(units, slice);
    }
    const test::ScratchDir dir("unit_partial");
    test::LevelUnits units(dir.path(), kSlice);
    SliceSolver(kSlice, *store_, {1}).solve_levels(units);
    const auto levels = expect_any_run_reads_the_whole_level(units, kSlice);
    // A flipped byte in a frame: verify() finds it without decompressing, and so does a read.
    const MenLevel& l = levels[1];
    const fs::path path = units.path(l.advancement);
    std::string bytes = slurp(path);
    // The last byte of the last frame: before the frame table (20 bytes a frame) and the trailer.
    const std::uint64_t per_frame = std::max<std::uint64_t>(1, 4096 / (slice_size(kSlice) / men_configurations(kSlice.nbm, kSlice.nwm)));
    const std::uint64_t frames = (l.configurations.size() + per_frame - 1) / per_frame;
    const std::size_t at = bytes.size() - 16 - 20 * frames - 1;
    bytes[at] = static_cast<char>(bytes[at] ^ 4);
    spit(path, bytes);
    const native::UnitFileReader damaged(path, kSlice, l.advancement, l.configurations, units.inputs(l.advancement));
    EXPECT_THROW(damaged.verify(), CorruptDataError);
    EXPECT_THROW(damaged.read_all(), CorruptDataError);
}

// Every slice file of `dir` against `reference`, the manifests too, and nothing else left in `dir`.
void expect_same_files(const fs::path& dir, const fs::path& reference, int pieces) {
    std::size_t files = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
        ++files;
        EXPECT_EQ(slurp(e.path()), slurp(reference / e.path().filename())) << e.path();
    }
    EXPECT_TRUE(fs::exists(dir / native::kManifestFileName));
    EXPECT_EQ(files, build_order(pieces).size() + 1);
}

// A slice file written part by part from the unit files (what the build engine's EncodePart and
// WriteSlice tasks do) is the file written from the whole solution; a missing unit is an error
// naming it. (The engine's reuse of part files left by an interrupted write is tested in
// build_engine_thread_test.cpp.)
TEST_F(UnitFiles, SliceFileFromUnitsPartByPartIsTheWholeSolutionsFile) {
    const test::ScratchDir dir("unit_parts");
    test::LevelUnits units(dir.path(), kSlice);
    SliceSolver(kSlice, *store_, {2}).solve_levels(units);
    const native::SolvedWriteOptions options{.threads = 2};
    const std::string name = native::slice_file_name(kSlice.nbm, kSlice.nbk, kSlice.nwm, kSlice.nwk);
    const native::WrittenSlice whole = native::write_solved_slice(dir.sub("whole"), *store_->find(kSlice), options);
    // One page run a part: several parts.
    const std::uint64_t run = native::page_run_alignment(options.format);
    ASSERT_GT(slice_size(kSlice), 2 * run);
    native::UnitRangeReader reader(kSlice, units.sources());
    std::vector<fs::path> parts;
    for (std::uint64_t first = 0; first < slice_size(kSlice); first += run) {
        parts.push_back(dir.path() / native::slice_part_file_name(kSlice, static_cast<int>(parts.size())));
        native::encode_part_from_units(reader, parts.back(), static_cast<int>(parts.size()) - 1, first,
                                       std::min(run, slice_size(kSlice) - first), options.kinds, options.format, 2);
    }
    EXPECT_EQ(native::assemble_slice_file(dir.sub("parts"), kSlice, parts), whole.file_bytes);
    EXPECT_EQ(slurp(dir.path() / "parts" / name), slurp(dir.path() / "whole" / name));
    // A missing unit is an error naming it, and no part file appears.
    const fs::path missing = units.path(men_configuration_levels(kSlice).front().advancement);
    fs::remove(missing);
    native::UnitRangeReader without(kSlice, units.sources());
    const fs::path part = dir.path() / "missing.egdbp";
    try {
        native::encode_part_from_units(without, part, 0, 0, slice_size(kSlice), options.kinds, options.format, 1);
        ADD_FAILURE() << "a part was encoded without one of its units";
    } catch (const FileError& e) {
        EXPECT_NE(std::string(e.what()).find(missing.filename().string()), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(part));
}

// Every slice in units, under a memory budget that sends solved slices to their files (the path
// of a 6-piece build) and writes them part by part, and without one. (native_build_test.cpp's budget test builds 4 pieces in
// units under a budget.)
TEST(UnitBuild, BuildThroughUnitFilesWritesTheSameBytesAndRemovesItsUnits) {
    constexpr int pieces = 3;
    const test::ScratchDir scratch("unit_build");
    const fs::path reference = scratch.sub("memory");
    workflow::build_database(test::unverified_build(reference, pieces));
    // Under the budget, every slice file is written from parts of one page run each.
    // And with levels cut into chunks of a few configurations, each reading only the blocks of the
    // level above its men reach.
    struct Case {
        std::uint64_t budget, part_positions, chunk_positions;
    };
    for (const auto& [budget, part_positions, chunk_positions] :
         {Case{std::uint64_t{9} << 20, 1, 0}, Case{0, 0, 0}, Case{std::uint64_t{9} << 20, 0, 3'000}}) {
        const fs::path dir = scratch.sub("units");
        workflow::BuildRequest r = test::unverified_build(dir, pieces);
        r.unit_file_min_positions = 0;
        r.chunk_positions = chunk_positions;
        r.resources.memory_bytes = budget;
        r.assumed_process_bytes = 0;  // the budget is the build's alone, not the test process's
        if (part_positions > 0) r.part_positions = part_positions;
        std::size_t unit_items = 0;
        std::size_t read_back_from_units = 0;
        workflow::BuildObserver observer;
        observer.on_item = [&](const workflow::BuildItem& item) {
            if (item.label.find(" a") != std::string::npos) ++unit_items;
            if (item.stage == workflow::BuildStage::Resume && item.detail.find("its unit files") != std::string::npos) {
                ++read_back_from_units;
            }
            return true;
        };
        workflow::build_database(r, observer);
        std::size_t units = 0;
        for (const SliceId s : build_order(pieces)) {
            const std::uint64_t block = slice_size(s) / men_configurations(s.nbm, s.nwm);
            for (const MenLevel& l : men_configuration_levels(s)) units += native::level_chunks(l.configurations.size(), block, chunk_positions).size();
        }
        EXPECT_EQ(unit_items, units) << "budget " << budget << ", chunks of " << chunk_positions;
        // Under the budget, slices dropped from memory come back from the unit files kept for
        // the slices that still read them, not from their slice files.
        if (budget > 0) {
            EXPECT_GT(read_back_from_units, 0U) << read_back_from_units;
        }
        EXPECT_FALSE(fs::exists(dir / "units"));
        expect_same_files(dir, reference, pieces);
    }
}

// The CLI is killed with SIGKILL (no chance to clean up) while it writes unit files, three times,
// then run to the end: the rerun resumes from the unit files and writes the same bytes. Three
// pieces: about a hundred units, each a few milliseconds.
TEST(UnitBuild, KilledBuildResumesAtTheFirstUnfinishedUnit) {
    constexpr int kPieces = 3;
    const test::ScratchDir scratch("unit_kill");
    const fs::path reference = scratch.sub("memory");
    workflow::build_database(test::unverified_build(reference, kPieces));
    const fs::path dir = scratch.sub("killed");
    const std::string pieces = std::to_string(kPieces);
    const auto run = [&](const fs::path& log, bool kill_when_units_appear) {
        const pid_t child = ::fork();
        if (child == 0) {
            const std::string out = dir.string();
            const std::string cli = test::cli_path().string();
            const int fd = ::creat(log.c_str(), 0644);
            ::dup2(fd, STDERR_FILENO);
            ::dup2(fd, STDOUT_FILENO);
            ::execl(cli.c_str(), cli.c_str(), "build", "--pieces", pieces.c_str(), "--threads", "2", "--no-verify",
                    "--units-from", "0", "--out", out.c_str(), static_cast<char*>(nullptr));
            ::_exit(127);
        }
        bool killed = false;
        // Killed once this run has written two unit files of its own.
        std::size_t written = 0;
        while (kill_when_units_appear && !killed) {
            int status = 0;
            if (::waitpid(child, &status, WNOHANG) == child) return std::make_pair(false, status);
            written = 0;
            std::ifstream in(log);
            for (std::string line; std::getline(in, line);) {
                if (line.find(", solved, ") != std::string::npos) ++written;
            }
            if (written >= 2) {
                ::kill(child, SIGKILL);
                killed = true;
            } else {
                std::this_thread::sleep_for(std::chrono::microseconds(200));
            }
        }
        int status = 0;
        ::waitpid(child, &status, 0);
        return std::make_pair(killed, status);
    };
    int kills = 0;
    for (int round = 0; round < 3; ++round) {
        const auto [killed, status] = run(scratch.path() / ("round" + std::to_string(round) + ".log"), true);
        if (killed) {
            ++kills;
            EXPECT_TRUE(WIFSIGNALED(status));
        }
    }
    EXPECT_EQ(kills, 3) << "the build finished before it could be killed";
    const fs::path last = scratch.path() / "final.log";
    const auto [killed, status] = run(last, false);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << slurp(last);
    // The last run found units of the slice in flight and resumed from them.
    EXPECT_NE(slurp(last).find(", resumed, "), std::string::npos) << slurp(last);
    EXPECT_FALSE(fs::exists(dir / "units"));
    expect_same_files(dir, reference, kPieces);
}

}  // namespace
}  // namespace egdb
