// The Hub protocol engine of `egdb hub` (core/hub): the line parser, the scores, and the session
// against real databases built here (3 pieces: native with DTW, native WLD only, Kingsrow split
// into the wld/mtc/dtw directories of a Kingsrow installation), with a scripted wrapped engine.
#include "core/hub/hub_session.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/index/slice_indexer.hpp"
#include "core/notation/hub_move.hpp"
#include "core/notation/hub_position.hpp"
#include "core/rules/movegen.hpp"
#include "core/workflow/build.hpp"
#include "tests/build_helpers.hpp"
#include "tests/scratch_dir.hpp"

namespace egdb {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> gui_lines(const std::vector<HubReply>& replies) {
    std::vector<std::string> out;
    for (const HubReply& r : replies) {
        EXPECT_EQ(r.to, HubReply::To::Gui) << r.line;
        out.push_back(r.line);
    }
    return out;
}

// --- parse_hub_line, hub_value, hub_score ----------------------------------------------------

TEST(HubLine, ReadsCommandsArgumentsQuotesAndFlags) {
    const HubLine a = parse_hub_line("  pos pos=Wbbe moves=\"32-28 19-23\"\t level  \r");
    EXPECT_EQ(a.command, "pos");
    ASSERT_EQ(a.arguments.size(), 3u);
    EXPECT_EQ(a.value("pos"), "Wbbe");
    EXPECT_EQ(a.value("moves"), "32-28 19-23");
    EXPECT_FALSE(a.find("level")->has_value);
    EXPECT_EQ(a.value("level"), "");
    EXPECT_EQ(a.value("time"), std::nullopt);

    const HubLine b = parse_hub_line("param name=book-file value=\"\" type=string\n");
    EXPECT_EQ(b.value("value"), "");
    EXPECT_TRUE(b.find("value")->has_value);
    EXPECT_EQ(parse_hub_line("").command, "");
    EXPECT_EQ(parse_hub_line("   ").command, "");
    EXPECT_TRUE(parse_hub_line("go think").find("think") != nullptr);
}

TEST(HubLine, RejectsWhatCannotBeReadNamingTheToken) {
    try {
        parse_hub_line("pos pos=W moves=\"32-28 19-23");
        FAIL() << "an unterminated quote was accepted";
    } catch (const NotationError& e) {
        EXPECT_EQ(e.offset(), 10u);
        EXPECT_EQ(e.token(), "moves=\"32-28 19-23");
        EXPECT_NE(std::string(e.what()).find("unterminated"), std::string::npos) << e.what();
    }
    try {
        parse_hub_line("level =3");
        FAIL();
    } catch (const NotationError& e) {
        EXPECT_EQ(e.offset(), 6u);
        EXPECT_EQ(e.token(), "=");
    }
    try {
        parse_hub_line("level time= inc=1");
        FAIL();
    } catch (const NotationError& e) {
        EXPECT_EQ(e.offset(), 6u);
        EXPECT_EQ(e.token(), "time=");
    }
}

TEST(HubLine, ValuesAreQuotedWhenTheyMustBe) {
    EXPECT_EQ(hub_value("egdb"), "egdb");
    EXPECT_EQ(hub_value("egdb + dame"), "\"egdb + dame\"");
    EXPECT_EQ(hub_value(""), "\"\"");
    EXPECT_EQ(hub_value("a=b"), "\"a=b\"");
    EXPECT_EQ(hub_value("say \"x\"\nnow"), "\"say 'x' now\"");
    // What hub_value writes reads back as the value.
    for (const std::string v : {"egdb + dame", "", "46-41 5-10 41x5x10", "x=y"}) {
        EXPECT_EQ(parse_hub_line("id name=" + hub_value(v)).value("name"), v);
    }
}

TEST(HubScore, ForcedResultsReadAsPydraughtsReadsThem) {
    EXPECT_EQ(hub_score(WldValue::Win, 3), "99.97");
    EXPECT_EQ(hub_score(WldValue::Loss, 6), "-99.94");
    EXPECT_EQ(hub_score(WldValue::Win, 101), "98.99");
    EXPECT_EQ(hub_score(WldValue::Draw, std::nullopt), "0.00");
    EXPECT_EQ(hub_score(WldValue::Win, std::nullopt), "90.01");
    EXPECT_EQ(hub_score(WldValue::Loss, std::nullopt), "-90.01");
    // pydraughts: plies = 10000 - int(100 * score) for scores above 90.
    for (int plies : {1, 2, 57, 998}) {
        const double score = std::stod(hub_score(WldValue::Win, plies));
        EXPECT_EQ(10000 - static_cast<int>(score * 100), plies);
    }
}

// --- the session against real databases --------------------------------------------------------

class HubSessionTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        scratch_ = new test::ScratchDir("hub_session");
        workflow::build_database(test::unverified_build(scratch_->sub("full"), 3));
        workflow::BuildRequest wld_only = test::unverified_build(scratch_->sub("wld"), 3);
        wld_only.kinds = workflow::parse_value_kinds("wld");
        workflow::build_database(wld_only);
        // A Kingsrow installation: one set, its kinds in three directories.
        const fs::path kingsrow = scratch_->sub("kingsrow");
        workflow::BuildRequest v2 = test::unverified_build(kingsrow, 3);
        v2.format = workflow::OutputFormat::KingsrowV2;
        v2.read_back_samples = 0;
        workflow::build_database(v2);
        for (const char* d : {"wld_database", "mtc_database", "dtw_database"}) fs::create_directories(kingsrow / d);
        for (const fs::directory_entry& e : fs::directory_iterator(kingsrow)) {
            if (!e.is_regular_file()) continue;
            const std::string ext = e.path().extension().string();
            const char* target = ext.ends_with("_dtw") ? "dtw_database" : ext.ends_with("_mtc") ? "mtc_database" : "wld_database";
            fs::rename(e.path(), kingsrow / target / e.path().filename());
        }
        full_ = Database::open(scratch_->path() / "full").release();
        wld_ = Database::open(scratch_->path() / "wld").release();
    }
    static void TearDownTestSuite() {
        delete full_;
        delete wld_;
        delete scratch_;
    }

    // The line of a `done` answer to `go think` on `fen` with the moves played so far.
    static std::vector<std::string> search(HubSession& session, const FenPosition& start, const std::string& moves) {
        std::string pos = "pos pos=" + to_hub_position(start.position, start.side_to_move);
        if (!moves.empty()) pos += " moves=\"" + moves + "\"";
        EXPECT_TRUE(session.from_gui(pos).empty());
        EXPECT_TRUE(session.from_gui("level move-time=1").empty());
        return gui_lines(session.from_gui("go think"));
    }

    // Plays the game from `start` with the session choosing every move; returns its moves and
    // whether it ended (the side to move without a legal move) within `max_plies`.
    static std::pair<std::vector<std::string>, bool> play(HubSession& session, const FenPosition& start, int max_plies) {
        std::vector<std::string> moves;
        std::string joined;
        FenPosition now = start;
        for (int ply = 0; ply < max_plies; ++ply) {
            MoveList legal;
            if (generate_moves(now.position, now.side_to_move, legal) == 0) return {moves, true};
            const std::vector<std::string> answer = search(session, start, joined);
            EXPECT_EQ(answer.size(), 2u);
            if (answer.size() != 2) return {moves, false};
            EXPECT_TRUE(answer[0].starts_with("info ")) << answer[0];
            const std::optional<std::string> move = parse_hub_line(answer[1]).value("move");
            EXPECT_TRUE(move.has_value()) << answer[1];
            const Move m = parse_hub_move(now.position, now.side_to_move, *move);
            now = {apply_move(now.position, now.side_to_move, m), opposite(now.side_to_move)};
            moves.push_back(*move);
            joined += (joined.empty() ? "" : " ") + *move;
        }
        MoveList legal;
        return {moves, generate_moves(now.position, now.side_to_move, legal) == 0};
    }

    // Random positions of 3-piece slices with a legal move for the side to move.
    static std::vector<FenPosition> random_positions(int count, unsigned seed) {
        std::mt19937_64 rng(seed);
        const std::vector<SliceId> slices = {{0, 1, 0, 2}, {1, 0, 0, 2}, {0, 2, 1, 0}, {1, 1, 1, 0}, {0, 1, 2, 0}};
        std::vector<FenPosition> out;
        while (static_cast<int>(out.size()) < count) {
            const SliceIndexer indexer(slices[out.size() % slices.size()]);
            const FenPosition p{indexer.position_at(rng() % indexer.size()), rng() % 2 ? Color::White : Color::Black};
            MoveList legal;
            if (generate_moves(p.position, p.side_to_move, legal) > 0) out.push_back(p);
        }
        return out;
    }

    static test::ScratchDir* scratch_;
    static Database* full_;
    static Database* wld_;
};

test::ScratchDir* HubSessionTest::scratch_ = nullptr;
Database* HubSessionTest::full_ = nullptr;
Database* HubSessionTest::wld_ = nullptr;

TEST_F(HubSessionTest, InitialisationAndMiscellaneousCommandsWithoutEngine) {
    HubSession session(*full_, false, HubIdentity{"egdb", "1.2.3", "egdb"});
    EXPECT_EQ(gui_lines(session.from_gui("hub")), (std::vector<std::string>{"id name=egdb version=1.2.3 author=egdb", "wait"}));
    EXPECT_TRUE(session.from_gui("set-param name=hash value=64").empty());
    EXPECT_EQ(gui_lines(session.from_gui("init")), std::vector<std::string>{"ready"});
    EXPECT_EQ(gui_lines(session.from_gui("ping")), std::vector<std::string>{"pong"});
    EXPECT_TRUE(session.from_gui("new-game").empty());
    EXPECT_TRUE(session.from_gui("some-future-command x=1").empty());
    // A line whose first token is no command word was not understood, and the GUI is told.
    for (const char* unreadable : {"=3", "\"unterminated", "\x01\x02", "pos\"x"}) {
        const std::vector<std::string> answer = gui_lines(session.from_gui(unreadable));
        ASSERT_EQ(answer.size(), 1u) << unreadable;
        EXPECT_TRUE(answer[0].starts_with("error message=")) << answer[0];
        EXPECT_NE(answer[0].find("is not a command"), std::string::npos) << answer[0];
    }
    EXPECT_TRUE(session.from_gui("stop").empty());  // nothing to stop
    EXPECT_FALSE(session.quit());
    EXPECT_TRUE(session.from_gui("quit").empty());
    EXPECT_TRUE(session.quit());
}

TEST_F(HubSessionTest, AnswersAWonPositionWithTheDtwMoveScoreAndVariation) {
    HubSession session(*full_, false);
    const FenPosition start = parse_fen("W:WK46:B5");
    EXPECT_EQ(search(session, start, ""),
              (std::vector<std::string>{"info depth=3 score=99.97 nodes=0 time=0.000 pv=\"46-41 5-10 41x5x10\" wld=win dtw=3",
                                        "done move=46-41 ponder=5-10"}));
    // The loser's side, after 46-41: the longest resistance, scored as a loss in 2 plies.
    EXPECT_EQ(search(session, start, "46-41"),
              (std::vector<std::string>{"info depth=2 score=-99.98 nodes=0 time=0.000 pv=\"5-10 41x5x10\" wld=loss dtw=2",
                                        "done move=5-10 ponder=41x5x10"}));
    // go analyze and go ponder are answered at once as well; a later stop or ponder-hit is ignored.
    ASSERT_TRUE(session.from_gui("pos pos=" + to_hub_position(start.position, start.side_to_move)).empty());
    EXPECT_EQ(gui_lines(session.from_gui("go analyze")).size(), 2u);
    EXPECT_EQ(gui_lines(session.from_gui("go ponder")).size(), 2u);
    EXPECT_TRUE(session.from_gui("ponder-hit").empty());
    EXPECT_TRUE(session.from_gui("stop").empty());
}

TEST_F(HubSessionTest, GamesOfTheDatabaseEndInExactlyDtwPlies) {
    HubSession session(*full_, false);
    int decided = 0;
    for (const FenPosition& start : random_positions(40, 5)) {
        const WldValue value = full_->wld(start.position, start.side_to_move);
        const auto [moves, ended] = play(session, start, value == WldValue::Draw ? 12 : 200);
        if (value == WldValue::Draw) {
            // Both sides keep the draw; the position after the moves is still drawn.
            EXPECT_FALSE(ended) << to_fen(start.position, start.side_to_move);
            continue;
        }
        ++decided;
        EXPECT_TRUE(ended) << to_fen(start.position, start.side_to_move);
        const int dtw = *full_->dtw(start.position, start.side_to_move);
        EXPECT_EQ(static_cast<int>(moves.size()), dtw) << to_fen(start.position, start.side_to_move);
        // The side that ends without a move is the loser: the winner moved last.
        EXPECT_EQ(moves.size() % 2 == 1, value == WldValue::Win) << to_fen(start.position, start.side_to_move);
    }
    EXPECT_GT(decided, 10);  // the sample must hold wins and losses to test anything
}

TEST_F(HubSessionTest, WldOnlyDatabaseWinsWithoutRepeatingAPosition) {
    HubSession session(*wld_, false);
    int won = 0;
    for (const FenPosition& start : random_positions(40, 7)) {
        if (wld_->wld(start.position, start.side_to_move) != WldValue::Win) continue;
        ++won;
        const auto [moves, ended] = play(session, start, 300);
        EXPECT_TRUE(ended) << to_fen(start.position, start.side_to_move) << " after " << moves.size() << " plies";
        EXPECT_EQ(moves.size() % 2, 1u) << to_fen(start.position, start.side_to_move);
    }
    EXPECT_GT(won, 5);
    // The score of a win whose distance the database does not know still reads as forced.
    const std::vector<std::string> answer = search(session, parse_fen("W:WK46:B5"), "");
    ASSERT_EQ(answer.size(), 2u);
    EXPECT_NE(answer[0].find("score=90.01"), std::string::npos) << answer[0];
    EXPECT_EQ(answer[0].find("dtw="), std::string::npos) << answer[0];
}

TEST_F(HubSessionTest, WldOnlyChoiceAvoidsRepetitionsAndPrefersConversions) {
    int checked_repetition = 0, checked_conversion = 0;
    for (const FenPosition& start : random_positions(400, 11)) {
        const Position& p = start.position;
        const Color side = start.side_to_move;
        if (wld_->wld(p, side) != WldValue::Win) continue;
        std::vector<Move> winning;
        bool conversion_wins = false;
        for (const RankedMove& r : wld_->best_moves(p, side)) {
            if (r.successor.wld != WldValue::Loss) continue;
            winning.push_back(r.move);
            conversion_wins = conversion_wins || r.move.is_capture() || (p.king & r.move.from) == 0;
        }
        const Move chosen = endgame_move(*wld_, p, side)->move;
        ASSERT_NE(std::find(winning.begin(), winning.end(), chosen), winning.end()) << to_fen(p, side);
        const bool chosen_converts = chosen.is_capture() || (p.king & chosen.from) == 0;
        if (conversion_wins) {
            ++checked_conversion;
            EXPECT_TRUE(chosen_converts) << to_fen(p, side);
        }
        if (winning.size() < 2) continue;
        // The position the choice leads to has occurred in the game: another winning move is taken.
        const std::vector<FenPosition> game = {{apply_move(p, side, chosen), opposite(side)}, start};
        const Move other = endgame_move(*wld_, p, side, game)->move;
        EXPECT_NE(other, chosen) << to_fen(p, side);
        EXPECT_NE(std::find(winning.begin(), winning.end(), other), winning.end()) << to_fen(p, side);
        ++checked_repetition;
    }
    EXPECT_GT(checked_repetition, 5);
    EXPECT_GT(checked_conversion, 5);
}

TEST_F(HubSessionTest, KingsrowKindsInSeparateDirectoriesServeAsOne) {
    const fs::path kingsrow = scratch_->path() / "kingsrow";
    const std::vector<fs::path> dirs = {kingsrow / "wld_database", kingsrow / "mtc_database", kingsrow / "dtw_database"};
    const std::unique_ptr<Database> db = Database::open(dirs);
    EXPECT_TRUE(db->has_wld());
    EXPECT_TRUE(db->has_mtc());
    EXPECT_TRUE(db->has_dtw());
    HubSession session(*db, false);
    const FenPosition start = parse_fen("B:W28:BK26");
    const std::vector<std::string> answer = search(session, start, "");
    ASSERT_EQ(answer.size(), 2u);
    EXPECT_NE(answer[0].find("wld=win dtw=5"), std::string::npos) << answer[0];
    EXPECT_EQ(play(session, start, 100).first.size(), 5u);
    // The WLD directory alone plays too, without distances.
    EXPECT_FALSE(Database::open(dirs[0])->has_dtw());
}

TEST_F(HubSessionTest, UncoveredOrUnreadablePositionsGetAnErrorWithoutEngine) {
    HubSession session(*full_, false);
    const auto error_of = [&](const std::string& pos) {
        std::vector<std::string> lines = gui_lines(session.from_gui(pos));
        std::vector<std::string> go = gui_lines(session.from_gui("go think"));
        lines.insert(lines.end(), go.begin(), go.end());
        return lines;
    };
    std::vector<std::string> lines = error_of("pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww");
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_TRUE(lines[0].starts_with("error message=\"the position has 40 pieces, the databases up to 3")) << lines[0];
    // A malformed position: the error at pos names the character, and go repeats it.
    lines = error_of("pos pos=Wbbx");
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_TRUE(lines[0].starts_with("error message=\"cannot read pos:")) << lines[0];
    EXPECT_EQ(lines[0], lines[1]);
    // An illegal move in moves=: the error names the move's number and text.
    const std::string hub = to_hub_position(parse_fen("W:WK46:B5").position, Color::White);
    lines = error_of("pos pos=" + hub + " moves=\"46-41 5-11\"");
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_NE(lines[0].find("move 2 of moves="), std::string::npos) << lines[0];
    EXPECT_NE(lines[0].find("5-11"), std::string::npos) << lines[0];
    lines = error_of("pos moves=\"46-41\"");
    EXPECT_NE(lines[0].find("pos without pos="), std::string::npos) << lines[0];
    lines = gui_lines(session.from_gui("pos pos=" + hub + " moves=\"46-41 5-10"));
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_NE(lines[0].find("unterminated"), std::string::npos) << lines[0];
    // Another variant: the databases do not apply.
    EXPECT_TRUE(session.from_gui("set-param name=variant value=frisian").empty());
    lines = error_of("pos pos=" + hub);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_NE(lines[0].find("international draughts only"), std::string::npos) << lines[0];
    EXPECT_TRUE(session.from_gui("set-param name=variant value=normal").empty());
    EXPECT_TRUE(error_of("pos pos=" + hub)[1].starts_with("done move=46-41"));
    // A fresh session asked to go before any position.
    HubSession fresh(*full_, false);
    EXPECT_EQ(gui_lines(fresh.from_gui("go think")), std::vector<std::string>{"error message=\"go before any pos\""});
}

TEST_F(HubSessionTest, WrappedEngineGetsTheRestAndItsAnswersAreRelayed) {
    HubSession session(*full_, true, HubIdentity{"egdb", "1.2.3", "egdb"});
    using To = HubReply::To;
    EXPECT_EQ(session.from_gui("hub"), (std::vector<HubReply>{{To::Engine, "hub"}}));
    // Lines from a GUI that does not wait are held until the engine's wait.
    EXPECT_TRUE(session.from_gui("set-param name=hash value=32").empty());
    EXPECT_EQ(session.from_engine("id name=dame version=0.2.0 author=\"Markus Bilz\""),
              (std::vector<HubReply>{{To::Gui, "id name=\"egdb + dame\" version=1.2.3 author=egdb"}}));
    EXPECT_EQ(session.from_engine("param name=hash value=64 type=int min=1 max=65536"),
              (std::vector<HubReply>{{To::Gui, "param name=hash value=64 type=int min=1 max=65536"}}));
    EXPECT_EQ(session.from_engine("wait"),
              (std::vector<HubReply>{{To::Gui, "wait"}, {To::Engine, "set-param name=hash value=32"}}));
    EXPECT_EQ(session.from_gui("init"), (std::vector<HubReply>{{To::Engine, "init"}}));
    EXPECT_TRUE(session.from_gui("ping").empty());  // held until ready
    EXPECT_EQ(session.from_engine("ready"), (std::vector<HubReply>{{To::Gui, "ready"}, {To::Engine, "ping"}}));
    EXPECT_EQ(session.from_engine("pong"), (std::vector<HubReply>{{To::Gui, "pong"}}));

    // A covered position: answered by egdb; the engine sees the pos and level only.
    const std::string won = "pos pos=" + to_hub_position(parse_fen("W:WK46:B5").position, Color::White);
    EXPECT_EQ(session.from_gui(won), (std::vector<HubReply>{{To::Engine, won}}));
    EXPECT_EQ(session.from_gui("level time=10"), (std::vector<HubReply>{{To::Engine, "level time=10"}}));
    const std::vector<HubReply> answer = session.from_gui("go think");
    ASSERT_EQ(answer.size(), 2u);
    EXPECT_EQ(answer[1], (HubReply{To::Gui, "done move=46-41 ponder=5-10"}));
    EXPECT_FALSE(session.engine_searching());

    // The start position: the engine searches; stop and ping go to it, its lines come back.
    const std::string start = "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
    EXPECT_EQ(session.from_gui(start), (std::vector<HubReply>{{To::Engine, start}}));
    EXPECT_EQ(session.from_gui("go think"), (std::vector<HubReply>{{To::Engine, "go think"}}));
    EXPECT_TRUE(session.engine_searching());
    EXPECT_EQ(session.from_engine("info depth=1 score=0.08 pv=32-27"),
              (std::vector<HubReply>{{To::Gui, "info depth=1 score=0.08 pv=32-27"}}));
    EXPECT_EQ(session.from_gui("ping"), (std::vector<HubReply>{{To::Engine, "ping"}}));
    // A second go during the search is not the protocol: said so, and the search goes on.
    const std::vector<std::string> second = gui_lines(session.from_gui("go think"));
    ASSERT_EQ(second.size(), 1u);
    EXPECT_TRUE(second[0].starts_with("error message=\"go during a search")) << second[0];
    EXPECT_TRUE(session.engine_searching());
    EXPECT_EQ(session.from_gui("stop"), (std::vector<HubReply>{{To::Engine, "stop"}}));
    EXPECT_EQ(session.from_engine("done move=32-27 ponder=18-22"),
              (std::vector<HubReply>{{To::Gui, "done move=32-27 ponder=18-22"}}));
    EXPECT_FALSE(session.engine_searching());
    EXPECT_TRUE(session.from_gui("stop").empty());  // the search is over: not sent
    EXPECT_EQ(session.from_gui("new-game"), (std::vector<HubReply>{{To::Engine, "new-game"}}));

    // The engine dies during a search: the GUI hears of it and the session goes on alone.
    session.from_gui(start);
    session.from_gui("go think");
    const std::vector<std::string> exit_lines = gui_lines(session.engine_exited());
    ASSERT_FALSE(exit_lines.empty());
    EXPECT_TRUE(exit_lines[0].starts_with("error message=")) << exit_lines[0];
    EXPECT_EQ(exit_lines.back(), "pong");  // the ping sent during the search was never answered
    EXPECT_FALSE(session.has_engine());
    EXPECT_EQ(gui_lines(session.from_gui("ping")), std::vector<std::string>{"pong"});
    EXPECT_TRUE(gui_lines(session.from_gui("go think"))[0].starts_with("error message=\"the position has 40 pieces"));
    EXPECT_EQ(session.from_gui("quit"), std::vector<HubReply>{});
    EXPECT_TRUE(session.quit());
}

TEST_F(HubSessionTest, QuitIsNeverHeldAndTheEngineIsToldToQuit) {
    HubSession session(*full_, true);
    session.from_gui("hub");
    EXPECT_EQ(session.from_gui("quit"), (std::vector<HubReply>{{HubReply::To::Engine, "quit"}}));
    EXPECT_TRUE(session.quit());
    // An engine that exits before its wait: egdb identifies itself so that the GUI goes on.
    HubSession early(*full_, true);
    early.from_gui("hub");
    const std::vector<std::string> lines = gui_lines(early.engine_exited());
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_TRUE(lines[0].starts_with("error message="));
    EXPECT_TRUE(lines[1].starts_with("id name=egdb"));
    EXPECT_EQ(lines[2], "wait");
}

}  // namespace
}  // namespace egdb
