#include "core/formats/native/native_database.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "core/values/one_ply_check.hpp"
#include "core/rules/movegen.hpp"
#include "core/util/directory_problem.hpp"

namespace egdb::native {

NativeDatabase::NativeDatabase(const std::filesystem::path& directory, NativeOpenOptions options)
    : directory_(directory) {
    if (const std::string problem = directory_problem(directory); !problem.empty()) {
        throw RuntimeError(ErrorKind::NoDatabase, "cannot open database directory " + directory.string() + ": " + problem);
    }
    std::uint64_t owner = 0;
    int found = 0;
    for (const auto& entry : std::filesystem::directory_iterator(directory)) {
        const std::string name = entry.path().filename().string();
        // Parsed by hand, not with std::regex: a regex compiled in several threads at once races
        // in libstdc++'s locale cache (reported by ThreadSanitizer), and it is slower.
        const std::optional<SliceId> parsed = parse_slice_file_name(name);
        if (!parsed) continue;
        auto file = std::make_unique<SliceFileReader>(entry.path());
        const SliceId named = *parsed;
        if (!(file->slice() == named) || !is_canonical(named)) {
            throw CorruptDataError(entry.path().string() + ": holds slice " + file->slice().to_string() +
                                   ", which does not match its name or is not canonical");
        }
        SliceEntry& e = slices_[slot_of(named)];
        e.indexer = std::make_unique<SliceIndexer>(named);
        e.owner_base = owner;
        owner += 8;
        e.file = std::move(file);
        ++found;
    }
    if (found == 0) {
        throw RuntimeError(ErrorKind::NoDatabase, "no egdb slice files (slice-*.egdb) in " + directory.string());
    }
    std::size_t page_bytes = 0;
    std::uint64_t all_pages_bytes = 0;
    for (const SliceEntry& e : slices_) {
        if (!e.file) continue;
        for (const SectionDescriptor& d : e.file->sections()) {
            const std::size_t bytes = packed_size(d.positions_per_page, d.value_bits);
            page_bytes = std::max(page_bytes, bytes);
            all_pages_bytes += d.page_count * bytes;
        }
    }
    if (options.shared_cache != nullptr) {
        const std::uint64_t first_owner = options.shared_cache->join({.owners = owner, .page_bytes = page_bytes, .all_pages_bytes = all_pages_bytes});
        for (SliceEntry& e : slices_) e.owner_base += first_owner;
    } else {
        cache_ = std::make_shared<PageCache>(options.cache_bytes, page_bytes);
    }
    // max_pieces: every canonical slice of each total up to it must be there with WLD.
    for (int n = 2; n <= 2 * kMaxPiecesPerSide; ++n) {
        bool complete = true;
        for (int nb = 1; nb <= kMaxPiecesPerSide && complete; ++nb) {
            const int nw = n - nb;
            if (nw < 1 || nw > kMaxPiecesPerSide) continue;
            for (int nbk = 0; nbk <= nb && complete; ++nbk) {
                for (int nwk = 0; nwk <= nw && complete; ++nwk) {
                    const SliceId s{nb - nbk, nbk, nw - nwk, nwk};
                    if (!is_canonical(s)) continue;
                    const SliceEntry* e = file_of(s);
                    complete = e != nullptr && e->file->find_section(ValueKind::Wld, Color::Black) >= 0;
                }
            }
        }
        if (!complete) break;
        max_pieces_ = n;
    }
    for (const SliceEntry& e : slices_) {
        if (e.file && e.file->find_section(ValueKind::Wld, Color::Black) >= 0) {
            held_max_pieces_ = std::max(held_max_pieces_, e.file->slice().total());
        }
    }
}

const NativeDatabase::SliceEntry* NativeDatabase::file_of(SliceId canonical) const noexcept {
    if (!is_indexable(canonical)) return nullptr;
    const SliceEntry& e = slices_[slot_of(canonical)];
    return e.file ? &e : nullptr;
}

bool NativeDatabase::has_kind(ValueKind kind) const noexcept {
    for (const SliceEntry& e : slices_) {
        if (e.file && e.file->find_section(kind, Color::Black) >= 0) return true;
    }
    return false;
}

std::vector<const SliceFileReader*> NativeDatabase::files() const {
    std::vector<const SliceFileReader*> out;
    for (const SliceEntry& e : slices_) {
        if (e.file) out.push_back(e.file.get());
    }
    return out;
}

void NativeDatabase::release_resident_pages() const noexcept {
    for (const SliceEntry& e : slices_) {
        if (e.file) e.file->release_resident_pages();
    }
}

std::uint32_t NativeDatabase::read_value(const SliceEntry& entry, int section, std::uint64_t index) const {
    const SectionDescriptor& d = entry.file->sections()[static_cast<std::size_t>(section)];
    const std::uint64_t page = index / d.positions_per_page;
    const std::uint64_t offset = index % d.positions_per_page;
    const PageKey key{entry.owner_base + static_cast<std::uint64_t>(section), page};
    auto read = [&](std::span<const std::byte> bytes) { return packed_value(bytes, d.value_bits, offset); };
    // A cached page is found without touching the page table (one cache miss fewer per probe).
    if (const auto cached = cache_->access_if_cached(key, read)) return *cached;
    const PageRef ref = entry.file->page(section, page);
    if (ref.size == 0) return ref.crc_or_value;  // constant page: no cache, no decompression
    return cache_->access(key, [&](std::vector<std::byte>& out) { entry.file->load_page(section, page, out); }, read);
}

std::optional<std::uint32_t> NativeDatabase::stored(ValueKind kind, const Position& position,
                                                    Color side_to_move) const {
    const LookupKey key = lookup_key(position, side_to_move);
    const SliceEntry* entry = file_of(key.slice);
    if (entry == nullptr) return std::nullopt;
    const int section = entry->file->find_section(kind, key.side_to_move);
    if (section < 0) return std::nullopt;
    return read_value(*entry, section, entry->indexer->index_of(key.position));
}

NativeDatabase::WldAddress NativeDatabase::wld_address(const Position& position, Color side_to_move) const {
    const LookupKey key = lookup_key(position, side_to_move);
    const SliceEntry* entry = file_of(key.slice);
    const int section = entry ? entry->file->find_section(ValueKind::Wld, key.side_to_move) : -1;
    if (section < 0) {
        throw MissingSliceError("the database in " + directory_.string() + " has no slice " + key.slice.to_string());
    }
    return {entry, section, entry->indexer->index_of(key.position)};
}

PageKey NativeDatabase::page_key(const WldAddress& a) const noexcept {
    const SectionDescriptor& d = a.entry->file->sections()[static_cast<std::size_t>(a.section)];
    return {a.entry->owner_base + static_cast<std::uint64_t>(a.section), a.index / d.positions_per_page};
}

WldValue NativeDatabase::stored_wld(const WldAddress& a) const {
    const std::uint32_t v = read_value(*a.entry, a.section, a.index);
    return v == kStoredDraw ? WldValue::Draw : v == kStoredWin ? WldValue::Win : WldValue::Loss;
}

WldValue NativeDatabase::wld(const Position& position, Color side_to_move) const {
    if (has_empty_side(position)) return empty_side_value(position, side_to_move).wld;
    if (!has_capture(position, side_to_move)) return stored_wld(wld_address(position, side_to_move));
    // The WLD half of the one-ply rule (one_ply_check.hpp): a capture is compulsory, so there is
    // at least one move.
    MoveList moves;
    generate_moves(position, side_to_move, moves);
    bool any_draw = false;
    for (const Move& m : moves) {
        const WldValue child = wld(apply_move(position, side_to_move, m), opposite(side_to_move));
        if (child == WldValue::Loss) return WldValue::Win;
        any_draw = any_draw || child == WldValue::Draw;
    }
    return any_draw ? WldValue::Draw : WldValue::Loss;
}

template <class OnStored, class OnOther>
void NativeDatabase::pipeline(std::span<const Position> positions, std::span<const Color> sides, std::size_t n,
                              OnStored&& on_stored, OnOther&& on_other) const {
    constexpr std::size_t kLag = 8;    // lookups between two stages of one lookup
    constexpr std::size_t kRing = 32;  // >= 2 * kLag + 1 lookups in flight
    struct Pending {
        bool stored = false;  // no capture, no empty side, slice held: one page read
        WldAddress address;
        PageKey key;
    };
    std::array<Pending, kRing> ring{};
    for (std::size_t i = 0; i < n + 2 * kLag; ++i) {
        if (i < n) {  // the page; request the line of its set in the cache
            Pending& q = ring[i % kRing];
            q.stored = false;
            if (!has_empty_side(positions[i]) && !has_capture(positions[i], sides[i])) {
                const LookupKey key = lookup_key(positions[i], sides[i]);
                const SliceEntry* entry = file_of(key.slice);
                const int section = entry ? entry->file->find_section(ValueKind::Wld, key.side_to_move) : -1;
                if (section >= 0) {
                    q.stored = true;
                    q.address = {entry, section, entry->indexer->index_of(key.position)};
                    q.key = page_key(q.address);
                    cache_->prefetch_set(q.key);
                }
            }
        }
        if (i >= kLag && i - kLag < n) {  // the set has arrived: request the value's line
            const Pending& q = ring[(i - kLag) % kRing];
            if (q.stored) {
                const SectionDescriptor& d = q.address.entry->file->sections()[static_cast<std::size_t>(q.address.section)];
                cache_->prefetch_page_byte(q.key, (q.address.index % d.positions_per_page) * d.value_bits / 8);
            }
        }
        if (i >= 2 * kLag) {
            const std::size_t j = i - 2 * kLag;
            const Pending& q = ring[j % kRing];
            if (q.stored) {
                on_stored(j, q.address);
            } else {
                on_other(j);
            }
        }
    }
}

void NativeDatabase::wld_many(std::span<const Position> positions, std::span<const Color> sides,
                              std::span<std::optional<WldValue>> out) const {
    pipeline(
        positions, sides, std::min({positions.size(), sides.size(), out.size()}),
        [&](std::size_t j, const WldAddress& a) { out[j] = stored_wld(a); },
        [&](std::size_t j) {
            try {
                out[j] = wld(positions[j], sides[j]);
            } catch (const MissingSliceError&) {
                out[j] = std::nullopt;
            }
        });
}

void NativeDatabase::stored_wld_many(std::span<const Position> positions, std::span<const Color> sides,
                                     std::span<std::optional<std::uint32_t>> out) const {
    pipeline(
        positions, sides, std::min({positions.size(), sides.size(), out.size()}),
        [&](std::size_t j, const WldAddress& a) { out[j] = read_value(*a.entry, a.section, a.index); },
        [&](std::size_t j) {
            out[j] = has_capture(positions[j], sides[j]) ? std::nullopt : stored(ValueKind::Wld, positions[j], sides[j]);
        });
}

PositionValue NativeDatabase::value(const Position& position, Color side_to_move) const {
    if (has_empty_side(position)) return empty_side_value(position, side_to_move);
    if (has_capture(position, side_to_move)) return value_from_successors(position, side_to_move, *this);
    const LookupKey key = lookup_key(position, side_to_move);
    const SliceEntry* entry = file_of(key.slice);
    const int wld_section = entry ? entry->file->find_section(ValueKind::Wld, key.side_to_move) : -1;
    if (wld_section < 0) {
        throw MissingSliceError("the database in " + directory_.string() + " has no slice " +
                                key.slice.to_string());
    }
    const std::uint64_t index = entry->indexer->index_of(key.position);
    const std::uint32_t wld = read_value(*entry, wld_section, index);
    if (wld == kStoredDraw) return {WldValue::Draw, 0, 0};
    PositionValue v{wld == kStoredWin ? WldValue::Win : WldValue::Loss, 0, 0};
    if (const int s = entry->file->find_section(ValueKind::Dtw, key.side_to_move); s >= 0) {
        v.dtw = static_cast<Plies>(read_value(*entry, s, index));
    }
    if (const int s = entry->file->find_section(ValueKind::Mtc, key.side_to_move); s >= 0) {
        v.mtc = static_cast<Plies>(read_value(*entry, s, index));
    }
    return v;
}

}  // namespace egdb::native
