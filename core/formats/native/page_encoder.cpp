#include "core/formats/native/page_encoder.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
// ZSTD_c_literalCompressionMode is in zstd's experimental section (stable since 1.4.5); with an
// older library setting it fails and pages keep Huffman literals, which every reader decodes.
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include "core/util/crc32c.hpp"
#include "core/util/little_endian.hpp"

namespace egdb::native {
namespace {

bool is_dont_care(std::span<const std::uint64_t> bits, std::uint64_t i) noexcept {
    return !bits.empty() && ((bits[i / 64] >> (i % 64)) & 1U) != 0;
}

std::uint32_t raw_value(const SectionValues& s, std::uint64_t i) noexcept {
    return s.values8.empty() ? s.values16[i] : s.values8[i];
}

void free_cctx(ZSTD_CCtx* cctx) { ZSTD_freeCCtx(cctx); }
void free_dctx(ZSTD_DCtx* dctx) { ZSTD_freeDCtx(dctx); }

}  // namespace

SectionValues SectionValues::subrange(std::uint64_t first, std::uint64_t count) const {
    if (first % 64 != 0 || first + count > size()) throw std::invalid_argument("section subrange out of bounds");
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
    std::uint32_t max_value = 0;
    const std::uint64_t n = s.size();
    for (std::uint64_t i = 0; i < n; ++i) {
        if (!is_dont_care(s.dont_care, i)) max_value = std::max(max_value, raw_value(s, i));
    }
    return max_value;
}

PageEncoder::PageEncoder(ValueKind kind, int zstd_level)
    : cctx_(ZSTD_createCCtx(), &free_cctx), dctx_(ZSTD_createDCtx(), &free_dctx) {
    if (!cctx_ || !dctx_) throw std::bad_alloc();
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
    if (positions_per_page == 0 || positions_per_page % 64 != 0) throw std::invalid_argument("pages must hold a multiple of 64 positions");
    const std::uint32_t limit = value_bits == 2 ? kStoredWin : value_bits == 8 ? 0xFF : 0xFFFF;
    EncodedPages out;
    const std::uint64_t positions = s.size();
    out.page_count = (positions + positions_per_page - 1) / positions_per_page;
    for (std::uint64_t page = 0; page < out.page_count; ++page) {
        const std::uint64_t first = page * positions_per_page;
        const std::uint64_t count = std::min<std::uint64_t>(positions_per_page, positions - first);
        // "Don't care" positions repeat the last meaningful value, which lengthens runs; those
        // before the page's first meaningful value take that one, so that a page depends on its
        // own positions only.
        std::uint32_t last = 0;
        for (std::uint64_t k = 0; k < count; ++k) {
            if (!is_dont_care(s.dont_care, first + k)) {
                last = raw_value(s, first + k);
                break;
            }
        }
        packed_.assign(packed_size(count, value_bits), std::byte{0});
        bool constant = true;
        std::uint32_t first_value = 0;
        for (std::uint64_t k = 0; k < count; ++k) {
            const std::uint64_t i = first + k;
            std::uint32_t v = last;
            if (!is_dont_care(s.dont_care, i)) {
                v = raw_value(s, i);
                if (v > limit) {
                    throw std::invalid_argument(std::string(to_string(s.kind)) + " value " + std::to_string(v) + " does not fit in " +
                                                std::to_string(value_bits) + " bits");
                }
                out.max_value = std::max(out.max_value, v);
            }
            last = v;
            if (k == 0) first_value = v;
            constant = constant && v == first_value;
            if (value_bits == 2) {
                packed_[k / 4] |= static_cast<std::byte>(v << (2 * (k % 4)));
            } else if (value_bits == 8) {
                packed_[k] = static_cast<std::byte>(v);
            } else {
                store_le<std::uint16_t>(packed_, 2 * k, static_cast<std::uint16_t>(v));
            }
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
        if (ZSTD_isError(n)) throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(n));
        const std::span<const std::byte> page_bytes(compressed_.data(), n);
        // The page read back as a reader will read it (one zstd frame of exactly the packed size).
        read_back_.resize(packed_.size() + 1);
        const std::size_t back = ZSTD_decompressDCtx(dctx_.get(), read_back_.data(), read_back_.size(), page_bytes.data(), n);
        if (ZSTD_isError(back) || back != packed_.size() ||
            !std::equal(packed_.begin(), packed_.end(), read_back_.begin())) {
            throw std::runtime_error(std::string(to_string(s.kind)) + " page " + std::to_string(page) +
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
