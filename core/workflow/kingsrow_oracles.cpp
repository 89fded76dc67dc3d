#include "core/workflow/kingsrow_oracles.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>

#include "core/formats/native/native_layout.hpp"
#include "core/formats/native/slice_file_reader.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/notation/fen.hpp"
#include "core/formats/native/native_database.hpp"
#include "core/rules/movegen.hpp"
#include "core/util/error.hpp"
#include "core/workflow/verify.hpp"

namespace egdb::workflow {
namespace {

constexpr std::uint64_t kMtcSubslice = std::uint64_t{1} << 31;  // kingsrow-format.md 2.5
constexpr unsigned kMtcThreshold = 10;                          // 7.1: smaller values are not kept

// (canonical slice, subslice, side to move)
using PairKey = std::tuple<std::string, std::uint64_t, int>;

struct HighMtc {
    SliceId slice;
    std::uint64_t subslice = 0;
    Color side = Color::Black;
    unsigned mtc = 0;
    std::string fen;
};

std::ifstream open_oracle(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) throw FileError("cannot read " + path.string());
    return in;
}

[[noreturn]] void bad_line(const std::filesystem::path& path, const std::string& line) {
    throw RuntimeError(ErrorKind::InvalidArgument, path.string() + ": cannot read the line \"" + line + "\"");
}

// "db0312-0: white, mtc 10" followed by a FEN line ending in '.'.
std::vector<HighMtc> read_high_mtc(const std::filesystem::path& path) {
    std::ifstream in = open_oracle(path);
    std::vector<HighMtc> out;
    for (std::string header; std::getline(in, header);) {
        if (header.empty() || header.back() == '\r') {
            if (!header.empty()) header.pop_back();
            if (header.empty()) continue;
        }
        const std::size_t dash = header.find('-');
        const std::size_t colon = header.find(':');
        const std::size_t mtc_at = header.find("mtc ");
        if (header.rfind("db", 0) != 0 || dash != 6 || colon == std::string::npos || mtc_at == std::string::npos) {
            bad_line(path, header);
        }
        HighMtc r;
        r.slice = {header[2] - '0', header[3] - '0', header[4] - '0', header[5] - '0'};
        r.subslice = std::stoull(header.substr(dash + 1, colon - dash - 1));
        r.side = header.find("white", colon) != std::string::npos ? Color::White : Color::Black;
        r.mtc = static_cast<unsigned>(std::stoul(header.substr(mtc_at + 4)));
        if (!std::getline(in, r.fen)) bad_line(path, header);
        while (!r.fen.empty() && (r.fen.back() == '.' || r.fen.back() == '\r')) r.fen.pop_back();
        out.push_back(r);
    }
    return out;
}

// The highest MTC of each (subslice, stored side) of a slice file, over won and lost positions
// where the side to move has no capture. MTC pages hold anything at the other positions (they are
// "don't care"), so only values of 10 or more are looked at closely.
std::map<std::pair<std::uint64_t, int>, unsigned> slice_maxima(const native::SliceFileReader& file, int threads) {
    const SliceId slice = file.slice();
    const SliceIndexer& indexer = slice_indexer(slice);
    std::map<std::pair<std::uint64_t, int>, unsigned> maxima;
    std::mutex merge;
    for (const Color side : {Color::Black, Color::White}) {
        const int mtc = file.find_section(native::ValueKind::Mtc, side);
        const int wld = file.find_section(native::ValueKind::Wld, side);
        if (mtc < 0 || wld < 0) continue;
        const native::SectionDescriptor& m = file.sections()[static_cast<std::size_t>(mtc)];
        const native::SectionDescriptor& w = file.sections()[static_cast<std::size_t>(wld)];
        const std::uint64_t subslices = std::max<std::uint64_t>(1, (file.positions() + kMtcSubslice - 1) / kMtcSubslice);
        for (std::uint64_t s = 0; s < subslices; ++s) maxima[{s, static_cast<int>(side)}] = 0;
        std::atomic<std::uint64_t> next_page{0};
        std::exception_ptr error;
        {
            std::vector<std::jthread> pool;
            for (int t = 0; t < threads; ++t) {
                pool.emplace_back([&] {
                    try {
                        std::map<std::uint64_t, unsigned> local;
                        std::vector<std::byte> page, wld_page;
                        std::uint64_t wld_loaded = ~std::uint64_t{0};
                        for (std::uint64_t p = next_page++; p < m.page_count; p = next_page++) {
                            file.load_page(mtc, p, page);
                            const std::uint64_t first = p * m.positions_per_page;
                            const std::uint64_t count = std::min<std::uint64_t>(m.positions_per_page, file.positions() - first);
                            for (std::uint64_t j = 0; j < count; ++j) {
                                const unsigned v = native::packed_value(page, m.value_bits, j);
                                if (v < kMtcThreshold) continue;
                                const std::uint64_t i = first + j;
                                if (i / w.positions_per_page != wld_loaded) {
                                    wld_loaded = i / w.positions_per_page;
                                    file.load_page(wld, wld_loaded, wld_page);
                                }
                                if (native::packed_value(wld_page, 2, i % w.positions_per_page) == native::kStoredDraw) continue;
                                if (has_capture(indexer.position_at(i), side)) continue;
                                unsigned& best = local[i / kMtcSubslice];
                                best = std::max(best, v);
                            }
                        }
                        const std::lock_guard lock(merge);
                        for (const auto& [s, v] : local) {
                            unsigned& best = maxima[{s, static_cast<int>(side)}];
                            best = std::max(best, v);
                        }
                    } catch (...) {
                        const std::lock_guard lock(merge);
                        error = std::current_exception();
                        next_page = m.page_count;
                    }
                });
            }
        }
        if (error) std::rethrow_exception(error);
    }
    return maxima;
}

}  // namespace

KingsrowOracleReport check_kingsrow_oracles(const KingsrowOracleRequest& request) {
    const auto start = std::chrono::steady_clock::now();
    const int threads = request.resources.thread_count();
    KingsrowOracleReport report;
    const auto note = [&](const std::string& m) {
        if (report.messages.size() < 50) report.messages.push_back(m);
    };
    // The native reader answers for every slice file present, so a directory that a build is
    // still filling (some 6-piece slices done) is checked for what it holds.
    const native::NativeDatabase db(request.database);

    // The slices the directory holds.
    std::vector<SliceId> held;
    for (const auto& entry : std::filesystem::directory_iterator(request.database)) {
        const std::string name = entry.path().filename().string();
        if (name.size() != 15 || name.rfind("slice-", 0) != 0 || entry.path().extension() != ".egdb") continue;
        const SliceId s{name[6] - '0', name[7] - '0', name[8] - '0', name[9] - '0'};
        if (native::slice_file_name(s.nbm, s.nbk, s.nwm, s.nwk) == name) {
            held.push_back(s);
            report.max_pieces = std::max(report.max_pieces, s.total());
        }
    }
    const auto holds = [&](SliceId s) { return std::find(held.begin(), held.end(), s) != held.end(); };

    {
        const std::filesystem::path path = request.oracles / "kingsrow_example_wld.txt";
        std::ifstream in = open_oracle(path);
        for (std::string line; std::getline(in, line);) {
            if (!line.empty() && line.back() == '\r') line.pop_back();
            if (line.empty() || line[0] == '#') continue;
            const std::size_t space = line.rfind(' ');
            if (space == std::string::npos) bad_line(path, line);
            const FenPosition f = parse_fen(line.substr(0, space));
            const SliceId s = slice_of(f.position);
            if (!holds(is_canonical(s) ? s : color_reversed(s))) continue;
            const std::string expected = line.substr(space + 1);
            const std::string got = to_string(db.value(f.position, f.side_to_move).wld);
            ++report.wld_positions;
            if (got != expected) {
                ++report.wld_mismatches;
                note(line + ": egdb says " + got);
            }
        }
    }

    const std::vector<HighMtc> listed = read_high_mtc(request.oracles / "kingsrow_high_mtc.txt");
    std::vector<bool> matched(listed.size(), false);
    for (const SliceId s : held) {
        const native::SliceFileReader file(request.database / native::slice_file_name(s.nbm, s.nbk, s.nwm, s.nwk));
        for (const auto& [key, highest] : slice_maxima(file, threads)) {
            const auto [subslice, side] = key;
            const auto it = std::find_if(listed.begin(), listed.end(), [&](const HighMtc& r) {
                return r.slice == s && r.subslice == subslice && static_cast<int>(r.side) == side;
            });
            report.highest_mtc = std::max<std::uint64_t>(report.highest_mtc, highest);
            const std::string pair = s.to_string() + "-" + std::to_string(subslice) + (side == 0 ? " black" : " white");
            if (it == listed.end()) {
                ++report.unlisted_pairs;
                if (highest >= kMtcThreshold) {
                    ++report.unlisted_above_threshold;
                    note(pair + ": highest MTC " + std::to_string(highest) + " but Kingsrow lists none of 10 or more");
                }
                continue;
            }
            ++report.mtc_maxima_checked;
            matched[static_cast<std::size_t>(it - listed.begin())] = true;
            const FenPosition f = parse_fen(it->fen);
            const PositionValue at = db.value(f.position, f.side_to_move);
            if (highest != it->mtc || at.mtc != it->mtc || at.wld == WldValue::Draw) {
                ++report.mtc_mismatches;
                note(pair + ": highest MTC " + std::to_string(highest) + ", at " + it->fen + " " +
                     std::to_string(at.mtc) + "; Kingsrow lists " + std::to_string(it->mtc));
            }
        }
    }
    // A listed pair of a slice held that the file does not have (a side it does not store).
    for (std::size_t k = 0; k < listed.size(); ++k) {
        if (matched[k] || !holds(listed[k].slice)) continue;
        ++report.mtc_mismatches;
        note(listed[k].slice.to_string() + "-" + std::to_string(listed[k].subslice) +
             (listed[k].side == Color::Black ? " black" : " white") + ": listed by Kingsrow, not in the database");
    }
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return report;
}

}  // namespace egdb::workflow
