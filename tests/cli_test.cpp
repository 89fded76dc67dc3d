// The `egdb` program's contract: output formats, exit codes, and rejection of bad input with a
// message naming the line and token and nothing written to stdout.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "core/formats/kingsrow/directory/identify.hpp"
#include "core/notation/fen.hpp"
#include "core/notation/hub_position.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/shared_dir.hpp"

namespace egdb {
namespace {

struct CliRun {
    int exit_code = -1;
    std::string out;
    std::string err;
};

// Runs the CLI with `args`, feeding `input` on stdin.
CliRun run_cli(const std::string& args, const std::string& input = "") {
    const auto dir = test::scratch_path("cli_run");
    const auto in_file = dir / "in.txt", out_file = dir / "out.txt", err_file = dir / "err.txt";
    std::ofstream(in_file) << input;
    // std::string("'"), not "'": GCC 12 reports a false -Wrestrict on "'" + std::string&& (its bug 105329).
    const std::string cmd = std::string("'") + test::cli_path().string() + "' " + args + " < '" + in_file.string() +
                            "' > '" + out_file.string() + "' 2> '" + err_file.string() + "'";
    const int status = std::system(cmd.c_str());
    CliRun r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    auto slurp = [](const std::filesystem::path& p) {
        std::ifstream f(p);
        return std::string(std::istreambuf_iterator<char>(f), {});
    };
    r.out = slurp(out_file);
    r.err = slurp(err_file);
    return r;
}

TEST(Cli, PerftPrintsOneLinePerDepth) {
    const CliRun r = run_cli("perft 3");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::istringstream lines(r.out);
    std::string line;
    std::vector<std::string> nodes;
    while (std::getline(lines, line)) {
        std::istringstream f(line);
        int depth;
        std::string n;
        double seconds;
        ASSERT_TRUE(f >> depth >> n >> seconds) << line;
        nodes.push_back(n);
    }
    EXPECT_EQ(nodes, (std::vector<std::string>{"9", "81", "658"}));
}

TEST(Cli, PerftRejectsBadFenAndDepth) {
    CliRun r = run_cli("perft --fen 'W:W31-51:B1-20' 2");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("51"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
    r = run_cli("perft x");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("\"x\""), std::string::npos) << r.err;
}

TEST(Cli, MovesListsPdnAndFenAfter) {
    const CliRun r = run_cli("moves 'W:W28:B23'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "28x19 B:W19:B\n");
}

TEST(Cli, IndexAndPositionAreInverse) {
    const CliRun idx = run_cli("index", "B:W27,28,K50:B3,K7,12\nB:WK50:BK23\n\nB:W46,47,48,49:B41,42,43,44\n");
    ASSERT_EQ(idx.exit_code, 0) << idx.err;
    EXPECT_EQ(idx.out, "2 1 2 1 134409509\n0 1 0 1 1126\n4 0 4 0 6547433185\n");
    const CliRun pos = run_cli("position", idx.out);
    ASSERT_EQ(pos.exit_code, 0) << pos.err;
    EXPECT_EQ(pos.out, "W:W27,28,K50:B3,K7,12\nW:WK50:BK23\nW:W46-49:B41-44\n");
}

TEST(Cli, IndexRejectsBadLineWithoutWritingAnything) {
    const CliRun r = run_cli("index", "W:W31,32:B1,2\nW:W31,32:B1,2,0\n");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("line 2"), std::string::npos) << r.err;
    const CliRun too_many = run_cli("index", "W:W31-50:B1-20\n");
    EXPECT_EQ(too_many.exit_code, 2);
    EXPECT_NE(too_many.err.find("line 1"), std::string::npos) << too_many.err;
}

TEST(Cli, IndexErrorNamesTheTokenOnce) {
    const CliRun r = run_cli("index", "W:W28:BX26\n");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("\"X26\""), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("X26"), r.err.rfind("X26")) << "the token is named twice: " << r.err;
}

TEST(CliDatabase, FenArgumentsReachTheReaderAsTheShellPassedThem) {
    const test::ScratchDir scratch("cli_fen_arguments");
    const std::string db = (scratch.path() / "db3").string();
    ASSERT_EQ(run_cli("build --pieces 3 --threads 2 --kinds wld --out '" + db + "'").exit_code, 0);
    // A PDN tag with a comma inside, as an argument and on standard input: the same answer.
    const std::string tag = "[FEN \"W:W28,33:BK26\"]";
    const CliRun argument = run_cli("probe --db '" + db + "' '" + tag + "'");
    EXPECT_EQ(argument.exit_code, 0) << argument.err;
    const CliRun input = run_cli("probe --db '" + db + "' -", tag + "\n");
    EXPECT_EQ(input.exit_code, 0) << input.err;
    EXPECT_EQ(argument.out, input.out);
    EXPECT_TRUE(argument.out.starts_with("W:W28,33:BK26 wld=")) << argument.out;
    // Several FENs, options after them, and an option probe does not have.
    const CliRun several = run_cli("probe --db '" + db + "' 'W:W28:BK26' '" + tag + "' --json");
    EXPECT_EQ(several.exit_code, 0) << several.err;
    EXPECT_EQ(std::count(several.out.begin(), several.out.end(), '\n'), 2) << several.out;
    EXPECT_TRUE(several.out.starts_with("{\"category\":\"loss\"")) << several.out;
    const CliRun unknown = run_cli("probe --db '" + db + "' 'W:W28:BK26' --jsn");
    EXPECT_EQ(unknown.exit_code, 2);
    EXPECT_NE(unknown.err.find("unexpected argument \"--jsn\""), std::string::npos) << unknown.err;
    EXPECT_TRUE(unknown.out.empty()) << unknown.out;
}

TEST(Cli, VersionFlagPrintsTheVersion) {
    const CliRun r = run_cli("--version");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "egdb " EGDB_TEST_VERSION "\n");
}

TEST(Cli, MissingAndWrongDatabasePathsAreNamedForWhatTheyAre) {
    const auto dir = test::scratch_path("cli_paths");
    const CliRun missing = run_cli("probe --db '" + (dir / "nowhere").string() + "' W:W28:BK26");
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find("nowhere: does not exist"), std::string::npos) << missing.err;
    std::ofstream(dir / "a-file") << "x";
    const CliRun file = run_cli("info --db '" + (dir / "a-file").string() + "'");
    EXPECT_EQ(file.exit_code, 2);
    EXPECT_NE(file.err.find("a-file: is not a directory"), std::string::npos) << file.err;
}

TEST(Cli, PositionRejectsOutOfRangeIndex) {
    CliRun r = run_cli("position", "0 1 0 1 2449\n0 1 0 1 2450\n");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(r.out.empty());
    EXPECT_NE(r.err.find("line 2"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("2450"), std::string::npos) << r.err;
    r = run_cli("position", "0 1 0 x 3\n");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("\"x\""), std::string::npos) << r.err;
    r = run_cli("position", "0 1 0 1\n");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("5 fields"), std::string::npos) << r.err;
}

TEST(Cli, EverySubcommandHasHelp) {
    for (const char* cmd : {"perft", "moves", "index", "position", "bench"}) {
        const CliRun r = run_cli(std::string(cmd) + " --help");
        EXPECT_EQ(r.exit_code, 0) << cmd;
        EXPECT_NE(r.out.find("usage: egdb"), std::string::npos) << cmd;
    }
    EXPECT_EQ(run_cli("frobnicate").exit_code, 2);

    // Every command and benchmark, with either spelling of the flag: the help on stdout, starting
    // with the command's usage line, and nothing else done (no required option is asked for).
    for (const std::string cmd : {"perft", "moves", "index", "position", "build", "verify", "probe", "info", "bench",
                                  "bench index", "bench perft", "bench build", "bench probe"}) {
        for (const char* flag : {" --help", " -h"}) {
            const CliRun r = run_cli(cmd + flag);
            EXPECT_EQ(r.exit_code, 0) << cmd << flag << ": " << r.err;
            EXPECT_EQ(r.out.rfind("usage: egdb " + cmd, 0), 0u) << cmd << flag << ": " << r.out;
            EXPECT_TRUE(r.err.empty()) << cmd << flag << ": " << r.err;
        }
    }
    // Help wins over whatever else is on the line, as the commands have always had it.
    CliRun r = run_cli("build --threads x --help");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.rfind("usage: egdb build", 0), 0u) << r.out;
    r = run_cli("perft --bogus -h");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.rfind("usage: egdb perft", 0), 0u) << r.out;
    for (const char* top : {"--help", "-h", "help"}) {
        r = run_cli(top);
        EXPECT_EQ(r.exit_code, 0) << top;
        EXPECT_EQ(r.out.rfind("usage: egdb <command>", 0), 0u) << top << ": " << r.out;
    }
}

TEST(Cli, NoCommandOrAnUnknownOneIsBadUsage) {
    CliRun r = run_cli("");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("usage: egdb"), std::string::npos) << r.err;
    r = run_cli("frobnicate");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("egdb: unknown command \"frobnicate\""), std::string::npos) << r.err;
    r = run_cli("bench");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("egdb bench: "), std::string::npos) << r.err;
    r = run_cli("bench frobnicate");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("\"frobnicate\""), std::string::npos) << r.err;
    // One command per line: a word naming another command is not a second command.
    r = run_cli("perft 1 moves 'W:W28:B23'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("\"moves\""), std::string::npos) << r.err;
}

// Bad arguments of every command: an unknown option, an option without its value, an integer
// option given a word, an integer out of range, a missing required argument. Each exits with 2,
// writes nothing to stdout, and says "egdb <command>: ..." naming the option. None of these
// lines does any work (the build directory is never created).
TEST(Cli, BadArgumentsExitTwoNamingTheOption) {
    const auto scratch = test::process_scratch().path() / "cli_args_never";
    const std::string out = "'" + (scratch / "never").string() + "'";
    const std::string fen = "'B:W28:BK26'";
    struct Case {
        std::string args;
        std::string message;  // expected in stderr after "egdb <command>: "
    };
    const std::vector<Case> cases = {
        {"perft --bogus 3", "unexpected argument \"--bogus\""},
        {"perft 3 --threads", "--threads needs a value"},
        {"perft --threads x 3", "--threads must be an integer, got \"x\""},
        {"perft --threads 0 3", "--threads must be in 1..256, got \"0\""},
        {"perft 3 --fen", "--fen needs a value"},
        {"perft", "DEPTH"},
        {"moves --bogus 'W:W28:B23'", "unexpected argument \"--bogus\""},
        {"moves", "FEN"},
        {"moves 'W:W28:B23' 'W:W28:B23'", "unexpected argument \"W:W28:B23\""},
        {"index --bogus", "unexpected argument \"--bogus\""},
        {"index extra", "unexpected argument \"extra\""},
        {"position --bogus", "unexpected argument \"--bogus\""},
        {"build --pieces 3 --out " + out + " --bogus", "unexpected argument \"--bogus\""},
        {"build --out " + out + " --pieces", "--pieces needs a value"},
        {"build --pieces 3 --out", "--out needs a value"},
        {"build --pieces x --out " + out, "--pieces must be an integer, got \"x\""},
        {"build --pieces 11 --out " + out, "--pieces must be in 2..10, got \"11\""},
        {"build --pieces 3 --out " + out + " --threads 257", "--threads must be in 1..256, got \"257\""},
        {"build --pieces 3 --out " + out + " --sample -1", "--sample must be in 0..1000000000, got \"-1\""},
        {"build --pieces 3 --out " + out + " --zstd-level 2x", "--zstd-level must be an integer, got \"2x\""},
        {"build --out " + out, "--pieces"},
        {"build --pieces 3", "--out"},
        {"verify " + out + " --bogus", "unexpected argument \"--bogus\""},
        {"verify " + out + " --threads", "--threads needs a value"},
        {"verify " + out + " --sample x", "--sample must be an integer, got \"x\""},
        {"verify", "DIR"},
        {"probe --db " + out + " --bogus " + fen, "unexpected argument \"--bogus\""},
        {"probe " + fen + " --db", "--db needs a value"},
        {"probe --db " + out + " --cache-mb x " + fen, "--cache-mb must be an integer, got \"x\""},
        {"probe " + fen, "--db"},
        {"probe --db " + out + " --moves " + fen, "--moves needs --json"},
        {"probe --db " + out + " --json --moves --pv " + fen, "--moves does not combine with --pv"},
        {"serve --db " + out + " --bogus", "unexpected argument \"--bogus\""},
        {"serve --db " + out + " --port 65536", "--port must be in 0..65535, got \"65536\""},
        {"serve --db " + out + " --threads 0", "--threads must be in 1..1024, got \"0\""},
        {"serve --db", "--db needs a value"},
        {"serve", "--db"},
        {"serve --db " + out, "cannot open database"},
        {"info --db " + out + " --bogus", "unexpected argument \"--bogus\""},
        {"info --db", "--db needs a value"},
        {"info", "--db"},
        {"bench index --bogus", "unexpected argument \"--bogus\""},
        {"bench index --seconds", "--seconds needs a value"},
        {"bench index --seconds x", "--seconds must be an integer, got \"x\""},
        {"bench perft --bogus", "unexpected argument \"--bogus\""},
        {"bench perft --depth", "--depth needs a value"},
        {"bench perft --depth x", "--depth must be an integer, got \"x\""},
        {"bench perft --depth 15", "--depth must be in 1..14, got \"15\""},
        {"bench build --bogus", "unexpected argument \"--bogus\""},
        {"bench build --threads", "--threads needs a value"},
        {"bench build --pieces x", "--pieces must be an integer, got \"x\""},
        {"bench probe --db " + out + " --bogus", "unexpected argument \"--bogus\""},
        {"bench probe --db", "--db needs a value"},
        {"bench probe --db " + out + " --small-cache-mb x", "--small-cache-mb must be an integer, got \"x\""},
        {"bench probe", "--db"},
        {"bench serve", "--db"},
        {"bench serve --db " + out + " --clients 1,x", "--clients must be an integer, got \"x\""},
        {"bench serve --db " + out + " --clients 0", "--clients must be in 1..1024, got \"0\""},
    };
    for (const Case& c : cases) {
        const CliRun r = run_cli(c.args);
        EXPECT_EQ(r.exit_code, 2) << c.args << ": " << r.err;
        EXPECT_TRUE(r.out.empty()) << c.args << ": " << r.out;
        const std::string command = c.args.substr(0, c.args.find(' '));
        EXPECT_EQ(r.err.rfind("egdb " + command + ": ", 0), 0u) << c.args << ": " << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << ": " << r.err;
    }
    EXPECT_FALSE(std::filesystem::exists(scratch));
}

// Exit code 1 is for work that fails, 2 for a path that holds no database.
TEST(CliDatabase, DamagedSliceFailsVerifyAndEmptyDirectoryIsBadInput) {
    const test::ScratchDir scratch("cli_damaged");
    const auto& root = scratch.path();
    const auto db = root / "native";
    CliRun r = run_cli("build --pieces 3 --threads 2 --no-verify --out '" + db.string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ASSERT_EQ(run_cli("verify '" + db.string() + "'").exit_code, 0);

    // With a journal, a second run checks nothing again; a damaged journal fails, as damaged data does.
    const auto journal = root / "verify.journal";
    r = run_cli("verify '" + db.string() + "' --journal '" + journal.string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find(" 0 mismatches"), std::string::npos) << r.out;
    r = run_cli("verify '" + db.string() + "' --journal '" + journal.string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("0 positions checked (and "), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("verified earlier, journal"), std::string::npos) << r.err;
    std::filesystem::resize_file(journal, std::filesystem::file_size(journal) - 3);
    r = run_cli("verify '" + db.string() + "' --journal '" + journal.string() + "'");
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(r.err.find("truncated"), std::string::npos) << r.err;

    // One byte flipped in the middle of the largest slice file (inside its pages).
    std::filesystem::path largest;
    for (const auto& entry : std::filesystem::directory_iterator(db)) {
        const std::string name = entry.path().filename().string();
        if (!name.starts_with("slice-") || !name.ends_with(".egdb")) continue;
        if (largest.empty() || entry.file_size() > std::filesystem::file_size(largest)) largest = entry.path();
    }
    ASSERT_FALSE(largest.empty());
    {
        std::fstream f(largest, std::ios::in | std::ios::out | std::ios::binary);
        const auto middle = static_cast<std::streamoff>(std::filesystem::file_size(largest) / 2);
        char byte = 0;
        f.seekg(middle);
        f.get(byte);
        f.seekp(middle);
        f.put(static_cast<char>(byte ^ 0x5a));
        ASSERT_TRUE(f.good());
    }
    r = run_cli("verify '" + db.string() + "'");
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE((r.out + r.err).find(largest.filename().string()), std::string::npos) << r.out << r.err;

    const auto empty = root / "empty";
    std::filesystem::create_directories(empty);
    r = run_cli("probe --db '" + empty.string() + "' 'B:W28:BK26'");
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(r.err.rfind("egdb probe: ", 0), 0u) << r.err;
    r = run_cli("info --db '" + empty.string() + "'");
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

}  // namespace
}  // namespace egdb

namespace egdb {
namespace {

TEST(CliDatabase, BuildProbeInfoVerifyOnNativeAndKingsrowDirectories) {
    const test::ScratchDir scratch("cli_db");
    const auto& root = scratch.path();
    const std::string native = (root / "native").string(), v2 = (root / "v2").string();
    CliRun r = run_cli("build --pieces 3 --threads 2 --out '" + native + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("0 mismatches"), std::string::npos) << r.out;
    r = run_cli("build --pieces 3 --threads 2 --format kingsrow-v2 --out '" + v2 + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("0 mismatches: OK"), std::string::npos) << r.out;

    // The same answers from both directories (MTC only where Kingsrow stores it: 10 plies and up).
    const std::string fens = "'B:W28:BK26' 'W:W28:BK26' 'B:WK2:B15,30'";
    const CliRun a = run_cli("probe --db '" + native + "' --pv " + fens);
    const CliRun b = run_cli("probe --db '" + v2 + "' --pv " + fens);
    ASSERT_EQ(a.exit_code, 0) << a.err;
    ASSERT_EQ(b.exit_code, 0) << b.err;
    EXPECT_EQ(a.out,
              "B:W28:BK26 wld=win dtw=5 mtc=3 best=26-31 pv=26-31,28-23,31-13,23-19,13x24\n"
              "W:W28:BK26 wld=loss dtw=6 mtc=2 best=28-23 pv=28-23,26-31,23-19,31-9,19-14,9x20\n"
              "B:WK2:B15,30 wld=draw dtw=- mtc=- best=30-34 pv=-\n");
    EXPECT_EQ(b.out,
              "B:W28:BK26 wld=win dtw=5 mtc=- best=26-31 pv=26-31,28-23,31-13,23-19,13x24\n"
              "W:W28:BK26 wld=loss dtw=6 mtc=- best=28-23 pv=28-23,26-31,23-19,31-9,19-14,9x20\n"
              "B:WK2:B15,30 wld=draw dtw=- mtc=- best=30-34 pv=-\n");
    const CliRun json = run_cli("probe --db '" + native + "' --json 'B:W28:BK26'");
    // The field names of `egdb serve` and of --json --moves, in the same order.
    EXPECT_EQ(json.out, "{\"category\":\"win\",\"dtw_plies\":5,\"mtc_plies\":3,\"fen\":\"B:W28:BK26\",\"best\":\"26-31\"}\n");
    const CliRun moves = run_cli("probe --db '" + native + "' --json --moves 'B:W28:BK26'");
    EXPECT_TRUE(moves.out.starts_with("{\"category\":\"win\",\"dtw_plies\":5,\"mtc_plies\":3,\"fen\":\"B:W28:BK26\","))
        << moves.out;
    const CliRun json_pv = run_cli("probe --db '" + native + "' --json --pv 'W:W28:BK26'");
    EXPECT_EQ(json_pv.out, "{\"category\":\"loss\",\"dtw_plies\":6,\"mtc_plies\":2,\"fen\":\"W:W28:BK26\",\"best\":\"28-23\","
                           "\"pv\":[\"28-23\",\"26-31\",\"23-19\",\"31-9\",\"19-14\",\"9x20\"]}\n");

    // Too many pieces, a bad FEN: exit 2, message, nothing on stdout.
    r = run_cli("probe --db '" + native + "' 'B:W28:BK26' 'W:W31-50:B1-20'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(r.out.empty());
    EXPECT_NE(r.err.find("argument 2"), std::string::npos) << r.err;
    r = run_cli("probe --db '" + native + "' 'B:W28:BK26,'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("argument 1"), std::string::npos) << r.err;
    r = run_cli("probe --db '" + (root / "nothing").string() + "' 'B:W28:BK26'");
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;

    // A Kingsrow installation keeps WLD, MTC and DTW in separate directories: --db repeated (or
    // one ';' list) opens them as one database.
    const std::filesystem::path wld_dir = root / "wld_database", dtw_dir = root / "dtw_database";
    std::filesystem::create_directories(wld_dir);
    std::filesystem::create_directories(dtw_dir);
    for (const auto& entry : std::filesystem::directory_iterator(v2)) {
        const std::string ext = entry.path().extension().string();
        if (ext.ends_with("_mtc")) continue;
        std::filesystem::copy_file(entry.path(), (ext.ends_with("_dtw") ? dtw_dir : wld_dir) / entry.path().filename());
    }
    const std::string wld_only_line = "B:W28:BK26 wld=win dtw=- mtc=- best=26-31\n";
    r = run_cli("probe --db '" + wld_dir.string() + "' 'B:W28:BK26'");
    EXPECT_EQ(r.out, wld_only_line) << r.err;
    const std::string split_line = "B:W28:BK26 wld=win dtw=5 mtc=- best=26-31\n";
    r = run_cli("probe --db '" + wld_dir.string() + "' --db '" + dtw_dir.string() + "' 'B:W28:BK26'");
    EXPECT_EQ(r.out, split_line) << r.err;
    r = run_cli("probe 'B:W28:BK26' --db '" + wld_dir.string() + ";" + dtw_dir.string() + "'");
    EXPECT_EQ(r.out, split_line) << r.err;

    // egdb hub without an engine: the protocol on stdin and stdout.
    const std::string start = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
    r = run_cli("hub --db '" + wld_dir.string() + "' --db '" + dtw_dir.string() + "'",
                "hub\ninit\npos pos=" + to_hub_position(parse_fen("B:W28:BK26").position, Color::Black) +
                    "\nlevel move-time=1\ngo think\nping\npos pos=" + start + "\ngo think\nquit\nping\n");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out,
              "id name=egdb version=0.1.0 author=egdb\nwait\nready\n"
              "info depth=5 score=99.95 nodes=0 time=0.000 pv=\"26-31 28-23 31-13 23-19 13x24x19\" wld=win dtw=5\n"
              "done move=26-31 ponder=28-23\npong\n"
              "error message=\"the position has 40 pieces, the databases up to 3, and no engine is wrapped (--engine)\"\n");

    // With a wrapped engine (a script speaking just enough Hub): the start position is its, and
    // its answers come back; the end of the input ends egdb and the engine.
    const std::filesystem::path engine = root / "engine.sh";
    std::ofstream(engine) << "while read -r command rest; do\n"
                             "  case $command in\n"
                             "    hub) echo 'id name=script version=1'; echo 'param name=x value=1 type=int'; echo wait ;;\n"
                             "    init) echo ready ;;\n"
                             "    go) echo 'info depth=1 score=0.10'; echo 'done move=32-28' ;;\n"
                             "    ping) echo pong ;;\n"
                             "    quit) exit 0 ;;\n"
                             "  esac\n"
                             "done\n";
    r = run_cli("hub --db '" + native + "' --engine \"sh '" + engine.string() + "'\"",
                "hub\ninit\npos pos=" + start + "\ngo think\nping\n");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out,
              "id name=\"egdb + script\" version=0.1.0 author=egdb\nparam name=x value=1 type=int\nwait\nready\n"
              "info depth=1 score=0.10\ndone move=32-28\npong\n");
    // An engine that cannot be started exits at once: egdb says so and answers alone.
    r = run_cli("hub --db '" + native + "' --engine 'no-such-engine-egdb-test'", "hub\nping\n");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.out.starts_with("error message=")) << r.out;
    EXPECT_TRUE(r.out.ends_with("id name=egdb version=0.1.0 author=egdb\nwait\npong\n")) << r.out;
    r = run_cli("hub --db '" + (root / "nothing").string() + "'", "hub\n");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;

    r = run_cli("info --db '" + native + "'");
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.out.find("complete up to 3 pieces"), std::string::npos) << r.out;
    r = run_cli("info --db '" + v2 + "'");
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.out.find("EGDB_WLD_TUN_V2, up to 3 pieces"), std::string::npos) << r.out;

    EXPECT_EQ(run_cli("verify '" + native + "'").exit_code, 0);
    // Our Kingsrow files cannot carry the published CRCs: each file is reported, and since the set
    // carries egdb's trailer, the one-ply check of random positions decides.
    r = run_cli("verify '" + v2 + "' --sample 500");
    EXPECT_EQ(r.exit_code, 0) << r.out;
    EXPECT_NE(r.out.find("db3.cpr1                 egdb's encoding (crc"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("db3.idx1                 ok (published CRC-32"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("wrong"), std::string::npos) << "an egdb set's own encoding is no error: " << r.out;
    EXPECT_NE(r.out.find("written by egdb: 4 of 4 present; the identifying file db3.idx1 has the published CRC-32"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("positions checked against their successors (wld,dtw), 0 mismatches, 0 tables not checked"),
              std::string::npos)
        << r.out;
    // Without the trailers (the text index files cut back to their records) the files are judged
    // as published ones, and fail.
    const std::string stripped = (root / "v2-stripped").string();
    std::filesystem::copy(v2, stripped);
    int trailers = 0;
    for (const auto& entry : std::filesystem::directory_iterator(stripped)) {
        if (!kingsrow::has_egdb_trailer(entry.path())) continue;
        std::filesystem::resize_file(entry.path(), std::filesystem::file_size(entry.path()) - 12);
        EXPECT_FALSE(kingsrow::has_egdb_trailer(entry.path()));
        ++trailers;
    }
    EXPECT_EQ(trailers, 2) << "db3.idx1 and db3.idx_mtc";
    r = run_cli("verify '" + stripped + "' --sample 0");
    EXPECT_EQ(r.exit_code, 1) << r.out;
    EXPECT_NE(r.out.find("FAILED"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("WRONG (crc"), std::string::npos) << r.out;
    EXPECT_EQ(run_cli("verify '" + v2 + "' --sample x").exit_code, 2);
}

}  // namespace
}  // namespace egdb

namespace egdb {
namespace {

// A Kingsrow installation keeps WLD, MTC and DTW in folders of its own below its top folder; the
// top folder given alone opens all three (the names matched without regard to case, as Windows
// does), and a folder with neither files nor those folders says what it expected.
TEST(CliDatabase, KingsrowInstallationTopFolderOpensItsDatabaseFolders) {
    const test::ScratchDir scratch("cli_installation");
    const std::filesystem::path& root = scratch.path();
    const std::filesystem::path built = root / "built", top = root / "Kingsrow International";
    const CliRun r = run_cli("build --pieces 3 --threads 2 --format kingsrow-runlen --out '" + built.string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::filesystem::path wld = top / "wld_database", mtc = top / "MTC_Database", dtw = top / "dtw_database";
    for (const auto& folder : {wld, mtc, dtw}) std::filesystem::create_directories(folder);
    for (const auto& entry : std::filesystem::directory_iterator(built)) {
        const std::string extension = entry.path().extension().string();
        const auto& to = extension.ends_with("_mtc") ? mtc : extension.ends_with("_dtw") ? dtw : wld;
        std::filesystem::copy_file(entry.path(), to / entry.path().filename());
    }
    std::filesystem::create_directories(top / "games");  // an installation holds other folders too
    // Kingsrow's MTC files hold no distance below 10 plies: mtc=- here, with MTC open.
    const CliRun probe = run_cli("probe --db '" + top.string() + "' 'B:W28:BK26'");
    EXPECT_EQ(probe.exit_code, 0) << probe.err;
    EXPECT_EQ(probe.out, "B:W28:BK26 wld=win dtw=5 mtc=- best=26-31\n");
    const CliRun only_wld = run_cli("probe --db '" + wld.string() + "' 'B:W28:BK26'");
    EXPECT_EQ(only_wld.out, "B:W28:BK26 wld=win dtw=- mtc=- best=26-31\n") << only_wld.err;
    const CliRun info = run_cli("info --db '" + top.string() + "'");
    EXPECT_EQ(info.exit_code, 0) << info.err;
    EXPECT_NE(info.out.find("WLD yes, MTC yes, DTW yes"), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("MTC_Database/db3.idx_mtc"), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("dtw_database/db3.idx_dtw"), std::string::npos) << info.out;
    const CliRun nothing = run_cli("probe --db '" + (top / "games").string() + "' 'B:W28:BK26'");
    EXPECT_EQ(nothing.exit_code, 2);
    EXPECT_NE(nothing.err.find("wld_database, mtc_database, dtw_database"), std::string::npos) << nothing.err;
}

}  // namespace
}  // namespace egdb

namespace egdb {
namespace {

// A database built for some slices only answers the positions of those slices (and what their
// search reads), names the slice of any other position, and info says what it holds.
TEST(CliDatabase, PartialDatabaseAnswersTheSlicesItHolds) {
    const test::ScratchDir scratch("cli_partial");
    const std::string db = (scratch.path() / "part").string();
    const CliRun built = run_cli("build --pieces 3 --slices 0201 --threads 2 --out '" + db + "'");
    ASSERT_EQ(built.exit_code, 0) << built.err;
    const CliRun info = run_cli("info --db '" + db + "'");
    EXPECT_NE(info.out.find("2 slices of up to 3 pieces (partial: complete up to 0 pieces"), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("\n0201 "), std::string::npos) << info.out;
    const CliRun held = run_cli("probe --db '" + db + "' 'W:WK50:BK1,K2' 'B:WK50:BK1'");
    EXPECT_EQ(held.exit_code, 0) << held.err;
    EXPECT_EQ(held.out, "W:WK50:BK1,K2 wld=draw dtw=- mtc=- best=50-44\nB:WK50:BK1 wld=draw dtw=- mtc=- best=1-7\n");
    const CliRun missing = run_cli("probe --db '" + db + "' 'W:W40:BK1'");
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find("has no slice 0110"), std::string::npos) << missing.err;
    EXPECT_TRUE(missing.out.empty()) << missing.out;
}

}  // namespace
}  // namespace egdb
