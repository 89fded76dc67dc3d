// `build` as one workflow for every caller (`egdb build`, egdb_build of the C ABI and through it
// the bindings): solves every endgame of up to N pieces by retrograde analysis and writes it as a
// native database (resumable: finished slice files are loaded instead of solved again, leftovers
// of an interrupted write are removed) or as Kingsrow files that the Kingsrow driver opens. It
// ends with a check of what was written: `verify` for native data; for Kingsrow files a read-back
// through Database::open (the path egdb_open takes) against the solution.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/build/kingsrow_export.hpp"
#include "core/build/solved_slice_io.hpp"
#include "core/workflow/kingsrow_read_back.hpp"
#include "core/workflow/verify.hpp"
#include "core/util/resources.hpp"

namespace egdb::workflow {

enum class OutputFormat : std::uint8_t { Native, KingsrowV2, KingsrowV1, KingsrowRunlen };

// "native", "kingsrow-v2", "kingsrow-v1", "kingsrow-runlen"; throws RuntimeError(InvalidArgument)
// naming the accepted words for anything else.
OutputFormat parse_output_format(std::string_view text);
std::string_view to_string(OutputFormat format) noexcept;

// A comma-separated subset of "wld,dtw,mtc" that includes wld (DTW and MTC are read together with
// WLD); throws RuntimeError(InvalidArgument) naming an unknown, empty or repeated item.
native::ValueKinds parse_value_kinds(std::string_view text);

// "0501,1212": slices as <nbm><nbk><nwm><nwk>, either orientation; throws
// RuntimeError(InvalidArgument) naming an item that is not four digits or not a slice with both
// sides present.
std::vector<SliceId> parse_slice_list(std::string_view text);

struct BuildRequest {
    int pieces = 0;  // 2 .. 2 * kMaxPiecesPerSide; may be 0 when `slices` names what to build
    // Build only these slices and the slices they depend on (dependency_closure), reusing the
    // ones already built; empty: every slice of up to `pieces` pieces.
    std::vector<SliceId> slices;
    std::filesystem::path out;
    // Threads, and memory_bytes: the most bytes the build should hold (native builds; 0: no limit,
    // every solved slice stays in memory while a later slice reads it). Under a budget, solved
    // slices that do not fit beside the process itself, the slice being solved, its writer's
    // buffers, the mapped files and a page cache of an eighth of the budget are read back from
    // their files (DecodedSlicePlan); the files written are the same. A slice that alone needs
    // more is solved with a warning; one that needs more than the machine has is refused before
    // anything is solved (assumed_machine_bytes).
    Resources resources = Resources::machine();
    native::ValueKinds kinds;
    OutputFormat format = OutputFormat::Native;
    int zstd_level = native::WriteOptions{}.zstd_level;  // native pages
    // What the plan takes the process itself to hold: nullopt, its measured resident set (the
    // product's behaviour); a value, that many bytes, whatever the process (tests of the plan's
    // choices, whose budgets of a few MiB must not depend on the test process's allocator).
    std::optional<std::uint64_t> assumed_process_bytes;
    // The memory of the machine, against which the largest slice still to solve is checked before
    // anything is solved (a slice that needs more is refused: ErrorKind::Unsupported). nullopt:
    // this machine's physical memory; a value: tests of the refusal on any machine.
    std::optional<std::uint64_t> assumed_machine_bytes;
    // Native builds: slices of at least this many positions are solved one advancement level at a
    // time, each level kept as a unit file in OUT/units until the slice file is written
    // (build/unit_file.hpp), so that an interrupted build resumes at the first
    // unfinished level; the files written are the same. 0: every slice. The default (2^23) solves
    // the larger 5-piece slices in units too (no 4-piece slice is that large): a 6-piece build drops them from memory and brings
    // them back many times, and a slice comes back from its units at 60-250 million positions a
    // second, from its file at 5-10 million (the file leaves capture positions "don't care", so
    // they are derived again from their successors). The 5-piece build takes 4% longer (248 s
    // against 237 s on 2 cores, measured with 2^22) and half the memory.
    std::uint64_t unit_file_min_positions = std::uint64_t{1} << 23;
    // Native builds: a level of a slice solved in units is cut into chunks of about this many
    // positions (whole men configurations), each a unit that reads only the blocks of the level
    // above its men's moves reach, so that the memory of a unit follows the chunk size instead of
    // the size of two levels (docs/architecture.md, step 5); the files written are the same.
    // 0: a level is one unit.
    std::uint64_t chunk_positions = 0;
    // Native builds: the file of a slice solved in units is encoded from them in parts of about
    // this many positions (whole page runs), each a part file in OUT/units, and then assembled,
    // so that no slice is ever held whole under a budget; the files written are the same.
    std::uint64_t part_positions = std::uint64_t{1} << 24;
    // Distances above this are held as wide positions (values/position_value.hpp); the files
    // do not depend on it. Tests lower it so that small databases take the path the long
    // distances of 7 and 8 pieces take.
    Plies narrow_limit = kMaxNarrowMtc;
    bool verify = true;
    std::uint64_t read_back_samples = 100'000;  // Kingsrow: positions sampled per slice (0: none)
};

enum class BuildStage : std::uint8_t { Resume, Solve, Write, Verify };

// One finished unit of a stage: a slice resumed, solved (and, for native data, written), a
// Kingsrow table written, a slice verified.
struct BuildItem {
    BuildStage stage = BuildStage::Solve;
    std::string label;            // "2110", "2110 b" (a Kingsrow table: slice and side to move)
    std::uint64_t positions = 0;  // work units of the item
    double seconds = 0;
    std::string detail;           // e.g. "solve 0.20 s, write 0.05 s, 0.180 WLD bits/position"
    std::uint64_t stage_done = 0;   // work units of the stage finished so far
    std::uint64_t stage_total = 0;  // work units of the stage in all (0: not known in advance)
};

struct BuildObserver {
    // A stage starts with `total` work units (positions; 0: not known).
    std::function<void(BuildStage stage, std::uint64_t total)> on_stage;
    // An item finished; returning false cancels the build (it then throws ErrorKind::Cancelled;
    // what is finished stays on disk, so running it again resumes a native build).
    std::function<bool(const BuildItem&)> on_item;
    // A note that does not stop the build (a damaged slice file solved again).
    std::function<void(const std::string&)> on_warning;
    // What the build plans, before it starts (native: the largest slice still to solve and the
    // memory it plans for it, against the budget).
    std::function<void(const std::string&)> on_note;
};

struct BuildReport {
    std::filesystem::path out;
    OutputFormat format = OutputFormat::Native;
    int pieces = 0;
    std::size_t slices = 0;
    std::uint64_t positions = 0;  // indices of the canonical slices (each for both sides to move)
    std::size_t resumed_slices = 0;  // finished files loaded to solve the slices that read them
    // The most bytes of solutions held at once: the slice being solved and the slices still to be
    // read (a native build releases the others; a Kingsrow export holds every slice).
    std::uint64_t peak_solution_bytes = 0;
    double seconds = 0;  // solve and write
    double solve_seconds = 0;
    double write_seconds = 0;
    double solve_peak_memory_mib = 0;
    double peak_memory_mib = 0;  // at the end of writing
    kingsrow::KingsrowExportReport kingsrow_sizes;  // Kingsrow formats
    std::optional<VerifyResult> verify;               // native, when asked for
    std::optional<ExportCheckReport> read_back;       // Kingsrow, when asked for
    double check_seconds = 0;
    // Verification in the build: slices checked level by level as they were solved (and recorded
    // in the closing verification's journal), the positions checked (both sides to move, colour-
    // symmetric slices too), those filled by colour reversal from checked blocks
    // (colour_mirror.hpp) and the time the checks took (part of solve_seconds).
    std::size_t slices_checked_in_build = 0;
    std::uint64_t positions_checked_in_build = 0;
    std::uint64_t positions_mirrored_in_build = 0;
    double checked_in_build_seconds = 0;

    bool ok() const noexcept;
};

// Throws RuntimeError(InvalidArgument) for a bad request, FileError when the output cannot be
// created or written, RuntimeError(Cancelled) when the observer cancels.
BuildReport build_database(const BuildRequest& request, const BuildObserver& observer = {});

}  // namespace egdb::workflow
