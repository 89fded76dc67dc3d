#include "core/formats/native/solved_slice_io.hpp"

#include <vector>

#include "core/generate/one_ply_check.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/rules/movegen.hpp"
#include "core/util/parallel_ranges.hpp"

namespace egdb::native {
namespace {

std::vector<Color> stored_sides(SliceId slice) {
    if (is_color_symmetric(slice)) return {Color::Black};
    return {Color::Black, Color::White};
}

}  // namespace

WrittenSlice write_solved_slice(const std::filesystem::path& directory, const SolvedSlice& solved,
                                const SolvedWriteOptions& options) {
    const SliceId slice = solved.slice();
    const std::uint64_t n = solved.size();
    const SliceIndexer indexer(slice);
    const std::vector<Color> sides = stored_sides(slice);

    // Per side: WLD codes, "must capture" and "draw or must capture" bitsets.
    std::vector<std::vector<std::uint8_t>> wld(sides.size());
    std::vector<std::vector<std::uint64_t>> capture_bits(sides.size()), distance_dont_care(sides.size());
    for (std::size_t s = 0; s < sides.size(); ++s) {
        wld[s].resize(n);
        capture_bits[s].assign((n + 63) / 64, 0);
        distance_dont_care[s].assign((n + 63) / 64, 0);
    }
    parallel_ranges(n, options.threads, [&](std::uint64_t first, std::uint64_t last) {
        for (std::uint64_t i = first; i < last; ++i) {
            const Position p = indexer.position_at(i);
            for (std::size_t s = 0; s < sides.size(); ++s) {
                const DistanceCode code = solved.dtw_codes(sides[s])[i];
                const WldValue v = wld_of_code(code);
                wld[s][i] = static_cast<std::uint8_t>(v);
                const std::uint64_t bit = std::uint64_t{1} << (i % 64);
                if (has_capture(p, sides[s])) {
                    capture_bits[s][i / 64] |= bit;
                    distance_dont_care[s][i / 64] |= bit;
                } else if (v == WldValue::Draw) {
                    distance_dont_care[s][i / 64] |= bit;
                }
            }
        }
    });
    std::vector<SectionValues> sections;
    for (std::size_t s = 0; s < sides.size(); ++s) {
        if (options.kinds.wld) sections.push_back({ValueKind::Wld, sides[s], wld[s], {}, capture_bits[s]});
        if (options.kinds.dtw) {
            sections.push_back({ValueKind::Dtw, sides[s], solved.dtw_codes(sides[s]), {}, distance_dont_care[s]});
        }
        if (options.kinds.mtc) {
            sections.push_back({ValueKind::Mtc, sides[s], solved.mtc(sides[s]), {}, distance_dont_care[s]});
        }
    }
    WrittenSlice out;
    WriteOptions format = options.format;
    format.threads = std::max(format.threads, options.threads);
    out.file_bytes = write_slice_file(directory, slice, sections, format);
    const SliceFileReader written(directory / slice_file_name(slice.nbm, slice.nbk, slice.nwm, slice.nwk));
    for (const SectionDescriptor& d : written.sections()) {
        (d.kind == ValueKind::Wld ? out.wld_bytes : d.kind == ValueKind::Dtw ? out.dtw_bytes : out.mtc_bytes) +=
            d.pages_bytes;
    }
    return out;
}

bool can_restore(const SliceFileReader& file) {
    for (Color side : stored_sides(file.slice())) {
        for (ValueKind kind : kAllValueKinds) {
            if (file.find_section(kind, side) < 0) return false;
        }
    }
    return true;
}

namespace {

// Decodes every page of `section` on `threads` threads, calling store(index, value) once per
// position. Pages are independent; the threads take runs of 16 pages in turn.
template <class Store>
void decode_section(const SliceFileReader& file, int section, int threads, Store&& store) {
    const SectionDescriptor& d = file.sections()[static_cast<std::size_t>(section)];
    const std::uint64_t n = file.positions();
    parallel_chunks(d.page_count, threads, 16, [&](std::uint64_t first_page, std::uint64_t last_page) {
        std::vector<std::byte> page;
        for (std::uint64_t p = first_page; p < last_page; ++p) {
            file.load_page(section, p, page);
            const std::uint64_t first = p * d.positions_per_page;
            const std::uint64_t count = std::min<std::uint64_t>(d.positions_per_page, n - first);
            for (std::uint64_t k = 0; k < count; ++k) store(first + k, packed_value(page, d.value_bits, k));
        }
    });
}

}  // namespace

namespace {

template <class Lookup>
SolvedSlice restore_with(const SliceFileReader& file, const Lookup& smaller, int threads,
                         std::array<CaptureBits, 2>* must_capture) {
    const SliceId slice = file.slice();
    SolvedSlice solved(slice);
    const std::uint64_t n = solved.size();
    const SliceIndexer indexer(slice);
    const std::vector<Color> sides = stored_sides(slice);
    for (Color side : sides) {
        const int wld_section = file.find_section(ValueKind::Wld, side);
        const int dtw_section = file.find_section(ValueKind::Dtw, side);
        const int mtc_section = file.find_section(ValueKind::Mtc, side);
        if (wld_section < 0) {
            throw CorruptDataError(file.path().string() + ": no WLD section for " +
                                   (side == Color::Black ? "black" : "white") + " to move");
        }
        auto dtw = solved.dtw_codes(side);
        auto mtc = solved.mtc(side);
        if (dtw_section >= 0) {
            decode_section(file, dtw_section, threads,
                           [&](std::uint64_t i, std::uint32_t v) { dtw[i] = static_cast<DistanceCode>(v); });
        }
        if (mtc_section >= 0) {
            decode_section(file, mtc_section, threads,
                           [&](std::uint64_t i, std::uint32_t v) { mtc[i] = static_cast<std::uint8_t>(v); });
        }
        // WLD last: it marks the draws, whose DTW and MTC are "don't care" in the file. Without a
        // DTW section the code only carries WLD: 1 for a win, 0 for a loss (odd and even).
        const bool wld_only = dtw_section < 0;
        decode_section(file, wld_section, threads, [&](std::uint64_t i, std::uint32_t v) {
            if (v == kStoredDraw) {
                dtw[i] = kDrawCode;
                mtc[i] = 0;
            } else if (wld_only) {
                dtw[i] = v == kStoredWin ? 1 : 0;
            }
        });
    }
    // Capture positions (and the White side of a symmetric slice) from their true sources.
    if (must_capture != nullptr) {
        for (Color side : sides) (*must_capture)[static_cast<std::size_t>(side)].assign((n + 63) / 64, 0);
    }
    // Ranges of whole 64-bit words: each bitset word has one writer.
    parallel_ranges(n, threads, [&](std::uint64_t first, std::uint64_t last) {
        MoveList captures;
        for (std::uint64_t i = first; i < last; ++i) {
            const Position p = indexer.position_at(i);
            for (Color side : sides) {
                if (!has_capture(p, side)) continue;
                if (must_capture != nullptr) {
                    (*must_capture)[static_cast<std::size_t>(side)][i / 64] |= std::uint64_t{1} << (i % 64);
                }
                generate_captures(p, side, captures);  // the legal moves: capturing is compulsory
                const PositionValue v = value_over_moves(p, side, captures.view(), smaller);
                solved.dtw_codes(side)[i] = v.wld == WldValue::Draw ? kDrawCode : static_cast<DistanceCode>(v.dtw);
                solved.mtc(side)[i] = static_cast<std::uint8_t>(v.mtc);
            }
        }
    });
    if (sides.size() == 1) {
        parallel_ranges(n, threads, [&](std::uint64_t first, std::uint64_t last) {
            for (std::uint64_t i = first; i < last; ++i) {
                // White to move here is Black to move in the reversed position, same slice.
                const std::uint64_t j = indexer.index_of(reversed(indexer.position_at(i)));
                solved.dtw_codes(Color::White)[i] = solved.dtw_codes(Color::Black)[j];
                solved.mtc(Color::White)[i] = solved.mtc(Color::Black)[j];
            }
        });
    }
    return solved;
}

}  // namespace

SolvedSlice restore_solved_slice(const SliceFileReader& file, const SolutionStore& smaller, int threads,
                                 std::array<CaptureBits, 2>* must_capture) {
    return restore_with(file, smaller, threads, must_capture);
}

SolvedSlice restore_solved_slice(const SliceFileReader& file, const SolvedLookup& smaller, int threads,
                                 std::array<CaptureBits, 2>* must_capture) {
    return restore_with(file, smaller, threads, must_capture);
}

}  // namespace egdb::native
