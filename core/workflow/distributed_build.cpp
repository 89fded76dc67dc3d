#include "core/workflow/distributed_build.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "core/formats/native/native_database.hpp"
#include "core/formats/native/native_layout.hpp"
#include "core/formats/native/slice_file_reader.hpp"
#include "core/formats/native/slice_part_file.hpp"
#include "core/build/build_directory.hpp"
#include "core/build/slice_memory.hpp"
#include "core/build/store_then_files.hpp"
#include "core/build/unit_file.hpp"
#include "core/build/unit_range_reader.hpp"
#include "core/generate/build_driver.hpp"
#include "core/generate/decoded_slice_plan.hpp"
#include "core/generate/slice_solver.hpp"
#include "core/generate/solution_store.hpp"
#include "core/util/error.hpp"
#include "core/util/peak_memory.hpp"

namespace egdb::workflow::distributed {
namespace {

using Clock = std::chrono::steady_clock;

// The inputs a unit file of `s` names (the same for every chunk of a level).
native::UnitInputs unit_inputs(const std::vector<MenLevel>& levels, const std::vector<SliceId>& successors, int advancement) {
    const bool above = std::any_of(levels.begin(), levels.end(), [&](const MenLevel& l) { return l.advancement == advancement + 1; });
    return native::UnitInputs{above ? advancement + 1 : -1, successors};
}

std::vector<std::uint64_t> chunk_configurations(const MenLevel& level, std::size_t first, std::size_t count) {
    return {level.configurations.begin() + static_cast<std::ptrdiff_t>(first),
            level.configurations.begin() + static_cast<std::ptrdiff_t>(first + count)};
}

std::span<const std::uint64_t> chunk_span(const MenLevel& level, std::size_t first, std::size_t count) {
    return std::span(level.configurations).subspan(first, count);
}

std::uint64_t block_size_of(SliceId s) { return slice_size(s) / men_configurations(s.nbm, s.nwm); }

const MenLevel& find_level(const std::vector<MenLevel>& levels, SliceId s, int advancement) {
    const auto it = std::find_if(levels.begin(), levels.end(), [&](const MenLevel& l) { return l.advancement == advancement; });
    if (it == levels.end()) throw InvalidArgumentError("slice " + s.to_string() + " has no level " + std::to_string(advancement));
    return *it;
}

}  // namespace

std::string to_string(const Task& task) {
    if (task.kind == TaskKind::WriteSlice) return "write " + task.slice.to_string();
    if (task.kind == TaskKind::EncodePart) return "part " + task.slice.to_string() + " p" + std::to_string(task.chunk);
    return "unit " + task.slice.to_string() + " a" + std::to_string(task.advancement) + " c" + std::to_string(task.chunk);
}

std::vector<std::pair<std::size_t, std::size_t>> level_chunks(std::size_t configurations, std::uint64_t block_size,
                                                              std::uint64_t chunk_positions) {
    const std::size_t step = chunk_positions == 0
                                 ? std::max<std::size_t>(configurations, 1)
                                 : static_cast<std::size_t>(std::max<std::uint64_t>(1, chunk_positions / std::max<std::uint64_t>(block_size, 1)));
    std::vector<std::pair<std::size_t, std::size_t>> chunks;
    for (std::size_t first = 0; first < configurations; first += step) chunks.emplace_back(first, std::min(step, configurations - first));
    return chunks;
}

std::uint64_t part_positions(const DistributedRequest& request, SliceId slice) {
    const std::uint64_t n = slice_size(slice);
    if (request.chunk_positions == 0) return n;
    const std::uint64_t alignment = native::page_run_alignment(request.write.format);
    return std::min(n, (request.chunk_positions + alignment - 1) / alignment * alignment);
}

std::size_t part_count(const DistributedRequest& request, SliceId slice) {
    const std::uint64_t per_part = part_positions(request, slice);
    return static_cast<std::size_t>((slice_size(slice) + per_part - 1) / per_part);
}

// --- Scheduler ------------------------------------------------------------------------------

Scheduler::Scheduler(const DistributedRequest& request, std::function<void(const std::string&)> on_warning)
    : directory_(request.out, on_warning) {
    const auto warn = [&](const std::string& text) {
        if (on_warning) on_warning(text);
    };
    std::error_code ec;

    const auto index_in_order = [&](SliceId t) -> std::ptrdiff_t {
        const auto it = std::find(request.order.begin(), request.order.end(), t);
        return it == request.order.end() ? -1 : it - request.order.begin();
    };
    for (const SliceId id : request.order) {
        Slice s;
        s.id = id;
        const std::vector<SliceId> successors = successor_slices(id);
        for (SliceId t : successors) {
            const std::ptrdiff_t k = index_in_order(t);
            if (k >= 0) s.reads.push_back(static_cast<std::size_t>(k));
        }
        s.block_size = block_size_of(id);
        positions_total_ += slice_size(id);
        s.finished = directory_.finished(id);
        const std::vector<MenLevel> levels = men_configuration_levels(id);
        for (const MenLevel& l : levels) {
            Level level;
            level.advancement = l.advancement;
            for (const auto& [first, count] : level_chunks(l.configurations.size(), s.block_size, request.chunk_positions)) {
                Chunk c{first, count, State::Waiting};
                ++units_total_;
                const std::filesystem::path unit = native::unit_chunk_path(request.out, id, l.advancement, static_cast<int>(level.chunks.size()));
                if (s.finished) {
                    c.state = State::Done;
                } else if (std::filesystem::exists(unit, ec)) {
                    try {
                        native::UnitFileReader(unit, id, l.advancement, chunk_span(l, first, count),
                                               unit_inputs(levels, successors, l.advancement))
                            .verify();
                        c.state = State::Done;
                        ++units_resumed_;
                        positions_done_ += count * s.block_size;
                    } catch (const CorruptDataError& e) {
                        warn(std::string(e.what()) + "; solving it again");
                        std::filesystem::remove(unit, ec);
                    }
                }
                if (c.state == State::Done) ++level.chunks_done;
                level.chunks.push_back(c);
            }
            s.levels.push_back(std::move(level));
        }
        for (std::size_t i = 0; i < s.levels.size(); ++i) {
            for (std::size_t j = 0; j < s.levels.size(); ++j) {
                if (s.levels[j].advancement == s.levels[i].advancement + 1) s.levels[i].above = static_cast<std::ptrdiff_t>(j);
            }
            if (s.levels[i].chunks_done == s.levels[i].chunks.size()) ++s.levels_done;
        }
        const std::uint64_t per_part = part_positions(request, id);
        s.parts.assign(part_count(request, id), s.finished ? State::Done : State::Waiting);
        for (std::size_t p = 0; p < s.parts.size() && !s.finished; ++p) {
            const std::filesystem::path part = native::slice_part_path(request.out, id, static_cast<int>(p));
            if (!std::filesystem::exists(part, ec)) continue;
            try {
                const std::uint64_t first = p * per_part;
                native::SlicePartFile(part).verify_holds(id, static_cast<int>(p), first, std::min(per_part, slice_size(id) - first));
                s.parts[p] = State::Done;
                ++s.parts_done;
            } catch (const CorruptDataError& e) {
                warn(std::string(e.what()) + "; encoding it again");
                std::filesystem::remove(part, ec);
            }
        }
        if (s.finished) {
            s.parts_done = s.parts.size();
            s.write = State::Done;
            ++slices_resumed_;
            positions_done_ += slice_size(id);
        } else {
            ++slices_left_;
        }
        slices_.push_back(std::move(s));
    }
    remove_stale_chunks(request.out);
    std::vector<SliceId> left;
    for (const Slice& s : slices_) {
        if (!s.finished) left.push_back(s.id);
    }
    largest_unit_ = native::largest_need(left, [&](SliceId s) {
        return native::solve_need_bytes(s, true, request.worker.thread_count(), part_positions(request, s));
    });
    if (largest_unit_) native::refuse_beyond_machine(*largest_unit_, request.assumed_machine_bytes.value_or(physical_memory_bytes()));
}

void Scheduler::remove_stale_chunks(const std::filesystem::path& out) const {
    // Chunk and part files no task of this build will read: those of finished slices (a worker
    // killed after writing the slice file, before removing its units) and those whose number does
    // not exist with the chunk size of this run. Single-process unit files (no chunk) are left.
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(native::unit_folder(out), ec)) {
        const std::string name = entry.path().filename().string();
        int nbm = 0, nbk = 0, nwm = 0, nwk = 0, advancement = 0, chunk = 0;
        char tail = 0;
        if (name.size() == std::string_view("part-0000-p0000.egdbp").size() &&
            std::sscanf(name.c_str(), "part-%1d%1d%1d%1d-p%4d.egdb%c", &nbm, &nbk, &nwm, &nwk, &chunk, &tail) == 6 && tail == 'p') {
            const SliceId id{nbm, nbk, nwm, nwk};
            const auto slice = std::find_if(slices_.begin(), slices_.end(), [&](const Slice& x) { return x.id == id; });
            if (slice != slices_.end() && (slice->finished || static_cast<std::size_t>(chunk) >= slice->parts.size())) {
                std::filesystem::remove(entry.path(), ec);
            }
            continue;
        }
        if (name.size() != std::string_view("unit-0000-a000-c0000.egdbu").size() ||
            std::sscanf(name.c_str(), "unit-%1d%1d%1d%1d-a%3d-c%4d.egdb%c", &nbm, &nbk, &nwm, &nwk, &advancement, &chunk, &tail) != 7 ||
            tail != 'u') {
            continue;
        }
        const SliceId id{nbm, nbk, nwm, nwk};
        const auto slice = std::find_if(slices_.begin(), slices_.end(), [&](const Slice& x) { return x.id == id; });
        if (slice == slices_.end()) continue;  // not part of this build
        bool used = false;
        if (!slice->finished) {
            for (const Level& level : slice->levels) {
                if (level.advancement == advancement && static_cast<std::size_t>(chunk) < level.chunks.size()) used = true;
            }
        }
        if (!used) std::filesystem::remove(entry.path(), ec);
    }
}

bool Scheduler::inputs_ready(const Slice& s) const {
    return std::all_of(s.reads.begin(), s.reads.end(), [&](std::size_t k) { return slices_[k].finished; });
}

std::optional<Task> Scheduler::next(std::optional<SliceId> affinity) {
    // A slice ready to be written comes first, then its parts: slices that read it wait for it.
    for (Slice& s : slices_) {
        if (!s.finished && s.write == State::Waiting && s.levels_done == s.levels.size() && s.parts_done == s.parts.size()) {
            s.write = State::InFlight;
            ++in_flight_;
            return Task{TaskKind::WriteSlice, s.id, 0, 0};
        }
    }
    for (Slice& s : slices_) {
        if (s.finished || s.levels_done != s.levels.size()) continue;
        while (s.first_waiting_part < s.parts.size() && s.parts[s.first_waiting_part] != State::Waiting) ++s.first_waiting_part;
        if (s.first_waiting_part < s.parts.size()) {
            s.parts[s.first_waiting_part] = State::InFlight;
            ++in_flight_;
            return Task{TaskKind::EncodePart, s.id, 0, static_cast<int>(s.first_waiting_part)};
        }
    }
    Slice* best_slice = nullptr;
    Level* best_level = nullptr;
    std::size_t best_chunk = 0;
    std::uint64_t best_positions = 0;
    bool best_affine = false;
    for (Slice& s : slices_) {
        if (s.finished || !inputs_ready(s)) continue;
        const bool affine = affinity && *affinity == s.id;
        if (best_affine && !affine) continue;
        for (Level& level : s.levels) {
            if (level.above >= 0) {
                const Level& above = s.levels[static_cast<std::size_t>(level.above)];
                if (above.chunks_done != above.chunks.size()) continue;
            }
            while (level.first_waiting < level.chunks.size() && level.chunks[level.first_waiting].state != State::Waiting) {
                ++level.first_waiting;
            }
            if (level.first_waiting == level.chunks.size()) continue;
            // The chunks of a level are the same size but for the last: its first waiting one
            // stands for the level.
            const std::size_t c = level.first_waiting;
            const std::uint64_t positions = level.chunks[c].count * s.block_size;
            if ((affine && !best_affine) || positions > best_positions) {
                best_slice = &s;
                best_level = &level;
                best_chunk = c;
                best_positions = positions;
                best_affine = affine;
            }
        }
    }
    if (best_slice == nullptr) return std::nullopt;
    best_level->chunks[best_chunk].state = State::InFlight;
    ++in_flight_;
    return Task{TaskKind::SolveUnit, best_slice->id, best_level->advancement, static_cast<int>(best_chunk)};
}

Scheduler::Chunk* Scheduler::find_chunk(const Task& task) {
    for (Slice& s : slices_) {
        if (s.id != task.slice) continue;
        for (Level& level : s.levels) {
            if (level.advancement == task.advancement && task.chunk >= 0 &&
                static_cast<std::size_t>(task.chunk) < level.chunks.size()) {
                return &level.chunks[static_cast<std::size_t>(task.chunk)];
            }
        }
    }
    return nullptr;
}

void Scheduler::done(const Task& task) {
    const auto slice = std::find_if(slices_.begin(), slices_.end(), [&](const Slice& s) { return s.id == task.slice; });
    if (slice == slices_.end()) throw InvalidArgumentError("task " + to_string(task) + " is not part of the build");
    if (task.kind == TaskKind::EncodePart) {
        if (task.chunk < 0 || static_cast<std::size_t>(task.chunk) >= slice->parts.size() ||
            slice->parts[static_cast<std::size_t>(task.chunk)] != State::InFlight) {
            throw InternalError(to_string(task) + " was not handed out");
        }
        slice->parts[static_cast<std::size_t>(task.chunk)] = State::Done;
        ++slice->parts_done;
        --in_flight_;
        return;
    }
    if (task.kind == TaskKind::WriteSlice) {
        if (slice->write != State::InFlight) throw InternalError(to_string(task) + " was not handed out");
        slice->write = State::Done;
        slice->finished = true;
        --slices_left_;
        --in_flight_;
        return;
    }
    Chunk* chunk = find_chunk(task);
    if (chunk == nullptr || chunk->state != State::InFlight) throw InternalError(to_string(task) + " was not handed out");
    chunk->state = State::Done;
    --in_flight_;
    positions_done_ += chunk->count * slice->block_size;
    for (Level& level : slice->levels) {
        if (level.advancement == task.advancement && ++level.chunks_done == level.chunks.size()) ++slice->levels_done;
    }
}

// --- UnitWorker -----------------------------------------------------------------------------

// What a worker keeps between tasks: the slices units read (restored from their files, kept
// across slices while they fit: files never change once written), the files of the directory as
// last opened, and for the current slice its levels and the level above the one it solved last.
struct UnitWorker::Context {
    SolutionStore store;
    std::unique_ptr<native::NativeDatabase> files;
    native::StoreThenFiles lookup{store, nullptr};
    std::optional<SliceId> slice;
    std::vector<MenLevel> levels;
    std::vector<SliceId> successors;
    std::optional<SolvedLevel> above;
    // For EncodePart: the levels of the slice whose parts it encodes and its unit files, opened
    // once (opening checks the configurations' checksum) for all the parts it is given.
    std::vector<MenLevel> part_levels;
    std::optional<native::UnitRangeReader> part_units;
};

UnitWorker::UnitWorker(DistributedRequest request) : request_(std::move(request)) {}
UnitWorker::~UnitWorker() = default;

std::uint64_t UnitWorker::decoded_bytes() const noexcept { return context_ ? context_->store.memory_bytes() : 0; }

namespace {

// Level `advancement` of `s` from its chunks' files, as one SolvedLevel.
SolvedLevel read_level(const std::filesystem::path& out, SliceId s, const std::vector<MenLevel>& levels,
                       const std::vector<SliceId>& successors, int advancement, std::uint64_t chunk_positions) {
    const MenLevel& l = find_level(levels, s, advancement);
    SolvedLevel whole(s, advancement, l.configurations);
    const native::UnitInputs inputs = unit_inputs(levels, successors, advancement);
    const std::uint64_t b = whole.block_size();
    int chunk = 0;
    for (const auto& [first, count] : level_chunks(l.configurations.size(), b, chunk_positions)) {
        const native::UnitFileReader part(native::unit_chunk_path(out, s, advancement, chunk++), s, advancement, chunk_span(l, first, count), inputs);
        part.read_slots(0, count, [&, first = first](std::uint64_t slot, const native::UnitFileReader::Block& block) {
            for (const Color side : {Color::Black, Color::White}) {
                const auto k = static_cast<std::size_t>(side);
                std::copy_n(block.dtw[k].begin(), b, whole.block_dtw_codes(first + slot, side).begin());
                std::copy_n(block.mtc[k].begin(), b, whole.block_mtc(first + slot, side).begin());
                copy_bits(block.captures[k], whole.capture_bits(side), (first + slot) * b);
            }
        });
        // The chunk's wide positions, keyed by chunk offset, at their level offsets.
        for (const Color side : {Color::Black, Color::White}) {
            for (const auto& [offset, d] : part.wide(side)) whole.wide(side).set(first * b + offset, d);
        }
    }
    return whole;
}

}  // namespace

void UnitWorker::prepare_inputs(Context& c, SliceId slice) {
    // The files written by other workers since the last slice are seen by opening the
    // directory again. A slice that reads no other (0101) needs none, and there may be none.
    const std::uint64_t budget = request_.worker.memory_bytes;
    const std::size_t cache = budget == 0 ? std::size_t{64} << 20 : DecodedSlicePlan::cache_bytes(budget);
    c.lookup.set_files(nullptr);
    c.files.reset();
    if (c.successors.empty()) return;
    const auto restore = [&](SliceId t, SideSet sides) {
        c.store.add(native::restore_solved_slice(native::SliceFileReader(native::slice_file_path(request_.out, t)), c.lookup,
                                                 request_.worker.thread_count(), nullptr, sides));
    };
    if (budget == 0) {
        c.files = std::make_unique<native::NativeDatabase>(request_.out, native::NativeOpenOptions{cache});
        c.lookup.set_files(c.files.get());
        // Every slice read, for the sides to move it is read at (successor_reads), smaller slices
        // first (build order), so that restoring one reads those before it from memory.
        const std::vector<SuccessorRead> reads = successor_reads(slice);
        for (SliceId t : request_.order) {
            const auto r = std::find_if(reads.begin(), reads.end(), [&](const SuccessorRead& x) { return x.slice == t; });
            if (r == reads.end() || answers_every_side_read(c.store, *r)) continue;
            if (c.store.find(t) != nullptr) c.store.remove(t);
            restore(t, r->sides);
        }
        return;
    }
    // Under a budget, the plan of the single-process build (DecodedSlicePlan): the process
    // measured with no files open, the unit's own need (its slice solved in units), the slices it
    // does not read dropped first, then those it reads, and those it reads restored while they fit;
    // the rest is read through the files.
    DecodedSlicePlan plan(budget, cache, [&](SliceId t) -> std::uint64_t {
        std::error_code ec;
        const std::uintmax_t bytes = std::filesystem::file_size(native::slice_file_path(request_.out, t), ec);
        return ec ? 0 : bytes;
    });
    if (request_.assumed_process_bytes) plan.assume(*request_.assumed_process_bytes);
    plan.measure(resident_memory_bytes(), c.store, 0);
    const std::uint64_t step = native::solve_need_bytes(slice, true, request_.worker.thread_count(), part_positions(request_, slice));
    const std::vector<SliceId> held = c.store.slices();
    c.files = std::make_unique<native::NativeDatabase>(request_.out, native::NativeOpenOptions{cache});
    c.lookup.set_files(c.files.get());
    plan.make_room(c.store, slice, step, held, [](SliceId) { return true; }, restore);
    c.files->release_resident_pages();
}

TaskOutcome UnitWorker::run(const Task& task) {
    const auto start = Clock::now();
    TaskOutcome outcome;
    if (task.kind == TaskKind::EncodePart) {
        outcome = encode_part(task);
    } else if (task.kind == TaskKind::WriteSlice) {
        outcome = assemble(task);
    } else {
        const std::filesystem::path& out = request_.out;
        if (!context_) context_ = std::make_unique<Context>();
        Context& c = *context_;
        if (c.slice != task.slice) {
            c.slice.reset();
            c.levels = men_configuration_levels(task.slice);
            c.successors = successor_slices(task.slice);
            c.above.reset();
            prepare_inputs(c, task.slice);
            c.slice = task.slice;  // only once its inputs are in place
        }
        const MenLevel& l = find_level(c.levels, task.slice, task.advancement);
        const auto chunks = level_chunks(l.configurations.size(), block_size_of(task.slice), request_.chunk_positions);
        if (task.chunk < 0 || static_cast<std::size_t>(task.chunk) >= chunks.size()) {
            throw InvalidArgumentError("task " + to_string(task) + ": no such chunk");
        }
        const native::UnitInputs inputs = unit_inputs(c.levels, c.successors, task.advancement);
        if (inputs.level_read < 0) {
            c.above.reset();
        } else if (!c.above || c.above->advancement() != inputs.level_read) {
            c.above.reset();
            c.above.emplace(read_level(out, task.slice, c.levels, c.successors, inputs.level_read, request_.chunk_positions));
        }
        const auto [first, count] = chunks[static_cast<std::size_t>(task.chunk)];
        const SolvedLevel level = SliceSolver(task.slice, c.lookup, {request_.worker.thread_count()})
                                      .solve_level(task.advancement, chunk_configurations(l, first, count),
                                                   c.above ? &*c.above : nullptr);
        outcome.bytes = native::write_unit_file(native::unit_chunk_path(out, task.slice, task.advancement, task.chunk), level, inputs);
    }
    outcome.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return outcome;
}

TaskOutcome UnitWorker::encode_part(const Task& task) {
    const SliceId s = task.slice;
    const std::filesystem::path& out = request_.out;
    const std::uint64_t per_part = part_positions(request_, s);
    if (task.chunk < 0 || static_cast<std::uint64_t>(task.chunk) >= part_count(request_, s)) {
        throw InvalidArgumentError("task " + to_string(task) + ": no such part");
    }
    const std::uint64_t first = static_cast<std::uint64_t>(task.chunk) * per_part;
    const std::uint64_t count = std::min(per_part, slice_size(s) - first);
    if (!context_) context_ = std::make_unique<Context>();
    Context& c = *context_;
    if (!c.part_units || c.part_units->slice() != s) {
        c.part_units.reset();
        c.part_levels = men_configuration_levels(s);
        const std::vector<SliceId> successors = successor_slices(s);
        std::vector<native::UnitSource> units;
        for (const MenLevel& l : c.part_levels) {
            const native::UnitInputs inputs = unit_inputs(c.part_levels, successors, l.advancement);
            int chunk = 0;
            for (const auto& [chunk_first, chunk_count] : level_chunks(l.configurations.size(), block_size_of(s), request_.chunk_positions)) {
                units.push_back({l.advancement, chunk_span(l, chunk_first, chunk_count), native::unit_chunk_path(out, s, l.advancement, chunk++), inputs});
            }
        }
        c.part_units.emplace(s, std::move(units));
    }
    TaskOutcome outcome;
    outcome.bytes = native::encode_part_from_units(*c.part_units, native::slice_part_path(out, s, task.chunk), task.chunk, first, count,
                                                   request_.write.kinds, request_.write.format, request_.worker.thread_count());
    return outcome;
}

TaskOutcome UnitWorker::assemble(const Task& task) {
    const SliceId s = task.slice;
    if (context_ && context_->part_units && context_->part_units->slice() == s) context_->part_units.reset();
    const std::filesystem::path& out = request_.out;
    std::vector<std::filesystem::path> parts;
    for (std::size_t p = 0; p < part_count(request_, s); ++p) parts.push_back(native::slice_part_path(out, s, static_cast<int>(p)));
    TaskOutcome outcome;
    outcome.bytes = native::assemble_slice_file(out, s, parts);
    // The slice file is complete: its units and parts are no longer needed.
    native::remove_unit_files(out, s);
    return outcome;
}

// --- Messages and the two loops ---------------------------------------------------------------

std::array<std::int64_t, kMessageWords> encode(const Message& m) noexcept {
    return {static_cast<std::int64_t>(m.kind),
            static_cast<std::int64_t>(m.task.kind),
            static_cast<std::int64_t>(m.task.slice.nbm * 1000 + m.task.slice.nbk * 100 + m.task.slice.nwm * 10 + m.task.slice.nwk),
            m.task.advancement,
            m.task.chunk,
            static_cast<std::int64_t>(m.outcome.bytes),
            static_cast<std::int64_t>(m.outcome.seconds * 1e6),
            0,
            0x45474442};  // "EGDB": a word from another program is not taken for a message
}

Message decode(std::span<const std::int64_t, kMessageWords> w) {
    const bool kind_ok = w[0] >= static_cast<std::int64_t>(MessageKind::Task) && w[0] <= static_cast<std::int64_t>(MessageKind::Stop);
    const bool task_ok = w[1] >= static_cast<std::int64_t>(TaskKind::SolveUnit) && w[1] <= static_cast<std::int64_t>(TaskKind::EncodePart);
    if (!kind_ok || !task_ok || w[2] < 0 || w[2] > 9999 || w[5] < 0 || w[8] != 0x45474442) {
        throw InvalidArgumentError("a message that is not an egdb build message");
    }
    const auto digit = [&](int place) { return static_cast<int>((w[2] / place) % 10); };
    Message m;
    m.kind = static_cast<MessageKind>(w[0]);
    m.task = Task{static_cast<TaskKind>(w[1]), SliceId{digit(1000), digit(100), digit(10), digit(1)}, static_cast<int>(w[3]),
                  static_cast<int>(w[4])};
    m.outcome = TaskOutcome{static_cast<std::uint64_t>(w[5]), static_cast<double>(w[6]) / 1e6};
    return m;
}

void run_coordinator(Scheduler& scheduler, Transport& transport, const CoordinatorObserver& observer,
                     std::chrono::microseconds poll_interval) {
    const int ranks = transport.size();
    if (ranks < 2) throw RuntimeError(ErrorKind::InvalidArgument, "a distributed build needs at least 2 ranks (1 coordinator, 1 worker)");
    std::vector<std::optional<Task>> assigned(static_cast<std::size_t>(ranks));
    std::vector<std::optional<SliceId>> last_slice(static_cast<std::size_t>(ranks));
    std::optional<std::string> failure;
    bool cancelled = false;
    const auto stop_all = [&] {
        for (int r = 1; r < ranks; ++r) transport.send(r, Message{MessageKind::Stop, {}, {}});
    };
    while (true) {
        if (!failure && !cancelled && observer.keep_going && !observer.keep_going()) cancelled = true;
        // Hand out what is ready to every idle worker.
        if (!failure && !cancelled) {
            for (int r = 1; r < ranks; ++r) {
                auto& slot = assigned[static_cast<std::size_t>(r)];
                if (slot) continue;
                slot = scheduler.next(last_slice[static_cast<std::size_t>(r)]);
                if (slot) transport.send(r, Message{MessageKind::Task, *slot, {}});
            }
        }
        const bool busy = std::any_of(assigned.begin(), assigned.end(), [](const auto& t) { return t.has_value(); });
        if (!busy) {
            if (scheduler.finished() || failure || cancelled) break;
            stop_all();
            throw InternalError("distributed build: nothing ready and nothing in flight, but slices are left");
        }
        auto received = transport.try_receive();
        if (!received) {
            std::this_thread::sleep_for(poll_interval);
            continue;
        }
        const auto [rank, message] = *received;
        if (rank <= 0 || rank >= ranks || !assigned[static_cast<std::size_t>(rank)] ||
            !(*assigned[static_cast<std::size_t>(rank)] == message.task)) {
            stop_all();
            throw InternalError("distributed build: rank " + std::to_string(rank) + " reported " + to_string(message.task) +
                                   ", which it was not given");
        }
        assigned[static_cast<std::size_t>(rank)].reset();
        if (message.kind == MessageKind::Done) {
            scheduler.done(message.task);
            last_slice[static_cast<std::size_t>(rank)] =
                message.task.kind == TaskKind::SolveUnit ? std::optional<SliceId>(message.task.slice) : std::nullopt;
            if (observer.on_done) observer.on_done(rank, message.task, message.outcome);
        } else if (!failure) {
            failure = "rank " + std::to_string(rank) + " failed at " + to_string(message.task) +
                      " (its error is in its output); run the same command again to resume";
        }
    }
    stop_all();
    if (failure) throw RuntimeError(ErrorKind::Io, *failure);
    if (cancelled) throw RuntimeError(ErrorKind::Cancelled, "distributed build stopped; run it again to resume");
    scheduler.finish();
}

void run_worker(UnitWorker& worker, Transport& transport, const std::function<void(const std::string&)>& on_error,
                std::chrono::microseconds poll_interval) {
    while (true) {
        auto received = transport.try_receive();
        if (!received) {
            std::this_thread::sleep_for(poll_interval);
            continue;
        }
        const Message& message = received->second;
        if (message.kind == MessageKind::Stop) return;
        if (message.kind != MessageKind::Task) continue;
        try {
            const TaskOutcome outcome = worker.run(message.task);
            transport.send(0, Message{MessageKind::Done, message.task, outcome});
        } catch (const std::exception& e) {
            if (on_error) on_error(to_string(message.task) + ": " + e.what());
            transport.send(0, Message{MessageKind::Failed, message.task, {}});
        }
    }
}

}  // namespace egdb::workflow::distributed
