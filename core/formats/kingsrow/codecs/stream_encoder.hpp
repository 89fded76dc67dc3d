// What the writers share (kingsrow-format.md 17): the sink that appends one stream's codes to a
// data file and notes the index lines (the local index reached at every index-unit boundary), and
// the interface each format's encoder implements on top of it.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/formats/kingsrow/text_index/stream_table.hpp"

namespace egdb::kingsrow {

class StreamSink {
public:
    // `pending` holds the data file's bytes from offset `pending_offset` on (the bytes before it
    // are already on disk); the stream's codes are appended to it.
    StreamSink(std::vector<std::uint8_t>& pending, std::uint64_t pending_offset, std::uint64_t index_unit)
        : pending_(pending), pending_offset_(pending_offset), unit_(index_unit), start_(offset()) {}

    // Appends one code covering `positions` positions; a code at an index-unit boundary (other
    // than the stream's first byte) gets an index line with the positions covered so far.
    void emit(std::uint8_t code, std::uint64_t positions) {
        const std::uint64_t at = offset();
        if (at != start_ && at % unit_ == 0) unit_starts_.push_back(clamped(covered_));
        pending_.push_back(code);
        covered_ += positions;
    }

    std::uint64_t covered() const noexcept { return covered_; }
    // File offsets of the stream's first byte and of the next byte.
    std::uint64_t start() const noexcept { return start_; }
    std::uint64_t offset() const noexcept { return pending_offset_ + pending_.size(); }
    // Bytes left in the current 4096-byte block (4096 at a boundary).
    std::uint64_t room_in_block() const noexcept { return kBlockBytes - offset() % kBlockBytes; }
    const std::vector<std::uint32_t>& unit_starts() const noexcept { return unit_starts_; }

    // 16.3: upstream misreads a stream lying inside one 64-byte sub-block in its cached path; pad
    // with filler codes (positions past the subslice, never queried) until the stream crosses a
    // 64-byte boundary, unless it starts in the last sub-block of a 4096-byte block. The padding
    // never crosses a 4096-byte boundary.
    void pad_across_sub_block(std::uint8_t filler, std::uint64_t filler_positions) {
        if (start_ % kBlockBytes >= kBlockBytes - kSubBlockBytes) return;
        const std::uint64_t target = (start_ / kSubBlockBytes + 1) * kSubBlockBytes + 1;
        while (offset() < target) emit(filler, filler_positions);
    }

private:
    static std::uint32_t clamped(std::uint64_t v) noexcept { return v > 0x7FFFFFFFU ? 0x7FFFFFFFU : static_cast<std::uint32_t>(v); }

    std::vector<std::uint8_t>& pending_;
    std::uint64_t pending_offset_;
    std::uint64_t unit_;
    std::uint64_t start_;
    std::uint64_t covered_ = 0;
    std::vector<std::uint32_t> unit_starts_;
};

// How one stream was coded, for its index record.
struct StreamCoding {
    std::vector<BlockCoding> blocks;   // V2: one per 4096-byte block touched, in order
    bool has_partials = false;         // RUNLEN
    int v1_catalog = 0;                // V1
    int v1_value_count = 3;
    std::array<std::uint8_t, 6> v1_values{};
};

class StreamEncoder {
public:
    virtual ~StreamEncoder() = default;
    // Encodes the (don't-care-filled) values of one subslice into the sink. For WLD the values
    // are WLD codes 0..5; for MTC the byte to store at a position (0: below the threshold).
    virtual StreamCoding encode(std::span<const std::uint8_t> values, StreamSink& sink) const = 0;
    virtual std::uint8_t filler_code(const StreamCoding& coding) const = 0;
    virtual std::uint64_t filler_positions(const StreamCoding& coding) const = 0;
};

std::unique_ptr<StreamEncoder> make_runlen_encoder();
std::unique_ptr<StreamEncoder> make_mtc_encoder();
// Throw TunstallTablesUnavailable without the tables.
std::unique_ptr<StreamEncoder> make_tunstall_v1_encoder(int trial_codes);
std::unique_ptr<StreamEncoder> make_tunstall_v2_encoder(int trial_codes);

}  // namespace egdb::kingsrow
