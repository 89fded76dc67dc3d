// `egdb probe` and `egdb info` on a native or Kingsrow database (core/workflow/probe_report.hpp,
// core/workflow/info.hpp); this file only reads arguments and formats results.
#include <algorithm>
#include <array>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "core/notation/fen.hpp"
#include "core/probe/database.hpp"
#include "core/workflow/info.hpp"
#include "core/workflow/probe_report.hpp"
#include "serve/json_writer.hpp"
#include "serve/report_json.hpp"

namespace egdb::cli {
namespace {

constexpr const char* kProbeHelp =
    "usage: egdb probe --db DIR [--db DIR2 ...] [--json [--moves]] [--pv] [--cache-mb M] FEN... | -\n"
    "Prints, per position, one line:\n"
    "  <fen> wld=<win|loss|draw> dtw=<plies|-> mtc=<plies|-> best=<pdn-move|->\n"
    "Values are for the side to move, distances in plies, captures resolved. DIR may hold a\n"
    "native egdb database or Kingsrow files (WLD, with MTC and DTW alongside); several --db (or one\n"
    "DIR list separated by ';') open as one database, each kind of data taken from the first\n"
    "directory holding it (a Kingsrow installation's wld_database, mtc_database, dtw_database).\n"
    "'-' reads FENs from stdin, one per line. --json prints one JSON object per line instead, with the\n"
    "field names of `egdb serve`:\n"
    "  {\"category\": \"win\"|\"loss\"|\"draw\", \"dtw_plies\": <int>|null, \"mtc_plies\": <int>|null,\n"
    "   \"fen\": ..., \"best\": <pdn-move>|null}\n"
    "--pv adds the principal variation (best moves to the end of the game, by DTW): pv=<moves>,\n"
    "or \"pv\": [...] in JSON.\n"
    "--json --moves prints instead the object GET /international of `egdb serve` answers, one per line:\n"
    "  {\"category\": \"win\"|\"loss\"|\"draw\", \"dtw_plies\": ..., \"mtc_plies\": ..., \"fen\": ..., \"hub\": ...,\n"
    "   \"moves\": [{\"pdn\", \"hub\", \"fen\", \"category\", \"dtw_plies\", \"mtc_plies\", \"capture\"}, ...]}\n"
    "with every legal move, best first, and the value of the position after it for the side to\n"
    "move there (so the best move of a win is a \"loss\"). It does not combine with --pv.\n";

std::string format_line(const std::string& fen, const workflow::ProbeReport& r, bool json, bool want_pv) {
    const char* wld = workflow::wld_word(r.wld);
    std::ostringstream o;
    if (json) {
        // The field names of `egdb serve` and of --json --moves (serve/report_json.hpp).
        serve::JsonWriter w(256);
        w.begin_object().key("category").string(wld).key("dtw_plies").number_or_null(r.dtw);
        w.key("mtc_plies").number_or_null(r.mtc).key("fen").string(fen).key("best");
        if (r.best) w.string(*r.best); else w.null();
        if (want_pv) {
            w.key("pv").begin_array();
            for (const std::string& move : r.pv) w.string(move);
            w.end_array();
        }
        o << w.end_object().take();
    } else {
        o << fen << " wld=" << wld << " dtw=" << (r.dtw ? std::to_string(*r.dtw) : "-")
          << " mtc=" << (r.mtc ? std::to_string(*r.mtc) : "-") << " best=" << (r.best ? *r.best : "-");
        if (want_pv) {
            o << " pv=";
            if (r.pv.empty()) o << "-";
            for (std::size_t i = 0; i < r.pv.size(); ++i) o << (i ? "," : "") << r.pv[i];
        }
    }
    return o.str();
}

struct ProbeOptions {
    std::vector<std::string> directories;
    bool json = false;
    bool want_pv = false;
    bool moves = false;  // the tablebase report of `egdb serve` (needs json)
    std::size_t cache_mb = 64;
    const CLI::App* command = nullptr;  // its leftover arguments are the FENs, and '-' for stdin
};

int run_probe(const ProbeOptions& o) {
    if (o.moves && !o.json) throw UsageError("--moves needs --json");
    if (o.moves && o.want_pv) throw UsageError("--moves does not combine with --pv (the main line is GET /international/mainline)");
    bool from_stdin = false;
    std::vector<std::string> fens;
    for (const std::string& a : o.command->remaining()) {
        if (a == "-") from_stdin = true;
        else if (a.starts_with('-')) throw UsageError("unexpected argument \"" + a + "\"");  // no FEN starts with '-'
        else fens.push_back(a);
    }
    // Inputs are numbered as the user sees them: arguments first, then stdin lines.
    std::vector<std::pair<std::string, std::string>> inputs;  // (where, text)
    for (std::size_t i = 0; i < fens.size(); ++i) inputs.emplace_back("argument " + std::to_string(i + 1), fens[i]);
    if (from_stdin) {
        std::size_t n = 0;
        for (std::string line; std::getline(std::cin, line);) {
            ++n;
            if (!line.empty() && line.back() == '\r') line.pop_back();
            if (line.find_first_not_of(" \t") == std::string::npos) continue;
            inputs.emplace_back("line " + std::to_string(n), line);
        }
    }
    if (inputs.empty()) throw UsageError(std::string("no FEN given\n") + kProbeHelp);
    std::vector<FenPosition> positions;
    for (const auto& [where, text] : inputs) {
        try {
            positions.push_back(parse_fen(text));
        } catch (const FenError& e) {
            throw UsageError(where + ": " + e.what());
        }
    }
    DatabaseOptions options;
    options.cache_bytes = o.cache_mb << 20;
    const std::unique_ptr<Database> db = Database::open(database_directories(o.directories), options);
    std::string out;
    for (std::size_t i = 0; i < positions.size(); ++i) {
        try {
            const FenPosition& fp = positions[i];
            if (o.moves) {
                out += serve::tablebase_json_text(workflow::tablebase_report(*db, fp.position, fp.side_to_move));
                out += '\n';
                continue;
            }
            out += format_line(to_fen(fp.position, fp.side_to_move),
                               workflow::probe_position(*db, fp.position, fp.side_to_move, o.want_pv), o.json, o.want_pv);
        } catch (const LookupNotPossible& e) {
            throw UsageError(inputs[i].first + ": " + e.what());
        }
        out += '\n';
    }
    std::cout << out;
    return kExitOk;
}

int run_info(const std::string& dir) {
    const workflow::DatabaseInfo info = workflow::describe_database(dir);
    if (info.type != DatabaseType::Native) {
        // A Kingsrow set: what it holds and its size per stored position (both sides to move).
        std::printf("%s: Kingsrow database, %s, up to %d pieces; WLD %s, MTC %s, DTW %s\n", info.directory.string().c_str(),
                    to_string(info.type), info.max_pieces, info.has_wld ? "yes" : "no", info.has_mtc ? "yes" : "no",
                    info.has_dtw ? "yes" : "no");
        for (const workflow::FileInfo& f : info.files) {
            std::printf("%-24s %12llu bytes\n", f.name.c_str(), static_cast<unsigned long long>(f.bytes));
        }
        std::printf("total %llu bytes, %.4f bits per stored position\n", static_cast<unsigned long long>(info.total_bytes),
                    info.bits_per_position(info.total_bytes));
        return kExitOk;
    }
    int held_pieces = 0;
    for (const workflow::SliceInfo& s : info.slices) held_pieces = std::max(held_pieces, s.slice.total());
    if (held_pieces > info.max_pieces) {
        // A partial database (egdb build --slices): it answers the positions of the slices listed.
        std::printf("%s: native egdb database, %zu slices of up to %d pieces (partial: complete up to %d pieces;"
                    " positions of other slices are not answered)\n",
                    info.directory.string().c_str(), info.slices.size(), held_pieces, info.max_pieces);
    } else {
        std::printf("%s: native egdb database, complete up to %d pieces\n", info.directory.string().c_str(), info.max_pieces);
    }
    std::printf("%-6s %16s %12s %9s %9s %9s %8s %8s\n", "slice", "positions", "file bytes", "wld b/p", "dtw b/p",
                "mtc b/p", "max dtw", "max mtc");
    std::uint64_t total_positions = 0;
    std::array<std::uint64_t, 3> kind_bytes{};
    for (const workflow::SliceInfo& s : info.slices) {
        // Bits per position over both sides to move (a symmetric slice stores one side for both).
        const double both_sides = 2.0 * static_cast<double>(s.positions);
        std::printf("%-6s %16llu %12llu %9.4f %9.4f %9.4f %8u %8u\n", s.slice.to_string().c_str(),
                    static_cast<unsigned long long>(s.positions), static_cast<unsigned long long>(s.file_bytes),
                    8.0 * static_cast<double>(s.kind_bytes[0]) / both_sides, 8.0 * static_cast<double>(s.kind_bytes[1]) / both_sides,
                    8.0 * static_cast<double>(s.kind_bytes[2]) / both_sides, s.max_dtw, s.max_mtc);
        total_positions += s.positions;
        for (std::size_t k = 0; k < 3; ++k) kind_bytes[k] += s.kind_bytes[k];
    }
    std::printf("%-6s %16llu %12llu %9.4f %9.4f %9.4f\n", "total", static_cast<unsigned long long>(total_positions),
                static_cast<unsigned long long>(info.total_bytes), info.bits_per_position(kind_bytes[0]),
                info.bits_per_position(kind_bytes[1]), info.bits_per_position(kind_bytes[2]));
    return kExitOk;
}

}  // namespace

void add_probe(CLI::App& app) {
    const auto o = std::make_shared<ProbeOptions>();
    CLI::App& command = add_command(app, "probe", kProbeHelp, [o] { return run_probe(*o); });
    command.add_option("--db", o->directories)
        ->type_name("DIR")
        ->required()
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
        ->allow_extra_args(false);  // one directory per --db: what follows is a FEN or another option
    command.add_flag("--json", o->json);
    command.add_flag("--pv", o->want_pv);
    command.add_flag("--moves", o->moves);
    add_integer(command, "--cache-mb", o->cache_mb, 1, 1 << 20);
    // The FENs are what no option takes, as the shell passed them: an option of CLI11 would read
    // an argument "[a,b]" as a list, stripping a PDN tag's brackets ('[FEN "W:W28,33:B1"]') and
    // splitting it at its commas.
    command.allow_extras();
    o->command = &command;
}

void add_info(CLI::App& app) {
    const auto dir = std::make_shared<std::string>();
    CLI::App& command = add_command(app, "info",
                                    "usage: egdb info --db DIR\n"
                                    "Native database: the slices, positions, file sizes, and bits per position of each value\n"
                                    "kind (compressed pages over both sides to move). Kingsrow set: its type, the kinds it\n"
                                    "holds, its files and bits per stored position.\n",
                                    [dir] { return run_info(*dir); });
    command.add_option("--db", *dir)->type_name("DIR")->required();
}

}  // namespace egdb::cli
