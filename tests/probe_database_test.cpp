// The unified probing API (core/probe/database.hpp) on every format egdb writes: native, and
// Kingsrow V2, V1 and run-length with MTC and DTW alongside. lookup_with_search (wld()) and the
// distances must equal the generator's values on every position, captures and unstored sides
// included; errors for bad input are the documented ones.
#include "core/probe/database.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <cstdlib>
#include <optional>
#include <random>
#include <vector>

#include "core/formats/kingsrow/export/database_writer.hpp"
#include "core/build/kingsrow_export.hpp"
#include "core/build/solved_slice_io.hpp"
#include "core/generate/build_driver.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/notation/fen.hpp"
#include "core/rules/movegen.hpp"
#include "tests/test_positions.hpp"
#include "tests/scratch_dir.hpp"

namespace egdb {
namespace {

namespace fs = std::filesystem;

class ProbeDatabase : public ::testing::Test {
protected:
    static int pieces() { return test::quick_mode() ? 3 : 4; }
    static void SetUpTestSuite() {
        root_ = new fs::path(test::scratch_path("probe"));
        store_ = new SolutionStore();
        BuildOptions options;
        options.threads = 2;
        solve_slices(pieces(), *store_, options);
        const auto order = build_order(pieces());
        fs::create_directories(*root_ / "native");
        native::SolvedWriteOptions w;
        w.threads = 2;
        for (SliceId s : order) native::write_solved_slice(*root_ / "native", *store_->find(s), w);
        for (auto [name, type] : {std::pair{"v2", kingsrow::DbType::WldTunV2}, std::pair{"v1", kingsrow::DbType::WldTunV1},
                                  std::pair{"runlen", kingsrow::DbType::WldRunlen}}) {
            fs::create_directories(*root_ / name);
            kingsrow::KingsrowExportOptions k;
            k.wld_type = type;
            k.threads = 2;
            // DTW and MTC once (with V2) keep the suite fast; the WLD formats differ only in codec.
            k.mtc = k.dtw = type == kingsrow::DbType::WldTunV2;
            kingsrow::write_kingsrow_databases(*root_ / name, *store_, order, k);
        }
    }
    static void TearDownTestSuite() {
        fs::remove_all(*root_);
        delete root_;
        delete store_;
    }

    // Every position of every slice (both orientations and sides): wld() equals the solution,
    // and DTW too where the database has it. Slices above 20,000 positions are sampled unless
    // EGDB_TEST_FULL is set (then every position of up to 4 pieces is checked, a few minutes).
    static void expect_matches_solution(const Database& db, bool check_dtw) {
        std::mt19937_64 rng(3);
        for (SliceId s : all_slices(pieces())) {
            const SliceIndexer indexer(s);
            const std::uint64_t n = indexer.size();
            const char* full = std::getenv("EGDB_TEST_FULL");
            const std::uint64_t limit = full != nullptr && *full != '\0' ? n : 20000;
            const std::uint64_t step = n > limit ? n / limit : 1;
            for (std::uint64_t i = rng() % step; i < n; i += step) {
                const Position p = indexer.position_at(i);
                for (Color side : {Color::Black, Color::White}) {
                    const PositionValue truth = store_->value(p, side);
                    ASSERT_EQ(db.wld(p, side), truth.wld) << to_fen(p, side);
                    if (check_dtw && truth.wld != WldValue::Draw) {
                        ASSERT_EQ(db.dtw(p, side).value(), truth.dtw) << to_fen(p, side);
                    }
                }
            }
        }
    }

    static fs::path* root_;
    static SolutionStore* store_;
};
fs::path* ProbeDatabase::root_ = nullptr;
SolutionStore* ProbeDatabase::store_ = nullptr;

TEST_F(ProbeDatabase, NativeEqualsTheSolution) {
    const auto db = Database::open(*root_ / "native");
    EXPECT_EQ(db->type(), DatabaseType::Native);
    EXPECT_EQ(db->max_pieces(), pieces());
    expect_matches_solution(*db, true);
}

TEST_F(ProbeDatabase, KingsrowV2WithDtwAndMtcEqualsTheSolution) {
    const auto db = Database::open(*root_ / "v2");
    EXPECT_EQ(db->type(), DatabaseType::WldTunV2);
    EXPECT_TRUE(db->has_dtw());
    EXPECT_TRUE(db->has_mtc());
    expect_matches_solution(*db, true);
}

TEST_F(ProbeDatabase, KingsrowV1AndRunlenEqualTheSolution) {
    for (const char* name : {"v1", "runlen"}) {
        const auto db = Database::open(*root_ / name);
        EXPECT_EQ(db->type(), std::string(name) == "v1" ? DatabaseType::WldTunV1 : DatabaseType::WldRunlen);
        expect_matches_solution(*db, false);
    }
}

// The batch calls equal the single ones on every format: random positions of up to one piece more
// than the databases hold (LookupNotPossible there), captures and unstored sides included.
TEST_F(ProbeDatabase, BatchesEqualSingleCalls) {
    std::mt19937_64 rng(5);
    std::vector<Position> positions;
    std::vector<Color> sides;
    for (int n = 2; n <= pieces() + 1; ++n) {
        for (SliceId s : all_slices(n)) {
            const SliceIndexer indexer(s);
            for (int k = 0; k < 200; ++k) {
                positions.push_back(indexer.position_at(rng() % indexer.size()));
                sides.push_back(rng() % 2 == 0 ? Color::Black : Color::White);
            }
        }
    }
    for (const char* name : {"native", "v2", "v1", "runlen"}) {
        const auto db = Database::open(*root_ / name);
        std::vector<int> raw(positions.size());
        db->lookup_batch(positions, sides, raw);
        std::vector<std::optional<WldValue>> values(positions.size());
        db->wld_batch(positions, sides, values);
        int not_possible = 0;
        for (std::size_t i = 0; i < positions.size(); ++i) {
            ASSERT_EQ(raw[i], db->lookup(positions[i], sides[i])) << name << " " << to_fen(positions[i], sides[i]);
            std::optional<WldValue> single;
            try {
                single = db->wld(positions[i], sides[i]);
            } catch (const LookupNotPossible&) {
                ++not_possible;
            }
            ASSERT_EQ(values[i], single) << name << " " << to_fen(positions[i], sides[i]);
        }
        EXPECT_GT(not_possible, 0) << "positions with too many pieces are in the batch";
    }
}

TEST_F(ProbeDatabase, DistancesDescendAlongEveryListedMove) {
    for (const char* name : {"native", "v2"}) {
        const auto db = Database::open(*root_ / name);
        for (const char* fen : {"B:W28:BK26", "W:W28:BK26", "W:WK46:B37,23"}) {
            const FenPosition fp = parse_fen(fen);
            if (material_of(fp.position).total() > pieces()) continue;
            const auto list = db->lookup_distance(fp.position, fp.side_to_move, DistanceKind::Dtw);
            ASSERT_FALSE(list.empty()) << fen;
            EXPECT_EQ(list.front().distance, *db->dtw(fp.position, fp.side_to_move)) << name << " " << fen;
            for (const MoveDistance& md : list) {
                const Position q = apply_move(fp.position, fp.side_to_move, md.move);
                EXPECT_EQ(*db->dtw(q, opposite(fp.side_to_move)) + 1, md.distance) << name << " " << fen;
            }
        }
    }
}

TEST_F(ProbeDatabase, ErrorsAreDocumented) {
    EXPECT_THROW(Database::open(*root_ / "missing"), DatabaseError);
    EXPECT_THROW(Database::open(*root_), DatabaseError);  // no database files directly in it
    const auto db = Database::open(*root_ / "native");
    const FenPosition start = parse_fen("W:W31-50:B1-20");
    EXPECT_THROW(db->wld(start.position, start.side_to_move), LookupNotPossible);
    const FenPosition draw = parse_fen("W:WK1:BK50");
    EXPECT_THROW(db->lookup_distance(draw.position, draw.side_to_move, DistanceKind::Dtw), LookupNotPossible);
    EXPECT_FALSE(db->dtw(draw.position, draw.side_to_move).has_value());
    const auto wld_only = Database::open(*root_ / "runlen");
    EXPECT_THROW(wld_only->dtw(draw.position, draw.side_to_move), LookupNotPossible);
}

// Kingsrow MTC where the side to move must capture: the file holds whatever the writer put in
// that "don't care" position (7.1), but the capture is a conversion in 2 or 3 plies, below the
// threshold, so mtc() says nothing is known rather than read the stored value.
TEST(ProbeKingsrowMtc, ACapturePositionIsBelowTheThresholdWhateverIsStored) {
    const test::ScratchDir dir("probe_mtc_capture");
    std::vector<std::vector<std::uint16_t>> plies;
    std::vector<kingsrow::MtcTable> tables;
    for (const SliceId s : canonical_slices(2)) {
        for (const Color side : {Color::Black, Color::White}) {
            if (is_color_symmetric(s) && side == Color::White) continue;
            plies.emplace_back(slice_size(s), std::uint16_t{20});
        }
    }
    std::size_t t = 0;
    for (const SliceId s : canonical_slices(2)) {
        for (const Color side : {Color::Black, Color::White}) {
            if (is_color_symmetric(s) && side == Color::White) continue;
            tables.push_back({s, side, plies[t++], {}});
        }
    }
    kingsrow::write_mtc_database(dir.path(), tables);
    const auto db = Database::open(dir.path());
    ASSERT_TRUE(db->has_mtc());
    const FenPosition capture = parse_fen("W:W28:B23");  // White must take 28x19
    ASSERT_TRUE(has_capture(capture.position, capture.side_to_move));
    EXPECT_EQ(db->lookup_stored(StoredKind::Mtc, capture.position, capture.side_to_move), 20);
    EXPECT_EQ(db->mtc(capture.position, capture.side_to_move), std::nullopt);
    const FenPosition quiet = parse_fen("W:W28:B5");
    ASSERT_FALSE(has_capture(quiet.position, quiet.side_to_move));
    EXPECT_EQ(db->mtc(quiet.position, quiet.side_to_move), 20);
}

}  // namespace
}  // namespace egdb
