// What the libFuzzer harnesses share: a scratch folder of the process, writing an input as a
// file, small reference databases built once per process, and the rule that decides what a
// harness accepts as a failure.
//
// The rule: bad input may only fail as an egdb::Error (the documented error model, whose message
// reaches the user). Any other exception escapes the harness, and libFuzzer reports it as a crash
// ("deadly signal" after std::terminate), exactly like a segmentation fault or a sanitizer report.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/board/position.hpp"
#include "core/index/slice.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/util/error.hpp"
#include "core/workflow/build.hpp"
#include "tests/scratch_dir.hpp"

namespace egdb::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) noexcept {
    return {reinterpret_cast<const char*>(data), size};
}

// The folder of this process (removed when libFuzzer exits normally).
inline const std::filesystem::path& scratch() { return test::process_scratch().path(); }

inline void write_file(const std::filesystem::path& path, std::span<const std::uint8_t> bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("fuzz harness: cannot write " + path.string());
}

// Every endgame of up to `pieces` pieces in `format` with all three kinds, built (and checked by
// the build's own verification) into a fresh folder `name` of the scratch folder.
inline std::filesystem::path build_reference(const std::string& name, workflow::OutputFormat format, int pieces) {
    workflow::BuildRequest request;
    request.pieces = pieces;
    request.out = test::scratch_path(name);
    request.resources.threads = 1;
    request.format = format;
    request.read_back_samples = 1000;
    const workflow::BuildReport report = workflow::build_database(request);
    if (!report.ok()) throw std::runtime_error("fuzz harness: the reference database " + name + " does not verify");
    return request.out;
}

// Every position of every slice of 2 .. `pieces` pieces with both sides present, each with both
// sides to move: the probes a harness makes over a tiny database (2 pieces: 4900 probes).
inline std::vector<std::pair<Position, Color>> all_positions(int pieces) {
    std::vector<std::pair<Position, Color>> out;
    for (const SliceId slice : all_slices(pieces)) {
        const SliceIndexer& indexer = slice_indexer(slice);
        for (std::uint64_t i = 0; i < indexer.size(); ++i) {
            const Position p = indexer.position_at(i);
            out.emplace_back(p, Color::Black);
            out.emplace_back(p, Color::White);
        }
    }
    return out;
}

}  // namespace egdb::fuzz
