// `egdb index` and `egdb position`: the Kingsrow slice index (kingsrow-format.md section 2) as a
// filter over standard input. Both read everything first and write only when every line is valid.
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "core/index/slice.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/notation/fen.hpp"

namespace egdb::cli {
namespace {

std::vector<std::string> read_lines(std::istream& in) {
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(std::move(line));
    }
    return lines;
}

bool is_blank(std::string_view s) { return s.find_first_not_of(" \t") == std::string_view::npos; }

// Indexers are built once per slice met in the input.
class IndexerCache {
public:
    const SliceIndexer& get(const SliceId& slice) {
        auto it = cache_.find(slice.to_string());
        if (it == cache_.end()) it = cache_.emplace(slice.to_string(), std::make_unique<SliceIndexer>(slice)).first;
        return *it->second;
    }

private:
    std::map<std::string, std::unique_ptr<SliceIndexer>> cache_;
};

void check_side_counts(const SliceId& s, std::size_t line_number, std::string_view token) {
    if (s.nbm + s.nbk > kMaxPiecesPerSide || s.nwm + s.nwk > kMaxPiecesPerSide) {
        throw line_error(line_number, token,
                         "more than " + std::to_string(kMaxPiecesPerSide) + " pieces a side cannot be indexed");
    }
    if (s.nbm + s.nbk + s.nwm + s.nwk == 0) throw line_error(line_number, token, "a position needs at least one piece");
}

int run_index() {
    const std::vector<std::string> lines = read_lines(std::cin);
    IndexerCache indexers;
    std::ostringstream out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (is_blank(lines[i])) continue;
        FenPosition fp;
        try {
            fp = parse_fen(lines[i]);
        } catch (const FenError& e) {
            throw line_error(i + 1, "", e.what());  // the FEN reader's message names the token
        }
        const Material m = material_of(fp.position);
        const SliceId slice{m.nbm, m.nbk, m.nwm, m.nwk};
        check_side_counts(slice, i + 1, lines[i]);
        out << m.nbm << ' ' << m.nbk << ' ' << m.nwm << ' ' << m.nwk << ' '
            << indexers.get(slice).index_of(fp.position) << '\n';
    }
    std::cout << out.str();
    return kExitOk;
}

int run_position() {
    const std::vector<std::string> lines = read_lines(std::cin);
    IndexerCache indexers;
    std::ostringstream out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (is_blank(lines[i])) continue;
        std::istringstream fields(lines[i]);
        std::vector<std::string> tokens;
        for (std::string t; fields >> t;) tokens.push_back(t);
        if (tokens.size() != 5) {
            throw line_error(i + 1, lines[i], "expected 5 fields '<nbm> <nbk> <nwm> <nwk> <index>', got " +
                                                  std::to_string(tokens.size()));
        }
        static constexpr const char* kNames[] = {"nbm", "nbk", "nwm", "nwk"};
        int counts[4];
        for (int k = 0; k < 4; ++k) {
            try {
                counts[k] = static_cast<int>(parse_integer(tokens[static_cast<std::size_t>(k)], kNames[k], 0, kMaxPiecesPerSide));
            } catch (const UsageError& e) {
                throw line_error(i + 1, tokens[static_cast<std::size_t>(k)], e.what());
            }
        }
        const SliceId slice{counts[0], counts[1], counts[2], counts[3]};
        check_side_counts(slice, i + 1, lines[i]);
        const std::uint64_t size = slice_size(slice);
        std::int64_t index = 0;
        try {
            index = parse_integer(tokens[4], "index", 0, static_cast<std::int64_t>(size) - 1);
        } catch (const UsageError& e) {
            throw line_error(i + 1, tokens[4], std::string(e.what()) + " (slice " + slice.to_string() + ")");
        }
        out << to_fen(indexers.get(slice).position_at(static_cast<std::uint64_t>(index)), Color::White) << '\n';
    }
    std::cout << out.str();
    return kExitOk;
}

}  // namespace

void add_index(CLI::App& app) {
    add_command(app, "index",
                "usage: egdb index < fens\n"
                "Reads one FEN per line and writes the position's slice and its index inside it,\n"
                "  <nbm> <nbk> <nwm> <nwk> <index>\n"
                "as the Kingsrow databases number positions (no colour reversal; the side to move is\n"
                "ignored). Blank lines are skipped. At most " +
                    std::to_string(kMaxPiecesPerSide) + " pieces a side.\n",
                run_index);
}

void add_position(CLI::App& app) {
    add_command(app, "position",
                "usage: egdb position < indices\n"
                "Reads lines '<nbm> <nbk> <nwm> <nwk> <index>' and writes the FEN of that position\n"
                "(White to move), the inverse of 'egdb index'. Blank lines are skipped.\n",
                run_position);
}

}  // namespace egdb::cli
