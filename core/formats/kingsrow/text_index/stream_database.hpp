// The lookup engine shared by the text-indexed formats: a StreamTable, the memory plan of 12.2
// (autoloaded files with checkpoints computed at open, the rest through one PageCache of 4096-byte
// blocks), and the block decoder that starts from the nearest checkpoint (block_checkpoints.hpp). A Codec supplies only
// what its bytes mean:
//
//   BlockCoding coding_of(const IndexRecord&, std::size_t block, std::string_view file) const;
//   std::uint32_t positions(BlockCoding, std::uint8_t code) const noexcept;  // >= 1
//   int value(BlockCoding, std::uint8_t code, std::uint32_t offset) const noexcept;
//
// Thread safety: after construction everything is read-only except the PageCache, which is
// thread-safe; lookups may run concurrently from any number of threads.
#pragma once

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/cache/page_cache.hpp"
#include "core/formats/kingsrow/text_index/block_checkpoints.hpp"
#include "core/formats/kingsrow/text_index/lookup_front_end.hpp"
#include "core/formats/kingsrow/directory/autoload_plan.hpp"
#include "core/formats/kingsrow/text_index/stream_table.hpp"
#include "core/util/prefetch.hpp"
#include "core/util/resident_buffer.hpp"

namespace egdb::kingsrow {

template <class Codec>
class StreamDatabase {
public:
    StreamDatabase(const std::filesystem::path& directory, DbType type, int max_pieces, Codec codec,
                   const KingsrowOpenOptions& options)
        : codec_(std::move(codec)),
          table_(directory, type, max_pieces,
                 [this](const IndexRecord& r, std::size_t k, std::string_view file) { return codec_.coding_of(r, k, file); },
                 options.messages),
          missing_(missing_values_of(type)) {
        const AutoloadPlan plan = plan_autoload(table_, type, options);
        // Autoloaded files are copied into resident memory (resident_buffer.hpp says why) and get
        // their checkpoints now; the others are read through the mapping into the cache.
        file_bytes_.resize(table_.files().size());
        std::uint64_t pinned_blocks = 0;
        for (std::uint32_t f = 0; f < table_.files().size(); ++f) {
            TableFile& file = table_.files()[f];
            file.autoloaded = plan.autoloaded[f];
            file_bytes_[f] = file.data.bytes().data();
            if (!file.autoloaded) continue;
            ResidentBuffer& copy = resident_files_.emplace_back(file.data.size());
            std::memcpy(copy.data(), file.data.bytes().data(), file.data.size());
            file_bytes_[f] = copy.data();
        }
        pinned_base_.assign(table_.streams().size(), kNotPinned);
        for (std::size_t s = 0; s < table_.streams().size(); ++s) {
            const Stream& stream = table_.streams()[s];
            if (!plan.autoloaded[stream.file]) continue;
            pinned_base_[s] = pinned_blocks;
            pinned_blocks += stream.blocks;
        }
        pinned_ = ResidentBuffer(pinned_blocks * block_checkpoints::kBytes);
        for (std::size_t s = 0; s < table_.streams().size(); ++s) {
            if (pinned_base_[s] == kNotPinned) continue;
            const Stream& stream = table_.streams()[s];
            for (std::uint32_t k = 0; k < stream.blocks; ++k) build_checkpoints(stream, k, pinned_checkpoints(s, k));
        }
        preload_ = options.preload;
        if (options.shared_cache != nullptr) {
            owner_base_ = options.shared_cache->join({.owners = table_.streams().size(),
                                                      .page_bytes = kCachedBlockBytes,
                                                      .all_pages_bytes = plan.all_blocks_bytes,
                                                      .held_outside = plan.held_bytes,
                                                      .minimum_bytes = AutoloadPlan::kMinimumCacheBytes});
            load_order_ = plan.load_order;
            return;
        }
        constexpr std::size_t kMinimumCache = 64 * kCachedBlockBytes;
        cache_ = std::make_shared<PageCache>(std::max<std::size_t>(plan.cache_bytes, kMinimumCache), kCachedBlockBytes);
        load_order_ = plan.load_order;
        if (preload_) preload();
    }

    // The handle's cache, made after this database joined it (KingsrowOpenOptions::shared_cache); the
    // preload of 12.2 item 5 runs now, into what the databases attached before left free.
    void attach_cache(std::shared_ptr<PageCache> cache) {
        cache_ = std::move(cache);
        if (preload_) preload();
    }

    const StreamTable& table() const noexcept { return table_; }
    const Codec& codec() const noexcept { return codec_; }
    const MissingValues& missing() const noexcept { return missing_; }
    PageCacheStats cache_stats() const { return cache_->stats(); }

    // The integer code of 3.3 / the format's decoder. Throws CorruptDataError when a block read
    // through the cache contradicts its index (autoloaded files are checked at open).
    int lookup(const Position& p, Color side, Conditional conditional) const {
        const Located at = locate_block(p, side);
        if (at.answered) return at.value;
        return decode(at.stream, at.block, at.x, conditional);
    }

    // lookup(positions[i], sides[i], Conditional::No) into out[i], for every i. The lookups run
    // as a pipeline: while one is decoded, the checkpoints and then the code bytes of the next
    // ones are already requested, so a batch of random positions waits for memory about once per
    // several lookups instead of at least once per lookup.
    void lookup_many(std::span<const Position> positions, std::span<const Color> sides, std::span<int> out) const {
        constexpr std::size_t kLag = 8;    // lookups between two stages of one lookup
        constexpr std::size_t kRing = 32;  // >= 2 * kLag + 1 lookups in flight
        struct Pending {
            Located at;
            const std::byte* checkpoints = nullptr;  // autoloaded block; nullptr: through the cache
            block_checkpoints::DecodeStart start;
        };
        std::array<Pending, kRing> ring{};
        const std::size_t n = std::min({positions.size(), sides.size(), out.size()});
        for (std::size_t i = 0; i < n + 2 * kLag; ++i) {
            if (i < n) {  // the block; request its checkpoints
                Pending& q = ring[i % kRing];
                q.at = locate_block(positions[i], sides[i]);
                q.checkpoints = nullptr;
                if (!q.at.answered && pinned_base_[q.at.stream] != kNotPinned) {
                    q.checkpoints = pinned_checkpoints(q.at.stream, q.at.block);
                    for (std::size_t line = 0; line < block_checkpoints::kBytes; line += 64) {
                        prefetch_for_read(q.checkpoints + line);
                    }
                }
            }
            if (i >= kLag && i - kLag < n) {  // the start; request the code bytes it scans
                Pending& q = ring[(i - kLag) % kRing];
                if (q.checkpoints != nullptr) {
                    q.start = block_checkpoints::find_start(q.checkpoints, q.at.x);
                    const std::byte* codes = block_bytes(table_.streams()[q.at.stream], q.at.block).data() + q.start.byte;
                    prefetch_for_read(codes);
                    prefetch_for_read(codes + block_checkpoints::kStepBytes - 1);
                }
            }
            if (i >= 2 * kLag) {
                const std::size_t j = i - 2 * kLag;
                const Pending& q = ring[j % kRing];
                if (q.at.answered) {
                    out[j] = q.at.value;
                } else if (q.checkpoints != nullptr) {
                    const Stream& s = table_.streams()[q.at.stream];
                    out[j] = decode_from(s, q.at.block, block_bytes(s, q.at.block), q.start, q.at.x);
                } else {
                    out[j] = decode(q.at.stream, q.at.block, q.at.x, Conditional::No);
                }
            }
        }
    }

private:
    static constexpr std::size_t kNotPinned = static_cast<std::size_t>(-1);

    // Where a lookup reads: its answer when it needs no data, else block `block` of a stream and
    // the local index `x` in the stream's subslice.
    struct Located {
        bool answered = false;
        int value = 0;
        std::uint32_t stream = 0;
        std::uint32_t block = 0;
        std::uint32_t x = 0;
    };

    Located locate_block(const Position& p, Color side) const noexcept {
        const LookupTarget t = locate(p, side, missing_);
        if (t.resolved) return {true, t.value};
        const StreamTable::Lookup found = table_.find(t.slice, t.side_to_move);
        if (found.presence == Presence::ColorAbsent) return {true, missing_.color_absent};
        if (found.presence == Presence::BothAbsent) return {true, missing_.both_absent};
        if (t.subslice >= found.subslices.size()) return {true, missing_.subslice_absent};
        const SubsliceEntry& entry = found.subslices[t.subslice];
        if (entry.value >= 0) return {true, entry.value};
        if (entry.stream == SubsliceEntry::kNoStream) return {true, missing_.subslice_absent};
        const Stream& s = table_.streams()[entry.stream];
        return {false, 0, entry.stream, table_.block_of(s, t.local), t.local};
    }

    // The checkpoints of block k (block_checkpoints.hpp). Throws when the block does not decode to
    // the positions its index promises.
    void build_checkpoints(const Stream& s, std::uint32_t k, std::byte* checkpoints) const {
        const TableFile& file = table_.files()[s.file];
        const auto bytes = block_bytes(s, k);
        const BlockCoding coding = table_.block_codings()[s.first_block + k];
        const std::uint64_t first = table_.block_starts()[s.first_block + k];
        const std::uint64_t n = block_checkpoints::build(
            bytes, first, [&](std::uint8_t code) { return codec_.positions(coding, code); }, checkpoints);
        const bool last = k + 1 == s.blocks;
        const std::uint64_t expected = last ? s.subslice_size : table_.block_starts()[s.first_block + k + 1];
        if (last ? n < expected : n != expected) {
            throw CorruptDataError(file.data_path.string() + ": block " + std::to_string(k) + " of slice " +
                                       s.slice.to_string() + " subslice " + std::to_string(s.subslice) + " side " +
                                       (s.side_to_move == Color::Black ? "b" : "w") + " decodes up to position " +
                                       std::to_string(n) + " but the index says " + std::to_string(expected) +
                                       " (damaged data or index file)");
        }
    }

    // Decodes local index x of a block given its bytes and checkpoints (never reads past either).
    int decode_in_block(const Stream& s, std::uint32_t k, std::span<const std::byte> bytes,
                        const std::byte* checkpoints, std::uint32_t x) const noexcept {
        return decode_from(s, k, bytes, block_checkpoints::find_start(checkpoints, x), x);
    }

    // Decodes local index x from a start of its block's checkpoints at or before x.
    int decode_from(const Stream& s, std::uint32_t k, std::span<const std::byte> bytes,
                    block_checkpoints::DecodeStart start, std::uint32_t x) const noexcept {
        const BlockCoding coding = table_.block_codings()[s.first_block + k];
        std::uint64_t n = start.index;
        for (std::size_t i = start.byte; i < bytes.size(); ++i) {
            const auto code = static_cast<std::uint8_t>(bytes[i]);
            const std::uint32_t length = codec_.positions(coding, code);
            if (n + length > x) return codec_.value(coding, code, static_cast<std::uint32_t>(x - n));
            n += length;
        }
        return missing_.subslice_absent;  // unreachable for checked blocks
    }

    int decode(std::uint32_t stream_number, std::uint32_t k, std::uint32_t x, Conditional conditional) const {
        const Stream& s = table_.streams()[stream_number];
        if (pinned_base_[stream_number] != kNotPinned) {
            return decode_in_block(s, k, block_bytes(s, k), pinned_checkpoints(stream_number, k), x);
        }
        const auto read = [&](std::span<const std::byte> page) {
            return decode_in_block(s, k, page.subspan(block_checkpoints::kBytes), page.data(), x);
        };
        const PageKey key{owner_base_ + stream_number, k};
        if (conditional == Conditional::Yes) {
            const std::optional<int> cached = cache_->access_if_cached(key, read);
            return cached ? *cached : missing_.not_in_cache;
        }
        return cache_->access(key, [&](std::vector<std::byte>& page) { load_block(s, k, page); }, read);
    }

    // A cache page: the block's checkpoints, then its bytes.
    void load_block(const Stream& s, std::uint32_t k, std::vector<std::byte>& page) const {
        const auto bytes = block_bytes(s, k);
        page.resize(block_checkpoints::kBytes + bytes.size());
        build_checkpoints(s, k, page.data());
        std::memcpy(page.data() + block_checkpoints::kBytes, bytes.data(), bytes.size());
    }

    // 12.2 item 5: fill the cache with blocks of the other files in the autoload order, up to
    // nine tenths of its capacity (counting what other databases of a shared cache hold), so
    // that preloading never evicts what it loaded.
    void preload() {
        for (const std::uint32_t f : load_order_) {
            if (table_.files()[f].autoloaded) continue;
            for (std::uint32_t n = 0; n < table_.streams().size(); ++n) {
                const Stream& s = table_.streams()[n];
                if (s.file != f) continue;
                for (std::uint32_t k = 0; k < s.blocks; ++k) {
                    if ((cache_->held_bytes() + kCachedBlockBytes) * 10 > cache_->capacity_bytes() * 9) return;
                    cache_->access(PageKey{owner_base_ + n, k}, [&](std::vector<std::byte>& page) { load_block(s, k, page); },
                                   [](std::span<const std::byte>) { return 0; });
                }
            }
        }
    }

    Codec codec_;
    StreamTable table_;
    MissingValues missing_;
    std::span<const std::byte> block_bytes(const Stream& s, std::uint32_t k) const noexcept {
        const std::uint64_t begin = table_.block_begin(s, k);
        return {file_bytes_[s.file] + begin, static_cast<std::size_t>(table_.block_end(s, k) - begin)};
    }
    // kBytes is a whole number of cache lines and the buffer is page-aligned, so a block's
    // checkpoints are four whole lines.
    std::byte* pinned_checkpoints(std::size_t stream, std::uint32_t k) const noexcept {
        return const_cast<std::byte*>(pinned_.data()) + (pinned_base_[stream] + k) * block_checkpoints::kBytes;
    }

    std::vector<ResidentBuffer> resident_files_;  // copies of the autoloaded files
    std::vector<const std::byte*> file_bytes_;    // by file: its resident copy, else its mapping
    ResidentBuffer pinned_;                       // checkpoints of the autoloaded files' blocks
    std::vector<std::size_t> pinned_base_;        // by stream: its block 0 in pinned_, or kNotPinned
    std::shared_ptr<PageCache> cache_;
    std::uint64_t owner_base_ = 0;                // page-cache owner id of stream 0
    std::vector<std::uint32_t> load_order_;       // AutoloadPlan::load_order, for preload
    bool preload_ = false;
};

}  // namespace egdb::kingsrow
