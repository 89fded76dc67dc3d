#include "core/workflow/build_engine.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <system_error>
#include <thread>

#include "core/build/build_directory.hpp"
#include "core/build/slice_memory.hpp"
#include "core/build/store_then_files.hpp"
#include "core/build/unit_chunks.hpp"
#include "core/build/unit_file.hpp"
#include "core/build/unit_range_reader.hpp"
#include "core/formats/native/native_database.hpp"
#include "core/formats/native/native_layout.hpp"
#include "core/formats/native/slice_file_reader.hpp"
#include "core/formats/native/slice_part_file.hpp"
#include "core/generate/build_driver.hpp"
#include "core/generate/decoded_slice_plan.hpp"
#include "core/generate/solution_store.hpp"
#include "core/util/error.hpp"
#include "core/util/peak_memory.hpp"
#include "core/util/stopwatch.hpp"

namespace egdb::workflow::engine {
namespace {

using Clock = std::chrono::steady_clock;
using native::block_size_of;
using native::level_chunks;
using native::unit_inputs;

std::span<const std::uint64_t> chunk_span(const MenLevel& level, std::size_t first, std::size_t count) {
    return std::span(level.configurations).subspan(first, count);
}

const MenLevel& find_level(const std::vector<MenLevel>& levels, SliceId s, int advancement) {
    const auto it = std::find_if(levels.begin(), levels.end(), [&](const MenLevel& l) { return l.advancement == advancement; });
    if (it == levels.end()) throw InvalidArgumentError("slice " + s.to_string() + " has no level " + std::to_string(advancement));
    return *it;
}

bool slice_file_exists(const std::filesystem::path& out, SliceId s) {
    std::error_code ec;
    return std::filesystem::exists(native::slice_file_path(out, s), ec);
}

}  // namespace

std::string to_string(const Task& task) {
    if (task.kind == TaskKind::SolveSlice) return "slice " + task.slice.to_string();
    if (task.kind == TaskKind::WriteSlice) return "write " + task.slice.to_string();
    if (task.kind == TaskKind::EncodePart) return "part " + task.slice.to_string() + " p" + std::to_string(task.chunk);
    return "unit " + task.slice.to_string() + " a" + std::to_string(task.advancement) + " c" + std::to_string(task.chunk);
}

std::uint64_t part_positions(const EngineRequest& request, SliceId slice) {
    const std::uint64_t n = slice_size(slice);
    const std::uint64_t wanted = request.part_positions > 0 ? request.part_positions : request.chunk_positions;
    if (wanted == 0) return n;
    const std::uint64_t alignment = native::page_run_alignment(request.write.format);
    return std::min(n, (wanted + alignment - 1) / alignment * alignment);
}

std::size_t part_count(const EngineRequest& request, SliceId slice) {
    const std::uint64_t per_part = part_positions(request, slice);
    return static_cast<std::size_t>((slice_size(slice) + per_part - 1) / per_part);
}

// --- Scheduler ------------------------------------------------------------------------------

Scheduler::Scheduler(const EngineRequest& request, std::function<void(const std::string&)> on_warning)
    : directory_(request.out, on_warning), warn_(std::move(on_warning)), in_order_(request.in_order) {
    const auto warn = [&](const std::string& text) {
        if (warn_) warn_(text);
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
            if (k >= 0) {
                s.reads.push_back(static_cast<std::size_t>(k));
                slices_[static_cast<std::size_t>(k)].readers.push_back(slices_.size());
            }
        }
        s.block_size = block_size_of(id);
        positions_total_ += slice_size(id);
        s.finished = directory_.finished(id);
        s.whole = slice_size(id) < request.whole_slice_below;
        // Planned from the level sizes; the configurations are listed only to check the unit files
        // of a slice that has some (a 7-piece slice may have 1.6e9 of them).
        const std::vector<MenLevelSize> sizes = s.whole ? std::vector<MenLevelSize>{} : men_level_sizes(id);
        const std::vector<MenLevel> listed =
            !s.whole && !s.finished && native::has_unit_files(request.out, id) ? men_configuration_levels(id) : std::vector<MenLevel>{};
        for (std::size_t k = 0; k < sizes.size(); ++k) {
            const MenLevelSize& l = sizes[k];
            Level level;
            level.advancement = l.advancement;
            for (const auto& [first, count] : level_chunks(l.configurations, s.block_size, request.chunk_positions)) {
                Chunk c{first, count, State::Waiting};
                ++units_total_;
                const int chunk = static_cast<int>(level.chunks.size());
                const std::filesystem::path unit = native::unit_chunk_path(request.out, id, l.advancement, chunk);
                if (s.finished) {
                    c.state = State::Done;
                } else if (!listed.empty() && std::filesystem::exists(unit, ec)) {
                    try {
                        native::UnitFileReader(unit, id, l.advancement, chunk_span(listed[k], first, count),
                                               unit_inputs(listed, successors, l.advancement))
                            .verify();
                        c.state = State::Done;
                        ++units_resumed_;
                        positions_done_ += count * s.block_size;
                        resumed_units_.push_back({Task{TaskKind::SolveUnit, id, l.advancement, chunk}, count * s.block_size,
                                                  std::filesystem::file_size(unit, ec)});
                        s.all_checked = false;
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
        if (!s.whole) s.parts.assign(part_count(request, id), s.finished ? State::Done : State::Waiting);
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
            s.solve = State::Done;
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
        return native::solve_need_bytes(s, slice_size(s) >= request.whole_slice_below, request.worker.thread_count(),
                                        part_positions(request, s), request.chunk_positions);
    });
    if (largest_unit_) native::refuse_beyond_machine(*largest_unit_, request.assumed_machine_bytes.value_or(physical_memory_bytes()));
    if (request.check_in_build) {
        try {
            journal_.emplace(request.out / native::kBuildVerifyJournalName);
            identities_.emplace(request.out);
            journal_kinds_ = native::journal_kinds(request.write.kinds.dtw, request.write.kinds.mtc);
        } catch (const std::exception& e) {
            // The closing verification reports the damaged journal; the build goes on.
            warn(std::string(e.what()) + "; slices are checked after the build only");
            journal_.reset();
        }
    }
}

bool Scheduler::read_by_unfinished(const Slice& s) const {
    return std::any_of(s.readers.begin(), s.readers.end(), [&](std::size_t k) { return !slices_[k].finished; });
}

void Scheduler::remove_stale_chunks(const std::filesystem::path& out) const {
    // Chunk and part files no task of this build will read: those whose number does not exist
    // with the chunk size of this run, parts of finished slices (a worker killed after writing the
    // slice file, before removing them), and units of finished slices that no slice left reads.
    // Units of another run's cutting that a slice left reads are found out when they are restored.
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
        const bool chunk_name = name.size() == std::string_view("unit-0000-a000-c0000.egdbu").size() &&
                                std::sscanf(name.c_str(), "unit-%1d%1d%1d%1d-a%3d-c%4d.egdb%c", &nbm, &nbk, &nwm, &nwk, &advancement,
                                            &chunk, &tail) == 7 &&
                                tail == 'u';
        if (!chunk_name) continue;
        const SliceId id{nbm, nbk, nwm, nwk};
        const auto slice = std::find_if(slices_.begin(), slices_.end(), [&](const Slice& x) { return x.id == id; });
        if (slice == slices_.end()) continue;  // not part of this build
        bool used = slice->finished && read_by_unfinished(*slice);
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

bool Scheduler::finished(SliceId slice) const {
    const auto it = std::find_if(slices_.begin(), slices_.end(), [&](const Slice& s) { return s.id == slice; });
    return it != slices_.end() && it->finished;
}

std::optional<Task> Scheduler::next(std::optional<SliceId> affinity) {
    // A slice ready to be written comes first, then its parts: slices that read it wait for it.
    for (Slice& s : slices_) {
        if (!s.finished && !s.whole && s.write == State::Waiting && s.levels_done == s.levels.size() &&
            s.parts_done == s.parts.size()) {
            s.write = State::InFlight;
            ++in_flight_;
            return Task{TaskKind::WriteSlice, s.id, 0, 0};
        }
    }
    for (Slice& s : slices_) {
        if (s.finished || s.whole || s.levels_done != s.levels.size()) continue;
        while (s.first_waiting_part < s.parts.size() && s.parts[s.first_waiting_part] != State::Waiting) ++s.first_waiting_part;
        if (s.first_waiting_part < s.parts.size()) {
            s.parts[s.first_waiting_part] = State::InFlight;
            ++in_flight_;
            return Task{TaskKind::EncodePart, s.id, 0, static_cast<int>(s.first_waiting_part)};
        }
    }
    return next_solve(affinity);
}

std::optional<Task> Scheduler::next_solve(std::optional<SliceId> affinity) {
    Slice* best_slice = nullptr;
    Level* best_level = nullptr;
    std::size_t best_chunk = 0;
    std::uint64_t best_positions = 0;
    bool best_affine = false;
    for (Slice& s : slices_) {
        if (s.finished || !inputs_ready(s)) continue;
        const bool affine = affinity && *affinity == s.id;
        if (best_affine && !affine) continue;
        if (s.whole) {
            if (s.solve == State::Waiting && ((affine && !best_affine) || slice_size(s.id) > best_positions)) {
                best_slice = &s;
                best_level = nullptr;
                best_positions = slice_size(s.id);
                best_affine = affine;
            }
        }
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
        // In order, the first slice with something ready is the one (its largest ready unit).
        if (in_order_ && best_slice != nullptr) break;
    }
    if (best_slice == nullptr) return std::nullopt;
    ++in_flight_;
    if (best_level == nullptr) {
        best_slice->solve = State::InFlight;
        return Task{TaskKind::SolveSlice, best_slice->id, 0, 0};
    }
    best_level->chunks[best_chunk].state = State::InFlight;
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

void Scheduler::done(const Task& task, const TaskOutcome& outcome) {
    const auto slice = std::find_if(slices_.begin(), slices_.end(), [&](const Slice& s) { return s.id == task.slice; });
    if (slice == slices_.end()) throw InvalidArgumentError("task " + to_string(task) + " is not part of the build");
    const auto not_handed_out = [&] { return InternalError(to_string(task) + " was not handed out"); };
    slice->checks.seconds += outcome.seconds;
    if (task.kind == TaskKind::EncodePart) {
        if (task.chunk < 0 || static_cast<std::size_t>(task.chunk) >= slice->parts.size() ||
            slice->parts[static_cast<std::size_t>(task.chunk)] != State::InFlight) {
            throw not_handed_out();
        }
        slice->parts[static_cast<std::size_t>(task.chunk)] = State::Done;
        ++slice->parts_done;
        --in_flight_;
        return;
    }
    if (task.kind == TaskKind::WriteSlice) {
        if (slice->write != State::InFlight) throw not_handed_out();
        slice->write = State::Done;
        --in_flight_;
        slice_finished(*slice);
        return;
    }
    // A solving task: its checks count for the slice.
    slice->all_checked = slice->all_checked && outcome.checked && outcome.mismatches == 0;
    slice->checks.positions_checked += outcome.positions_checked;
    slice->checks.positions_mirrored += outcome.positions_mirrored;
    slice->checks.mismatches += outcome.mismatches;
    slice->checks.check_seconds += outcome.check_seconds;
    if (task.kind == TaskKind::SolveSlice) {
        if (!slice->whole || slice->solve != State::InFlight) throw not_handed_out();
        slice->solve = State::Done;
        --in_flight_;
        positions_done_ += slice_size(slice->id);
        slice_finished(*slice);
        return;
    }
    Chunk* chunk = find_chunk(task);
    if (chunk == nullptr || chunk->state != State::InFlight) throw not_handed_out();
    chunk->state = State::Done;
    --in_flight_;
    positions_done_ += chunk->count * slice->block_size;
    for (Level& level : slice->levels) {
        if (level.advancement == task.advancement && ++level.chunks_done == level.chunks.size()) ++slice->levels_done;
    }
}

void Scheduler::slice_finished(Slice& s) {
    s.finished = true;
    --slices_left_;
    if (s.checks.mismatches > 0 && warn_) {
        warn_("slice " + s.id.to_string() + ": " + std::to_string(s.checks.mismatches) + " positions disagree with their successors");
    }
    check_seconds_ += s.checks.check_seconds;
    record_checked(s);
    // Unit files are kept while a slice left reads theirs: this slice's, and those of the slices
    // it read, which may have had their last reader now.
    if (!read_by_unfinished(s)) native::remove_unit_files(directory_.out(), s.id);
    for (const std::size_t k : s.reads) {
        if (slices_[k].finished && !read_by_unfinished(slices_[k])) native::remove_unit_files(directory_.out(), slices_[k].id);
    }
}

void Scheduler::record_checked(const Slice& s) {
    if (!journal_) return;
    if (!s.all_checked) {
        journal_->forget(s.id);
        return;
    }
    // The slice was checked against the files its moves reach as they are now (written before
    // it): the entry names them by their digest.
    identities_->forget(s.id);
    const std::optional<native::SliceFileIdentity> own = identities_->of(s.id);
    if (!own) throw FileError("slice file " + native::slice_file_path(directory_.out(), s.id).string() + " vanished after it was written");
    const std::uint64_t stored = slice_size(s.id) * (is_color_symmetric(s.id) ? 1 : 2);
    journal_->record({s.id, own->bytes, own->crc, journal_kinds_, stored, s.checks.seconds,
                      identities_->successors_digest(successor_slices(s.id))});
    ++slices_checked_;
    positions_checked_ += s.checks.positions_checked;
    positions_mirrored_ += s.checks.positions_mirrored;
}

// --- UnitWorker -----------------------------------------------------------------------------

// What a worker keeps between tasks: the slices units read (kept across slices while a slice
// left reads them, and under a budget while they fit: files never change once written), the
// files of the directory as last opened, and for the current slice its levels and the level
// above the one it solves next.
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
    // The successors of every slice of the order (who reads whom).
    std::vector<std::vector<SliceId>> reads_of_order;
};

UnitWorker::UnitWorker(EngineRequest request, WorkerObserver observer)
    : request_(std::move(request)), observer_(std::move(observer)) {}
UnitWorker::~UnitWorker() = default;

std::uint64_t UnitWorker::decoded_bytes() const noexcept { return context_ ? context_->store.memory_bytes() : 0; }

std::uint64_t UnitWorker::kept_level_bytes() const noexcept {
    return context_ && context_->above ? context_->above->memory_bytes() : 0;
}

UnitWorker::Context& UnitWorker::context() {
    if (!context_) {
        context_ = std::make_unique<Context>();
        for (const SliceId s : request_.order) context_->reads_of_order.push_back(successor_slices(s));
    }
    return *context_;
}

void UnitWorker::release_unread(Context& c) {
    // A slice held is dropped once every slice of the order that reads it has its file, and kept
    // for the sides to move those left read it at. A slice being solved has no file yet.
    for (const SliceId t : c.store.slices()) {
        std::vector<SliceId> readers_left;
        for (std::size_t i = 0; i < request_.order.size(); ++i) {
            const auto& reads = c.reads_of_order[i];
            if (std::find(reads.begin(), reads.end(), t) != reads.end() && !slice_file_exists(request_.out, request_.order[i])) {
                readers_left.push_back(request_.order[i]);
            }
        }
        if (readers_left.empty()) {
            c.store.remove(t);
        } else {
            c.store.keep_sides(t, sides_read_by(t, readers_left));
        }
    }
}

SolvedSlice UnitWorker::restore(Context& c, SliceId t, SideSet sides, SliceId reader) {
    const auto start = Clock::now();
    bool from_units = native::has_unit_files(request_.out, t);
    SolvedSlice restored = native::restore_finished_slice(request_.out, t, c.lookup, sides, request_.worker.thread_count(),
                                                          request_.chunk_positions, from_units, observer_.on_warning);
    if (observer_.on_restored) observer_.on_restored(t, sides, from_units, reader, seconds_since(start));
    return restored;
}

void UnitWorker::prepare_inputs(Context& c, SliceId slice) {
    // The files written by other workers since the last slice are seen by opening the
    // directory again. A slice that reads no other (0101) needs none, and there may be none.
    const std::uint64_t budget = request_.worker.memory_bytes;
    const std::size_t cache = budget == 0 ? std::size_t{64} << 20 : DecodedSlicePlan::cache_bytes(budget);
    c.lookup.set_files(nullptr);
    c.files.reset();
    release_unread(c);
    if (c.successors.empty()) return;
    const auto open_files = [&] {
        c.files = std::make_unique<native::NativeDatabase>(request_.out, native::NativeOpenOptions{cache});
        c.lookup.set_files(c.files.get());
    };
    const auto bring_back = [&](SliceId t, SideSet sides) { c.store.add(restore(c, t, sides, slice)); };
    const std::vector<SuccessorRead> reads = successor_reads(slice);
    if (budget == 0) {
        if (std::all_of(reads.begin(), reads.end(), [&](const SuccessorRead& r) { return answers_every_side_read(c.store, r); })) return;
        // Restoring from a slice file reads its successors for its "don't care" positions.
        open_files();
        // Every slice read, for the sides to move it is read at (successor_reads), smaller slices
        // first (build order), so that restoring one reads those before it from memory.
        for (SliceId t : request_.order) {
            const auto r = std::find_if(reads.begin(), reads.end(), [&](const SuccessorRead& x) { return x.slice == t; });
            if (r == reads.end() || answers_every_side_read(c.store, *r)) continue;
            if (c.store.find(t) != nullptr) c.store.remove(t);
            bring_back(t, r->sides);
        }
        return;
    }
    // Under a budget, the plan of DecodedSlicePlan: the process measured with no files open, the
    // slice's own need (solve_need_bytes), the slices it does not read dropped first, then those
    // it reads, and those it reads restored while they fit; the rest is read through the files.
    DecodedSlicePlan plan(budget, cache, [&](SliceId t) -> std::uint64_t {
        std::error_code ec;
        const std::uintmax_t bytes = std::filesystem::file_size(native::slice_file_path(request_.out, t), ec);
        return ec ? 0 : bytes;
    });
    if (request_.assumed_process_bytes) plan.assume(*request_.assumed_process_bytes);
    plan.measure(resident_memory_bytes(), c.store, 0);
    const std::uint64_t step = native::solve_need_bytes(slice, slice_size(slice) >= request_.whole_slice_below,
                                                        request_.worker.thread_count(), part_positions(request_, slice),
                                                        request_.chunk_positions);
    const std::vector<SliceId> held = c.store.slices();
    open_files();
    const std::uint64_t need = plan.make_room(c.store, slice, step, held, [](SliceId) { return true; }, bring_back);
    if (need > budget && observer_.on_warning) {
        observer_.on_warning("slice " + slice.to_string() + " needs " + std::to_string(need >> 20) +
                             " MiB, more than the memory budget of " + std::to_string(budget >> 20) + " MiB");
    }
    c.files->release_resident_pages();
    // Nothing read through the files: they are not kept open.
    if (std::all_of(reads.begin(), reads.end(), [&](const SuccessorRead& r) { return answers_every_side_read(c.store, r); })) {
        c.lookup.set_files(nullptr);
        c.files.reset();
    }
}

void UnitWorker::enter_slice(Context& c, SliceId slice) {
    if (c.slice == slice) return;
    c.slice.reset();
    c.above.reset();
    // A slice solved whole lists its levels in the solver; only units need them here.
    c.levels = slice_size(slice) >= request_.whole_slice_below ? men_configuration_levels(slice) : std::vector<MenLevel>{};
    c.successors = successor_slices(slice);
    prepare_inputs(c, slice);
    c.slice = slice;  // only once its inputs are in place
}

void UnitWorker::report_checks(const Task& task, const LevelChecks& checks, TaskOutcome& outcome) const {
    if (!request_.check_in_build) return;
    // Checked means every level the task solved was checked (a level of a chunk counts once).
    outcome.checked = checks.levels_checked > 0 && checks.levels_not_checked == 0;
    outcome.positions_checked = checks.result.positions;
    outcome.positions_mirrored = checks.positions_mirrored;
    outcome.mismatches = checks.result.mismatches;
    outcome.check_seconds = checks.seconds;
    if (checks.result.mismatches > 0 && observer_.on_warning) {
        std::string text = to_string(task) + ": " + std::to_string(checks.result.mismatches) + " positions disagree with their successors";
        for (const std::string& m : checks.result.messages) text += "\n  " + m;
        observer_.on_warning(text);
    }
}

TaskOutcome UnitWorker::run(const Task& task) {
    const auto start = Clock::now();
    TaskOutcome outcome = task.kind == TaskKind::EncodePart   ? encode_part(task)
                          : task.kind == TaskKind::WriteSlice ? assemble(task)
                          : task.kind == TaskKind::SolveSlice ? solve_slice(task)
                                                              : solve_unit(task);
    outcome.seconds = seconds_since(start);
    peak_decoded_bytes_ = std::max(peak_decoded_bytes_, decoded_bytes());
    return outcome;
}

TaskOutcome UnitWorker::solve_slice(const Task& task) {
    const SliceId s = task.slice;
    Context& c = context();
    enter_slice(c, s);
    LevelChecks checks;
    SolveOptions options{request_.worker.thread_count(), request_.narrow_limit};
    if (request_.check_in_build) options.checks = &checks;
    SolvedSlice solved = SliceSolver(s, c.lookup, options).solve();
    const auto written_at = Clock::now();
    const native::WrittenSlice w = native::write_solved_slice(request_.out, solved, request_.write);
    TaskOutcome outcome;
    outcome.bytes = w.file_bytes;
    outcome.wld_bytes = w.wld_bytes;
    outcome.write_seconds = seconds_since(written_at);
    report_checks(task, checks, outcome);
    // Kept for the slices that read it, at the sides they read (release_unread).
    c.store.add(std::move(solved));
    peak_decoded_bytes_ = std::max(peak_decoded_bytes_, decoded_bytes());
    release_unread(c);
    return outcome;
}

TaskOutcome UnitWorker::solve_unit(const Task& task) {
    Context& c = context();
    enter_slice(c, task.slice);
    const MenLevel& l = find_level(c.levels, task.slice, task.advancement);
    const auto chunks = level_chunks(l.configurations.size(), block_size_of(task.slice), request_.chunk_positions);
    if (task.chunk < 0 || static_cast<std::size_t>(task.chunk) >= chunks.size()) {
        throw InvalidArgumentError("task " + to_string(task) + ": no such chunk");
    }
    const native::UnitInputs inputs = unit_inputs(c.levels, c.successors, task.advancement);
    const auto [first, count] = chunks[static_cast<std::size_t>(task.chunk)];
    if (inputs.level_read < 0) {
        c.above.reset();
    } else if (chunks.size() > 1) {
        // A chunk reads only the blocks of the level above that its men's moves reach, so that
        // its memory follows the chunk size, not the size of the level above.
        c.above.reset();
        const std::vector<std::uint64_t> reached = configurations_reached(task.slice, chunk_span(l, first, count));
        c.above.emplace(native::read_unit_level(request_.out, task.slice, c.levels, inputs.level_read, request_.chunk_positions, reached));
    } else if (!c.above || c.above->advancement() != inputs.level_read) {
        c.above.reset();
        c.above.emplace(native::read_unit_level(request_.out, task.slice, c.levels, inputs.level_read, request_.chunk_positions));
    }
    LevelChecks checks;
    SolveOptions options{request_.worker.thread_count(), request_.narrow_limit};
    if (request_.check_in_build) options.checks = &checks;
    SolvedLevel level = SliceSolver(task.slice, c.lookup, options)
                            .solve_level(task.advancement, {l.configurations.begin() + static_cast<std::ptrdiff_t>(first),
                                                            l.configurations.begin() + static_cast<std::ptrdiff_t>(first + count)},
                                         c.above ? &*c.above : nullptr);
    native::create_unit_folder(request_.out);
    TaskOutcome outcome;
    outcome.bytes = native::write_unit_file(native::unit_chunk_path(request_.out, task.slice, task.advancement, task.chunk), level,
                                            inputs, {.threads = request_.worker.thread_count()});
    report_checks(task, checks, outcome);
    // A whole level is the level above of the next level down, when there is one: kept rather
    // than read back. A chunk's partial level above is of no use to another chunk, and the last
    // level of a slice (the only one of a slice without men: 8.4 GB at 0502) to nothing.
    c.above.reset();
    const bool read_below = std::any_of(c.levels.begin(), c.levels.end(), [&](const MenLevel& m) { return m.advancement == task.advancement - 1; });
    if (chunks.size() == 1 && read_below) c.above.emplace(std::move(level));
    return outcome;
}

TaskOutcome UnitWorker::encode_part(const Task& task) {
    const SliceId s = task.slice;
    const std::uint64_t per_part = part_positions(request_, s);
    if (task.chunk < 0 || static_cast<std::uint64_t>(task.chunk) >= part_count(request_, s)) {
        throw InvalidArgumentError("task " + to_string(task) + ": no such part");
    }
    const std::uint64_t first = static_cast<std::uint64_t>(task.chunk) * per_part;
    const std::uint64_t count = std::min(per_part, slice_size(s) - first);
    Context& c = context();
    // Every level of the slice is solved: a level kept for the next one down is of no use now.
    if (c.above && c.above->slice() == s) c.above.reset();
    if (!c.part_units || c.part_units->slice() != s) {
        c.part_units.reset();
        c.part_levels = men_configuration_levels(s);
        c.part_units.emplace(s, native::chunk_sources(request_.out, s, c.part_levels, request_.chunk_positions));
    }
    native::create_unit_folder(request_.out);
    native::WriteOptions format = request_.write.format;
    format.threads = request_.worker.thread_count();  // the part's pages are compressed on every thread
    TaskOutcome outcome;
    outcome.bytes = native::encode_part_from_units(*c.part_units, native::slice_part_path(request_.out, s, task.chunk), task.chunk, first,
                                                   count, request_.write.kinds, format, format.threads);
    return outcome;
}

TaskOutcome UnitWorker::assemble(const Task& task) {
    const SliceId s = task.slice;
    if (context_ && context_->part_units && context_->part_units->slice() == s) context_->part_units.reset();
    std::vector<std::filesystem::path> parts;
    for (std::size_t p = 0; p < part_count(request_, s); ++p) parts.push_back(native::slice_part_path(request_.out, s, static_cast<int>(p)));
    native::WrittenSlice written;
    written.file_bytes = native::assemble_slice_file(request_.out, s, parts);
    native::add_section_bytes(native::SliceFileReader(native::slice_file_path(request_.out, s)), written);
    // The slice file is complete: its parts are no longer needed (its units are removed by the
    // scheduler once no slice left reads it).
    for (const std::filesystem::path& p : parts) {
        std::error_code ec;
        std::filesystem::remove(p, ec);
    }
    TaskOutcome outcome;
    outcome.bytes = written.file_bytes;
    outcome.wld_bytes = written.wld_bytes;
    return outcome;
}

// --- Messages and the two loops ---------------------------------------------------------------

namespace {

constexpr std::int64_t kMessageMark = 0x45474442;  // "EGDB": a word from another program is not taken for a message

std::int64_t micros(double seconds) noexcept { return static_cast<std::int64_t>(seconds * 1e6); }

}  // namespace

std::array<std::int64_t, kMessageWords> encode(const Message& m) noexcept {
    const TaskOutcome& o = m.outcome;
    return {static_cast<std::int64_t>(m.kind),
            static_cast<std::int64_t>(m.task.kind),
            static_cast<std::int64_t>(m.task.slice.nbm * 1000 + m.task.slice.nbk * 100 + m.task.slice.nwm * 10 + m.task.slice.nwk),
            m.task.advancement,
            m.task.chunk,
            static_cast<std::int64_t>(o.bytes),
            static_cast<std::int64_t>(o.wld_bytes),
            micros(o.seconds),
            micros(o.write_seconds),
            o.checked ? 1 : 0,
            static_cast<std::int64_t>(o.positions_checked),
            static_cast<std::int64_t>(o.positions_mirrored),
            static_cast<std::int64_t>(o.mismatches),
            micros(o.check_seconds),
            kMessageMark};
}

Message decode(std::span<const std::int64_t, kMessageWords> w) {
    const bool kind_ok = w[0] >= static_cast<std::int64_t>(MessageKind::Task) && w[0] <= static_cast<std::int64_t>(MessageKind::Stop);
    const bool task_ok = w[1] >= static_cast<std::int64_t>(TaskKind::SolveUnit) && w[1] <= static_cast<std::int64_t>(TaskKind::SolveSlice);
    const bool counts_ok = std::all_of(w.begin() + 5, w.begin() + 14, [](std::int64_t x) { return x >= 0; }) && w[9] <= 1;
    if (!kind_ok || !task_ok || w[2] < 0 || w[2] > 9999 || !counts_ok || w[14] != kMessageMark) {
        throw InvalidArgumentError("a message that is not an egdb build message");
    }
    const auto digit = [&](int place) { return static_cast<int>((w[2] / place) % 10); };
    const auto seconds = [](std::int64_t us) { return static_cast<double>(us) / 1e6; };
    Message m;
    m.kind = static_cast<MessageKind>(w[0]);
    m.task = Task{static_cast<TaskKind>(w[1]), SliceId{digit(1000), digit(100), digit(10), digit(1)}, static_cast<int>(w[3]),
                  static_cast<int>(w[4])};
    TaskOutcome& o = m.outcome;
    o.bytes = static_cast<std::uint64_t>(w[5]);
    o.wld_bytes = static_cast<std::uint64_t>(w[6]);
    o.seconds = seconds(w[7]);
    o.write_seconds = seconds(w[8]);
    o.checked = w[9] == 1;
    o.positions_checked = static_cast<std::uint64_t>(w[10]);
    o.positions_mirrored = static_cast<std::uint64_t>(w[11]);
    o.mismatches = static_cast<std::uint64_t>(w[12]);
    o.check_seconds = seconds(w[13]);
    return m;
}

namespace {

enum class CoordinationEnd : std::uint8_t { Finished, Failed, Cancelled };

// The coordinator's loop: hands out what is ready to every idle worker and takes what they report
// until the build is finished, a worker failed (`failure` says which) or it was cancelled, and
// nothing is in flight. Throws InternalError for a report of a task nobody was given.
CoordinationEnd coordinate(Scheduler& scheduler, Transport& transport, const CoordinatorObserver& observer,
                           std::chrono::microseconds poll_interval, std::string& failure) {
    const int ranks = transport.size();
    std::vector<std::optional<Task>> assigned(static_cast<std::size_t>(ranks));
    std::vector<std::optional<SliceId>> last_slice(static_cast<std::size_t>(ranks));
    bool cancelled = false;
    while (true) {
        if (failure.empty() && !cancelled && observer.keep_going && !observer.keep_going()) cancelled = true;
        if (failure.empty() && !cancelled) {
            for (int r = 1; r < ranks; ++r) {
                auto& slot = assigned[static_cast<std::size_t>(r)];
                if (slot) continue;
                slot = scheduler.next(last_slice[static_cast<std::size_t>(r)]);
                if (slot) transport.send(r, Message{MessageKind::Task, *slot, {}});
            }
        }
        const bool busy = std::any_of(assigned.begin(), assigned.end(), [](const auto& t) { return t.has_value(); });
        if (!busy) {
            if (!failure.empty()) return CoordinationEnd::Failed;
            if (cancelled) return CoordinationEnd::Cancelled;
            if (scheduler.finished()) return CoordinationEnd::Finished;
            throw InternalError("build engine: nothing ready and nothing in flight, but slices are left");
        }
        auto received = transport.try_receive();
        if (!received) {
            transport.wait(poll_interval);
            continue;
        }
        const auto [rank, message] = *received;
        if (rank <= 0 || rank >= ranks || !assigned[static_cast<std::size_t>(rank)] ||
            !(*assigned[static_cast<std::size_t>(rank)] == message.task)) {
            throw InternalError("build engine: rank " + std::to_string(rank) + " reported " + to_string(message.task) +
                                ", which it was not given");
        }
        assigned[static_cast<std::size_t>(rank)].reset();
        if (message.kind == MessageKind::Done) {
            scheduler.done(message.task, message.outcome);
            last_slice[static_cast<std::size_t>(rank)] =
                message.task.kind == TaskKind::SolveUnit ? std::optional<SliceId>(message.task.slice) : std::nullopt;
            if (observer.on_done) observer.on_done(rank, message.task, message.outcome);
        } else if (failure.empty()) {
            failure = "rank " + std::to_string(rank) + " failed at " + to_string(message.task) +
                      " (its error is in its output); run the same command again to resume";
        }
    }
}

}  // namespace

void run_coordinator(Scheduler& scheduler, Transport& transport, const CoordinatorObserver& observer,
                     std::chrono::microseconds poll_interval) {
    if (transport.size() < 2) {
        throw RuntimeError(ErrorKind::InvalidArgument, "a build engine needs at least 2 ranks (1 coordinator, 1 worker)");
    }
    const auto stop_all = [&] {
        for (int r = 1; r < transport.size(); ++r) transport.send(r, Message{MessageKind::Stop, {}, {}});
    };
    std::string failure;
    CoordinationEnd end = CoordinationEnd::Finished;
    try {
        end = coordinate(scheduler, transport, observer, poll_interval, failure);
    } catch (...) {
        // The scheduler or the observer threw (the journal could not be written, a task nobody
        // was given): the workers must not wait for tasks that will never come.
        stop_all();
        throw;
    }
    stop_all();
    if (end == CoordinationEnd::Failed) throw RuntimeError(ErrorKind::Io, failure);
    if (end == CoordinationEnd::Cancelled) throw RuntimeError(ErrorKind::Cancelled, "build stopped; run it again to resume");
    scheduler.finish();
}

void run_worker(UnitWorker& worker, Transport& transport, const WorkerErrorHandler& on_error,
                std::chrono::microseconds poll_interval) {
    while (true) {
        auto received = transport.try_receive();
        if (!received) {
            transport.wait(poll_interval);
            continue;
        }
        const Message& message = received->second;
        if (message.kind == MessageKind::Stop) return;
        if (message.kind != MessageKind::Task) continue;
        try {
            const TaskOutcome outcome = worker.run(message.task);
            transport.send(0, Message{MessageKind::Done, message.task, outcome});
        } catch (const std::exception& e) {
            if (on_error) on_error(to_string(message.task) + ": " + e.what(), std::current_exception());
            transport.send(0, Message{MessageKind::Failed, message.task, {}});
        }
    }
}

}  // namespace egdb::workflow::engine
