#include "core/formats/kingsrow/dtw/dtw_database.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "core/formats/kingsrow/directory/file_set.hpp"
#include "core/formats/kingsrow/dtw/dtw_index_record.hpp"

namespace egdb::kingsrow {

struct DtwDatabase::DataFile {
    std::filesystem::path index_path;
    MappedFile data;
    std::uint64_t cache_owner = 0;
};

namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
    throw CorruptDataError(path.string() + ": " + what);
}

}  // namespace

std::size_t DtwDatabase::table_slot(SliceId s, Color side_to_move) noexcept {
    const auto n = [](int count) { return static_cast<std::size_t>(count); };
    return (((n(s.nbm) * kCounts + n(s.nbk)) * kCounts + n(s.nwm)) * kCounts + n(s.nwk)) * 2 +
           static_cast<std::size_t>(side_to_move);
}

DtwDatabase::DtwDatabase(const std::filesystem::path& directory, const DtwOpenOptions& options) {
    table_of_.fill(static_cast<std::uint16_t>(kNoTable));
    const int limit = options.max_pieces > 0 ? std::min(options.max_pieces, kDtwMaxPieces) : kDtwMaxPieces;
    const FormatTraits& traits = traits_of(DbType::Dtw);
    const std::vector<DbFile> names = database_files(DbType::Dtw, limit);
    const auto exists = [&](const std::string& name) {
        std::error_code ec;
        return std::filesystem::exists(directory / name, ec);
    };

    // The piece count of the database: the largest with any file present (upstream identifies
    // it from the files it finds, 12.4).
    for (const DbFile& f : names) {
        if (exists(f.index_name(traits)) || exists(f.data_name(traits))) max_pieces_ = std::max(max_pieces_, f.pieces);
    }
    if (max_pieces_ == 0) {
        throw RuntimeError(ErrorKind::NoDatabase, directory.string() + ": no EGDB_DTW database here (no db<n>" +
                             std::string(traits.index_extension) + " / db<n>" + std::string(traits.data_extension) +
                             " files of 2 to " + std::to_string(limit) + " pieces)");
    }
    for (const DbFile& f : names) {
        if (f.pieces > max_pieces_) break;
        const std::filesystem::path index_path = directory / f.index_name(traits);
        const std::filesystem::path data_path = directory / f.data_name(traits);
        const bool has_index = exists(f.index_name(traits));
        const bool has_data = exists(f.data_name(traits));
        if (!has_index && !has_data && !f.per_piece_count) continue;  // per-slice file not present
        if (!has_index) fail(index_path, "missing (the database has " + std::to_string(max_pieces_) + " pieces)");
        if (!has_data) fail(data_path, "missing (the database has " + std::to_string(max_pieces_) + " pieces)");
        open_file(index_path, data_path, f.pieces, f.slices);
    }

    if (options.shared_cache != nullptr) {
        std::uint64_t all_blocks_bytes = 0;
        for (const auto& f : files_) all_blocks_bytes += (f->data.size() + kDtwBlockBytes - 1) / kDtwBlockBytes * kDtwBlockBytes;
        const std::uint64_t first_owner = options.shared_cache->join(
            {.owners = files_.size(), .page_bytes = kDtwBlockBytes, .all_pages_bytes = all_blocks_bytes});
        for (auto& f : files_) f->cache_owner += first_owner;
    } else if (options.cache_bytes != 0) {
        cache_ = std::make_shared<PageCache>(options.cache_bytes, kDtwBlockBytes);
    }

    // A (slice, colour) whose subslices are all missing cannot happen (a record creates the
    // table), but a table may lack some subslices; those read as unavailable (see the header).
}

DtwDatabase::~DtwDatabase() = default;

void DtwDatabase::open_file(const std::filesystem::path& index_path, const std::filesystem::path& data_path,
                            int pieces, const std::vector<SliceId>& allowed_slices) {
    auto file = std::make_unique<DataFile>();
    file->index_path = index_path;
    file->data = MappedFile(data_path);
    file->cache_owner = files_.size();
    const MappedFile index(index_path);
    const std::vector<DtwIndexRecord> records = parse_dtw_index(index.bytes(), index_path.string());
    const std::uint64_t data_miniblocks = file->data.size() / kDtwMiniblockBytes;

    for (std::size_t r = 0; r < records.size(); ++r) {
        const DtwIndexRecord& record = records[r];
        const std::string where = "record " + std::to_string(r) + " (" + record.describe() + "): ";
        if (record.slice.total() != pieces ||
            std::find(allowed_slices.begin(), allowed_slices.end(), record.slice) == allowed_slices.end()) {
            fail(index_path, where + "this file holds only canonical slices of " +
                                 (allowed_slices.size() == 1 ? "material " + allowed_slices.front().to_string()
                                                             : std::to_string(pieces) + " pieces"));
        }
        const std::uint64_t size = slice_size(record.slice);
        const std::uint64_t subslices = subslice_count(size, kSubsliceSizeDtw);
        if (record.subslice >= subslices) {
            fail(index_path, where + "the slice has only " + std::to_string(subslices) + " subslices");
        }
        if (record.first_global_miniblock() + record.miniblock_positions.size() > data_miniblocks) {
            fail(index_path, where + "its miniblocks end at byte " +
                                 std::to_string((record.first_global_miniblock() + record.miniblock_positions.size()) *
                                                kDtwMiniblockBytes) +
                                 ", past the end of " + data_path.string() + " (" +
                                 std::to_string(file->data.size()) + " bytes; truncated?)");
        }

        const std::size_t slot = table_slot(record.slice, record.side_to_move);
        if (table_of_[slot] == kNoTable) {
            table_of_[slot] = static_cast<std::uint16_t>(tables_.size());
            Table table;
            table.indexer = &slice_indexer(record.slice);
            table.file = file.get();
            table.subslices.resize(static_cast<std::size_t>(subslices));
            tables_.push_back(std::move(table));
        }
        Table& table = tables_[table_of_[slot]];
        if (table.file != file.get()) fail(index_path, where + "the slice is also in another file");
        std::optional<DtwSubslice>& subslice = table.subslices[record.subslice];
        if (subslice) fail(index_path, where + "duplicate record");
        try {
            subslice.emplace(record, subslice_length(size, kSubsliceSizeDtw, record.subslice));
        } catch (const std::invalid_argument& e) {
            fail(index_path, where + e.what());
        }
    }
    files_.push_back(std::move(file));
}

int DtwDatabase::max_pieces_one_side() const noexcept { return std::min(kMaxPiecesPerSide, max_pieces_ - 1); }

int DtwDatabase::lookup(const Position& position, Color side_to_move, Conditional conditional) const {
    const Material m = material_of(position);
    if (m.black() == 0 || m.white() == 0) return 0;
    if (m.total() > max_pieces_ || m.black() > kMaxPiecesPerSide || m.white() > kMaxPiecesPerSide) {
        return kDtwSubdbUnavailable;
    }
    const LookupKey key = lookup_key(position, side_to_move);
    const std::uint16_t t = table_of_[table_slot(key.slice, key.side_to_move)];
    if (t == kNoTable) return kDtwSubdbUnavailable;
    const Table& table = tables_[t];
    const SubsliceIndex at = split_index(table.indexer->index_of(key.position), kSubsliceSizeDtw);
    const std::optional<DtwSubslice>& subslice = table.subslices[at.subslice];
    if (!subslice) return kDtwSubdbUnavailable;
    return read_value(table, *subslice, at.local, conditional == Conditional::Yes);
}

int DtwDatabase::read_value(const Table& table, const DtwSubslice& subslice, std::uint32_t local,
                            bool conditional) const {
    const DtwSubslice::Location where = subslice.locate(local);
    const std::span<const std::byte> data = table.file->data.bytes();
    MiniblockWords words;
    if (!cache_) {
        words.load(data.subspan(where.global_miniblock * kDtwMiniblockBytes, kDtwMiniblockBytes));
    } else {
        const PageKey key{table.file->cache_owner, where.global_miniblock / kDtwMiniblocksPerBlock};
        const std::size_t slot_offset = (where.global_miniblock % kDtwMiniblocksPerBlock) * kDtwMiniblockBytes;
        // Copy the miniblock out under the shard lock and decode after, so the lock is held only
        // for a 512-byte copy.
        const auto copy = [&](std::span<const std::byte> block) {
            words.load(block.subspan(slot_offset, kDtwMiniblockBytes));
            return true;
        };
        if (conditional) {
            if (!cache_->access_if_cached(key, copy)) return kDtwNotInCache;
        } else {
            const auto load = [&](std::vector<std::byte>& block) {
                // The last block of a file may be short; the index was checked to end inside
                // the file, so the zero padding is never decoded.
                const std::size_t start = static_cast<std::size_t>(key.page) * kDtwBlockBytes;
                const std::size_t n = std::min(kDtwBlockBytes, data.size() - start);
                block.assign(kDtwBlockBytes, std::byte{0});
                std::memcpy(block.data(), data.data() + start, n);
            };
            cache_->access(key, load, copy);
        }
    }
    const int value = subslice.value_at(words, where.offset);
    if (value < 0) {
        throw CorruptDataError(table.file->data.path().string() + ": the data of slice " + table.indexer->slice().to_string() +
                             " does not decode at miniblock " + std::to_string(where.global_miniblock) +
                             " (corrupt data file)");
    }
    return value;
}

bool DtwDatabase::contains(SliceId slice, Color side_to_move) const noexcept {
    if (!is_indexable(slice)) return false;
    return table_of_[table_slot(slice, side_to_move)] != kNoTable;
}

std::vector<std::filesystem::path> DtwDatabase::files() const {
    std::vector<std::filesystem::path> paths;
    for (const auto& f : files_) paths.push_back(f->index_path);
    return paths;
}

PageCacheStats DtwDatabase::cache_stats() const { return cache_ ? cache_->stats() : PageCacheStats{}; }

}  // namespace egdb::kingsrow
