// The lookup engine shared by the text-indexed formats: a StreamTable, the memory plan of 12.2
// (autoloaded files with checkpoints computed at open, the rest through one PageCache of 4096-byte
// blocks), and the block decoder with a checkpoint every 64 bytes (4.4, 17). A Codec supplies only
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
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/cache/page_cache.hpp"
#include "core/formats/kingsrow/lookup_front_end.hpp"
#include "core/formats/kingsrow/memory_plan.hpp"
#include "core/formats/kingsrow/stream_table.hpp"

namespace egdb::kingsrow {

template <class Codec>
class StreamDatabase {
public:
    StreamDatabase(const std::filesystem::path& directory, DbType type, int max_pieces, Codec codec,
                   const OpenOptions& options)
        : codec_(std::move(codec)),
          table_(directory, type, max_pieces,
                 [this](const IndexRecord& r, std::size_t k, std::string_view file) { return codec_.coding_of(r, k, file); },
                 options.messages),
          missing_(missing_values_of(type)) {
        const MemoryPlan plan = plan_memory(table_, type, options);
        pinned_base_.assign(table_.streams().size(), kNotPinned);
        for (std::uint32_t f = 0; f < table_.files().size(); ++f) table_.files()[f].autoloaded = plan.autoloaded[f];
        for (std::size_t s = 0; s < table_.streams().size(); ++s) {
            const Stream& stream = table_.streams()[s];
            if (!plan.autoloaded[stream.file]) continue;
            pinned_base_[s] = pinned_.size();
            pinned_.resize(pinned_.size() + std::size_t{stream.blocks} * kCheckpointsPerBlock);
            for (std::uint32_t k = 0; k < stream.blocks; ++k) {
                build_checkpoints(stream, k, &pinned_[pinned_base_[s] + std::size_t{k} * kCheckpointsPerBlock]);
            }
        }
        constexpr std::size_t kMinimumCache = 64 * (kBlockBytes + kCheckpointsPerBlock * 4);
        cache_ = std::make_unique<PageCache>(std::max<std::size_t>(plan.cache_bytes, kMinimumCache));
        if (options.preload) preload(plan);
    }

    const StreamTable& table() const noexcept { return table_; }
    const Codec& codec() const noexcept { return codec_; }
    const MissingValues& missing() const noexcept { return missing_; }
    PageCacheStats cache_stats() const { return cache_->stats(); }

    // The integer code of 3.3 / the format's decoder. Throws CorruptDatabaseError when a block read
    // through the cache contradicts its index (autoloaded files are checked at open).
    int lookup(const Position& p, Color side, Conditional conditional) const {
        const LookupTarget t = locate(p, side, missing_);
        if (t.resolved) return t.value;
        const StreamTable::Lookup found = table_.find(t.slice, t.side_to_move);
        if (found.presence == Presence::ColorAbsent) return missing_.color_absent;
        if (found.presence == Presence::BothAbsent) return missing_.both_absent;
        if (t.subslice >= found.subslices.size()) return missing_.subslice_absent;
        const SubsliceEntry& entry = found.subslices[t.subslice];
        if (entry.value >= 0) return entry.value;
        if (entry.stream == SubsliceEntry::kNoStream) return missing_.subslice_absent;
        return decode(entry.stream, t.local, conditional);
    }

private:
    static constexpr std::size_t kNotPinned = static_cast<std::size_t>(-1);

    // Checkpoints of block k: the local index at each 64-byte step from the block's first byte.
    // Throws when the block does not decode to the positions its index promises.
    void build_checkpoints(const Stream& s, std::uint32_t k, std::uint32_t* checkpoints) const {
        const TableFile& file = table_.files()[s.file];
        const auto bytes = file.data.bytes().subspan(table_.block_begin(s, k),
                                                     table_.block_end(s, k) - table_.block_begin(s, k));
        const BlockCoding coding = table_.block_codings()[s.first_block + k];
        std::uint64_t n = table_.block_starts()[s.first_block + k];
        for (std::size_t i = 0; i < bytes.size(); ++i) {
            if (i % kSubBlockBytes == 0) checkpoints[i / kSubBlockBytes] = static_cast<std::uint32_t>(std::min<std::uint64_t>(n, 0xFFFFFFFFU));
            n += codec_.positions(coding, static_cast<std::uint8_t>(bytes[i]));
        }
        const bool last = k + 1 == s.blocks;
        const std::uint64_t expected = last ? s.subslice_size : table_.block_starts()[s.first_block + k + 1];
        if (last ? n < expected : n != expected) {
            throw CorruptDatabaseError(file.data_path.string() + ": block " + std::to_string(k) + " of slice " +
                                       s.slice.to_string() + " subslice " + std::to_string(s.subslice) + " side " +
                                       (s.side_to_move == Color::Black ? "b" : "w") + " decodes up to position " +
                                       std::to_string(n) + " but the index says " + std::to_string(expected) +
                                       " (damaged data or index file)");
        }
    }

    // Decodes local index x of a block given its bytes and checkpoints (never reads past either).
    int decode_in_block(const Stream& s, std::uint32_t k, std::span<const std::byte> bytes,
                        const std::byte* checkpoint_bytes, std::uint32_t x) const noexcept {
        const std::size_t count = (bytes.size() + kSubBlockBytes - 1) / kSubBlockBytes;
        const auto checkpoint = [checkpoint_bytes](std::size_t i) {
            std::uint32_t v;
            std::memcpy(&v, checkpoint_bytes + i * sizeof(std::uint32_t), sizeof v);
            return v;
        };
        std::size_t low = 0, high = count;  // last checkpoint <= x, by bisection
        while (high - low > 1) {
            const std::size_t mid = (low + high) / 2;
            if (checkpoint(mid) <= x) low = mid;
            else high = mid;
        }
        const BlockCoding coding = table_.block_codings()[s.first_block + k];
        std::uint64_t n = checkpoint(low);
        for (std::size_t i = low * kSubBlockBytes; i < bytes.size(); ++i) {
            const auto code = static_cast<std::uint8_t>(bytes[i]);
            const std::uint32_t length = codec_.positions(coding, code);
            if (n + length > x) return codec_.value(coding, code, static_cast<std::uint32_t>(x - n));
            n += length;
        }
        return missing_.subslice_absent;  // unreachable for checked blocks
    }

    int decode(std::uint32_t stream_number, std::uint32_t x, Conditional conditional) const {
        const Stream& s = table_.streams()[stream_number];
        const auto starts = table_.block_starts().subspan(s.first_block, s.blocks);
        const auto k = static_cast<std::uint32_t>(std::upper_bound(starts.begin() + 1, starts.end(), x) - starts.begin() - 1);
        const std::uint64_t begin = table_.block_begin(s, k);
        const std::uint64_t end = table_.block_end(s, k);
        if (pinned_base_[stream_number] != kNotPinned) {
            const std::uint32_t* checkpoints = &pinned_[pinned_base_[stream_number] + std::size_t{k} * kCheckpointsPerBlock];
            return decode_in_block(s, k, table_.files()[s.file].data.bytes().subspan(begin, end - begin),
                                   reinterpret_cast<const std::byte*>(checkpoints), x);
        }
        const auto read = [&](std::span<const std::byte> page) {
            const std::size_t checkpoint_bytes = kCheckpointsPerBlock * sizeof(std::uint32_t);
            return decode_in_block(s, k, page.subspan(checkpoint_bytes), page.data(), x);
        };
        const PageKey key{stream_number, k};
        if (conditional == Conditional::Yes) {
            const std::optional<int> cached = cache_->access_if_cached(key, read);
            return cached ? *cached : missing_.not_in_cache;
        }
        return cache_->access(key, [&](std::vector<std::byte>& page) { load_block(s, k, page); }, read);
    }

    // A cache page: the block's checkpoints, then its bytes.
    void load_block(const Stream& s, std::uint32_t k, std::vector<std::byte>& page) const {
        const std::uint64_t begin = table_.block_begin(s, k);
        const std::uint64_t end = table_.block_end(s, k);
        std::uint32_t checkpoints[kCheckpointsPerBlock] = {};
        build_checkpoints(s, k, checkpoints);
        page.resize(sizeof checkpoints + (end - begin));
        std::memcpy(page.data(), checkpoints, sizeof checkpoints);
        std::memcpy(page.data() + sizeof checkpoints, table_.files()[s.file].data.bytes().data() + begin, end - begin);
    }

    // 12.2 item 5: fill the cache with blocks of the other files in the autoload order.
    void preload(const MemoryPlan& plan) {
        const std::uint64_t page_bytes = kBlockBytes + kCheckpointsPerBlock * sizeof(std::uint32_t);
        std::uint64_t filled = 0;
        for (const std::uint32_t f : plan.load_order) {
            if (plan.autoloaded[f]) continue;
            for (std::uint32_t n = 0; n < table_.streams().size(); ++n) {
                const Stream& s = table_.streams()[n];
                if (s.file != f) continue;
                for (std::uint32_t k = 0; k < s.blocks; ++k) {
                    // Stay below the capacity so that preloading never evicts what it loaded.
                    if ((filled + page_bytes) * 10 > cache_->capacity_bytes() * 9) return;
                    cache_->access(PageKey{n, k}, [&](std::vector<std::byte>& page) { load_block(s, k, page); },
                                   [](std::span<const std::byte>) { return 0; });
                    filled += page_bytes;
                }
            }
        }
    }

    Codec codec_;
    StreamTable table_;
    MissingValues missing_;
    std::vector<std::uint32_t> pinned_;      // checkpoints of the autoloaded files' blocks
    std::vector<std::size_t> pinned_base_;   // by stream: its block 0 in pinned_, or kNotPinned
    std::unique_ptr<PageCache> cache_;
};

}  // namespace egdb::kingsrow
