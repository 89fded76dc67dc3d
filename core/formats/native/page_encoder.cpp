#include "core/formats/native/page_encoder.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>
// ZSTD_c_literalCompressionMode is in zstd's experimental section (stable since 1.4.5); with an
// older library setting it fails and pages keep Huffman literals, which every reader decodes.
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include "core/util/crc32c.hpp"
#include "core/util/little_endian.hpp"
#include "core/util/error.hpp"

namespace egdb::native {
namespace {

// The largest value of raw[i] over the positions that are not "don't care", without a branch per
// position (which of them are is as good as random).
template <class T>
std::uint32_t largest_meaningful(std::span<const T> raw, std::span<const std::uint64_t> dont_care, std::uint64_t first,
                                 std::uint64_t count) noexcept {
    std::uint32_t largest = 0;
    if (dont_care.empty()) {
        for (std::uint64_t i = first; i < first + count; ++i) largest = std::max<std::uint32_t>(largest, raw[i]);
        return largest;
    }
    for (std::uint64_t i = first; i < first + count; ++i) {
        const bool ignored = ((dont_care[i / 64] >> (i % 64)) & 1U) != 0;
        largest = std::max<std::uint32_t>(largest, ignored ? 0U : raw[i]);
    }
    return largest;
}

// Positions [first, first + out.size()) of a page (`first` a multiple of 64) as stored: a "don't
// care" position repeats the last meaningful value before it, which lengthens runs; those before
// the page's first meaningful value take that one (0 in a page without any), so that a page
// depends on its own positions only. Returns the largest meaningful value. One pass without a
// branch per position.
template <class T>
std::uint32_t fill_page(std::span<const T> raw, std::span<const std::uint64_t> dont_care, std::uint64_t first,
                        std::span<std::uint16_t> out) noexcept {
    const std::uint64_t count = out.size();
    if (dont_care.empty()) {
        std::copy_n(raw.begin() + static_cast<std::ptrdiff_t>(first), count, out.begin());
        return largest_meaningful(raw, dont_care, first, count);
    }
    std::uint32_t last = 0;
    for (std::uint64_t k = 0; k < count; k += 64) {
        std::uint64_t meaningful = ~dont_care[(first + k) / 64];
        if (count - k < 64) meaningful &= (std::uint64_t{1} << (count - k)) - 1;
        if (meaningful != 0) {
            last = raw[first + k + static_cast<std::uint64_t>(std::countr_zero(meaningful))];
            break;
        }
    }
    std::uint32_t largest = 0;
    for (std::uint64_t k = 0; k < count; ++k) {
        const std::uint64_t i = first + k;
        const bool ignored = ((dont_care[i / 64] >> (i % 64)) & 1U) != 0;
        const std::uint32_t v = raw[i];
        last = ignored ? last : v;
        largest = std::max(largest, ignored ? 0U : v);
        out[k] = static_cast<std::uint16_t>(last);
    }
    return largest;
}

void free_cctx(ZSTD_CCtx* cctx) { ZSTD_freeCCtx(cctx); }
void free_dctx(ZSTD_DCtx* dctx) { ZSTD_freeDCtx(dctx); }

}  // namespace

SectionValues SectionValues::subrange(std::uint64_t first, std::uint64_t count) const {
    if (first % 64 != 0 || first + count > size()) throw InvalidArgumentError("section subrange out of bounds");
    SectionValues r = *this;
    if (!values8.empty()) r.values8 = values8.subspan(first, count);
    if (!values16.empty()) r.values16 = values16.subspan(first, count);
    if (!dont_care.empty()) r.dont_care = dont_care.subspan(first / 64, std::min<std::uint64_t>((count + 63) / 64, dont_care.size() - first / 64));
    return r;
}

void EncodedPages::append(const EncodedPages& next) {
    const std::uint64_t base = bytes.size();
    const std::size_t start = entries.size();
    entries.insert(entries.end(), next.entries.begin(), next.entries.end());
    for (std::size_t e = start; e < entries.size(); e += kPageEntrySize) {
        store_le<std::uint64_t>(entries, e, load_le<std::uint64_t>(entries, e) + base);
    }
    bytes.insert(bytes.end(), next.bytes.begin(), next.bytes.end());
    page_count += next.page_count;
    max_value = std::max(max_value, next.max_value);
}

std::uint32_t max_meaningful_value(const SectionValues& s) {
    return s.values8.empty() ? largest_meaningful(s.values16, s.dont_care, 0, s.size())
                             : largest_meaningful(s.values8, s.dont_care, 0, s.size());
}

PageEncoder::PageEncoder(ValueKind kind, int zstd_level)
    : cctx_(ZSTD_createCCtx(), &free_cctx), dctx_(ZSTD_createDCtx(), &free_dctx) {
    if (!cctx_ || !dctx_) throw OutOfMemoryError("no memory for the zstd contexts of a page encoder");
    ZSTD_CCtx_setParameter(cctx_.get(), ZSTD_c_compressionLevel, page_zstd_level(kind, zstd_level));
    ZSTD_CCtx_setParameter(cctx_.get(), ZSTD_c_checksumFlag, 0);
    ZSTD_CCtx_setParameter(cctx_.get(), ZSTD_c_contentSizeFlag, 0);
    if (kind != ValueKind::Dtw) {
        // A 4 KiB page decompresses in a few microseconds, most of them spent rebuilding the
        // page's Huffman table for literals. WLD and MTC pages are mostly matches, so raw literals
        // cost little space and make a page miss about 30% faster (measured on slice 2201: WLD
        // +17% bytes, MTC +1%); DTW pages are literal-heavy and keep Huffman coding.
        ZSTD_CCtx_setParameter(cctx_.get(), ZSTD_c_literalCompressionMode, ZSTD_ps_disable);
    }
}

PageEncoder::~PageEncoder() = default;

EncodedPages PageEncoder::encode(const SectionValues& s, std::uint32_t positions_per_page, unsigned value_bits) {
    if (positions_per_page == 0 || positions_per_page % 64 != 0) throw InvalidArgumentError("pages must hold a multiple of 64 positions");
    const std::uint32_t limit = value_bits == 2 ? kStoredWin : value_bits == 8 ? 0xFF : 0xFFFF;
    EncodedPages out;
    const std::uint64_t positions = s.size();
    out.page_count = (positions + positions_per_page - 1) / positions_per_page;
    for (std::uint64_t page = 0; page < out.page_count; ++page) {
        const std::uint64_t first = page * positions_per_page;
        const std::uint64_t count = std::min<std::uint64_t>(positions_per_page, positions - first);
        // Packed 4 to a byte at 2 bits: the values past the page's end are 0.
        filled_.assign((count + 3) / 4 * 4, 0);
        const std::span<std::uint16_t> filled = std::span(filled_).first(count);
        const std::uint32_t largest = s.values8.empty() ? fill_page(s.values16, s.dont_care, first, filled)
                                                        : fill_page(s.values8, s.dont_care, first, filled);
        if (largest > limit) {
            throw InvalidArgumentError(std::string(to_string(s.kind)) + " value " + std::to_string(largest) + " does not fit in " +
                                        std::to_string(value_bits) + " bits");
        }
        out.max_value = std::max(out.max_value, largest);
        const std::uint32_t first_value = filled_[0];
        const bool constant = std::all_of(filled.begin(), filled.end(), [&](std::uint16_t v) { return v == first_value; });
        packed_.resize(packed_size(count, value_bits));
        if (value_bits == 2) {
            for (std::size_t j = 0; j < packed_.size(); ++j) {
                const std::uint16_t* f = filled_.data() + 4 * j;
                packed_[j] = static_cast<std::byte>(f[0] | f[1] << 2 | f[2] << 4 | f[3] << 6);
            }
        } else if (value_bits == 8) {
            std::transform(filled.begin(), filled.end(), packed_.begin(), [](std::uint16_t v) { return static_cast<std::byte>(v); });
        } else {
            for (std::uint64_t k = 0; k < count; ++k) store_le<std::uint16_t>(packed_, 2 * k, filled[k]);
        }
        const std::uint64_t offset = out.bytes.size();
        if (constant) {
            append_le<std::uint64_t>(out.entries, offset);
            append_le<std::uint32_t>(out.entries, 0);
            append_le<std::uint32_t>(out.entries, first_value);
            continue;
        }
        compressed_.resize(ZSTD_compressBound(packed_.size()));
        const std::size_t n = ZSTD_compress2(cctx_.get(), compressed_.data(), compressed_.size(), packed_.data(), packed_.size());
        if (ZSTD_isError(n)) throw InternalError(std::string("zstd: ") + ZSTD_getErrorName(n));
        const std::span<const std::byte> page_bytes(compressed_.data(), n);
        // The page read back as a reader will read it (one zstd frame of exactly the packed size).
        read_back_.resize(packed_.size() + 1);
        const std::size_t back = ZSTD_decompressDCtx(dctx_.get(), read_back_.data(), read_back_.size(), page_bytes.data(), n);
        if (ZSTD_isError(back) || back != packed_.size() ||
            !std::equal(packed_.begin(), packed_.end(), read_back_.begin())) {
            throw InternalError(std::string(to_string(s.kind)) + " page " + std::to_string(page) +
                                     " does not decompress to the values it was encoded from");
        }
        out.bytes.insert(out.bytes.end(), page_bytes.begin(), page_bytes.end());
        append_le<std::uint64_t>(out.entries, offset);
        append_le<std::uint32_t>(out.entries, static_cast<std::uint32_t>(n));
        append_le<std::uint32_t>(out.entries, crc32c(page_bytes));
    }
    return out;
}

}  // namespace egdb::native
