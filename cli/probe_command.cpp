// `egdb probe` and `egdb info` on a native database directory.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "core/formats/native/native_database.hpp"
#include "core/probe/database.hpp"
#include "core/notation/fen.hpp"
#include "core/notation/pdn_move.hpp"
#include "core/probe/ranked_moves.hpp"
#include "core/rules/movegen.hpp"

namespace egdb::cli {
namespace {

constexpr const char* kProbeHelp =
    "usage: egdb probe --db DIR [--json] [--pv] [--cache-mb M] FEN... | -\n"
    "Prints, per position, one line:\n"
    "  <fen> wld=<win|loss|draw> dtw=<plies|-> mtc=<plies|-> best=<pdn-move|->\n"
    "Values are for the side to move, distances in plies, captures resolved. DIR may hold a\n"
    "native egdb database or Kingsrow files (WLD, with MTC and DTW alongside). '-' reads FENs from\n"
    "stdin, one per line. --json prints one JSON object per line instead:\n"
    "  {\"fen\": ..., \"wld\": \"win\"|\"loss\"|\"draw\", \"dtw\": <int>|null, \"mtc\": <int>|null,\n"
    "   \"best\": <pdn-move>|null}\n"
    "--pv adds the principal variation (best moves to the end of the game, by DTW): pv=<moves>,\n"
    "or \"pv\": [...] in JSON.\n";

const char* wld_name(WldValue v) { return v == WldValue::Win ? "win" : v == WldValue::Loss ? "loss" : "draw"; }

struct ProbeLine {
    std::string fen;
    std::string wld;
    std::optional<int> dtw, mtc;
    std::optional<std::string> best;
    std::vector<std::string> pv;
};

std::string pdn_of(const Position& pos, Color side, const Move& m) {
    MoveListWithPaths list;
    generate_moves(pos, side, list);
    for (int i = 0; i < list.size(); ++i) {
        if (list[i] == m) return move_to_pdn(pos, side, list, i);
    }
    return {};
}

ProbeLine probe_one(const Database& db, const FenPosition& fp, bool want_pv) {
    ProbeLine line;
    line.fen = to_fen(fp.position, fp.side_to_move);
    const WldValue wld = db.wld(fp.position, fp.side_to_move);
    line.wld = wld_name(wld);
    if (wld != WldValue::Draw) {
        if (db.has_dtw()) line.dtw = db.dtw(fp.position, fp.side_to_move);
        if (db.has_mtc()) line.mtc = db.mtc(fp.position, fp.side_to_move);
    }
    const auto ranked = db.best_moves(fp.position, fp.side_to_move);
    if (!ranked.empty()) line.best = pdn_of(fp.position, fp.side_to_move, ranked.front().move);
    if (want_pv && db.has_dtw() && wld != WldValue::Draw) {
        Position p = fp.position;
        Color side = fp.side_to_move;
        for (const Move& m : db.principal_variation(fp.position, fp.side_to_move, DistanceKind::Dtw)) {
            line.pv.push_back(pdn_of(p, side, m));
            p = apply_move(p, side, m);
            side = opposite(side);
        }
    }
    return line;
}

std::string json_string(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

std::string format_line(const ProbeLine& l, bool json, bool want_pv) {
    std::ostringstream o;
    if (json) {
        o << "{\"fen\": " << json_string(l.fen) << ", \"wld\": \"" << l.wld << "\", \"dtw\": "
          << (l.dtw ? std::to_string(*l.dtw) : "null") << ", \"mtc\": " << (l.mtc ? std::to_string(*l.mtc) : "null")
          << ", \"best\": " << (l.best ? json_string(*l.best) : "null");
        if (want_pv) {
            o << ", \"pv\": [";
            for (std::size_t i = 0; i < l.pv.size(); ++i) o << (i ? ", " : "") << json_string(l.pv[i]);
            o << "]";
        }
        o << "}";
    } else {
        o << l.fen << " wld=" << l.wld << " dtw=" << (l.dtw ? std::to_string(*l.dtw) : "-")
          << " mtc=" << (l.mtc ? std::to_string(*l.mtc) : "-") << " best=" << (l.best ? *l.best : "-");
        if (want_pv) {
            o << " pv=";
            if (l.pv.empty()) o << "-";
            for (std::size_t i = 0; i < l.pv.size(); ++i) o << (i ? "," : "") << l.pv[i];
        }
    }
    return o.str();
}

}  // namespace

int run_probe(Args args) {
    if (wants_help(args)) {
        std::cout << kProbeHelp;
        return kExitOk;
    }
    std::filesystem::path dir;
    bool json = false, want_pv = false, from_stdin = false;
    std::size_t cache_mb = 64;
    std::vector<std::string> fens;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string_view a = args[i];
        if (a == "--db" && i + 1 < args.size()) dir = std::string(args[++i]);
        else if (a == "--json") json = true;
        else if (a == "--pv") want_pv = true;
        else if (a == "--cache-mb" && i + 1 < args.size()) cache_mb = static_cast<std::size_t>(parse_integer(args[++i], "--cache-mb", 1, 1 << 20));
        else if (a == "-") from_stdin = true;
        else if (a.starts_with("--")) throw UsageError("unexpected option \"" + std::string(a) + "\"\n" + kProbeHelp);
        else fens.emplace_back(a);
    }
    if (dir.empty()) throw UsageError(std::string("missing --db DIR\n") + kProbeHelp);
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
    std::unique_ptr<Database> db;
    try {
        DatabaseOptions options;
        options.cache_mb = cache_mb;
        db = Database::open(dir, options);
    } catch (const DatabaseError& e) {
        throw std::runtime_error(e.what());
    }
    std::string out;
    for (std::size_t i = 0; i < positions.size(); ++i) {
        try {
            out += format_line(probe_one(*db, positions[i], want_pv), json, want_pv);
        } catch (const LookupNotPossible& e) {
            throw UsageError(inputs[i].first + ": " + e.what());
        }
        out += '\n';
    }
    std::cout << out;
    return kExitOk;
}

int run_info(Args args) {
    constexpr const char* kHelp =
        "usage: egdb info --db DIR\n"
        "Native database: the slices, positions, file sizes, and bits per position of each value\n"
        "kind (compressed pages over both sides to move). Kingsrow set: its type, the kinds it\n"
        "holds, its files and bits per stored position.\n";
    if (wants_help(args)) {
        std::cout << kHelp;
        return kExitOk;
    }
    if (args.size() != 2 || args[0] != "--db") throw UsageError(std::string("expected --db DIR\n") + kHelp);
    const std::filesystem::path dir{std::string(args[1])};
    bool native_dir = false;
    if (std::filesystem::is_directory(dir)) {
        for (const auto& e : std::filesystem::directory_iterator(dir)) {
            const std::string n = e.path().filename().string();
            native_dir = native_dir || (n.starts_with("slice-") && n.ends_with(".egdb"));
        }
    }
    if (!native_dir) {
        // A Kingsrow set: what it holds and its size per stored position (both sides to move).
        std::unique_ptr<Database> db;
        try {
            db = Database::open(dir);
        } catch (const DatabaseError& e) {
            throw UsageError(e.what());
        }
        std::uint64_t positions = 0;
        for (SliceId s : all_slices(db->max_pieces())) {
            if (is_canonical(s)) positions += slice_size(s) * (is_color_symmetric(s) ? 1 : 2);
        }
        std::printf("%s: Kingsrow database, %s, up to %d pieces; WLD %s, MTC %s, DTW %s\n", dir.string().c_str(),
                    to_string(db->type()), db->max_pieces(), db->has_wld() ? "yes" : "no", db->has_mtc() ? "yes" : "no",
                    db->has_dtw() ? "yes" : "no");
        std::uint64_t total = 0;
        std::vector<std::filesystem::path> files;
        for (const auto& e : std::filesystem::directory_iterator(dir)) {
            if (e.is_regular_file()) files.push_back(e.path());
        }
        std::sort(files.begin(), files.end());
        for (const auto& f : files) {
            const auto bytes = std::filesystem::file_size(f);
            total += bytes;
            std::printf("%-24s %12llu bytes\n", f.filename().string().c_str(), static_cast<unsigned long long>(bytes));
        }
        std::printf("total %llu bytes, %.4f bits per stored position\n", static_cast<unsigned long long>(total),
                    8.0 * static_cast<double>(total) / static_cast<double>(positions));
        return kExitOk;
    }
    const native::NativeDatabase db{dir};
    std::printf("%s: native egdb database, complete up to %d pieces\n", db.directory().string().c_str(),
                db.max_pieces());
    std::printf("%-6s %16s %12s %9s %9s %9s %8s %8s\n", "slice", "positions", "file bytes", "wld b/p", "dtw b/p",
                "mtc b/p", "max dtw", "max mtc");
    std::uint64_t total_positions = 0, total_bytes = 0;
    std::uint64_t kind_bytes[3] = {0, 0, 0};
    for (const native::SliceFileReader* f : db.files()) {
        std::uint64_t bytes[3] = {0, 0, 0};
        std::uint32_t max_value[3] = {0, 0, 0};
        for (const native::SectionDescriptor& d : f->sections()) {
            bytes[static_cast<int>(d.kind)] += d.pages_bytes;
            max_value[static_cast<int>(d.kind)] = std::max(max_value[static_cast<int>(d.kind)], d.max_value);
        }
        // Bits per position over both sides to move (a symmetric slice stores one side for both).
        const double both_sides = 2.0 * static_cast<double>(f->positions());
        std::printf("%-6s %16llu %12llu %9.4f %9.4f %9.4f %8u %8u\n", f->slice().to_string().c_str(),
                    static_cast<unsigned long long>(f->positions()), static_cast<unsigned long long>(f->file_size()),
                    8.0 * static_cast<double>(bytes[0]) / both_sides, 8.0 * static_cast<double>(bytes[1]) / both_sides,
                    8.0 * static_cast<double>(bytes[2]) / both_sides, max_value[1], max_value[2]);
        total_positions += f->positions();
        total_bytes += f->file_size();
        for (int k = 0; k < 3; ++k) kind_bytes[k] += bytes[k];
    }
    const double both = 2.0 * static_cast<double>(total_positions);
    std::printf("%-6s %16llu %12llu %9.4f %9.4f %9.4f\n", "total", static_cast<unsigned long long>(total_positions),
                static_cast<unsigned long long>(total_bytes), 8.0 * static_cast<double>(kind_bytes[0]) / both,
                8.0 * static_cast<double>(kind_bytes[1]) / both, 8.0 * static_cast<double>(kind_bytes[2]) / both);
    return kExitOk;
}

}  // namespace egdb::cli
