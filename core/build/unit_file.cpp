#include "core/build/unit_file.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstring>
#include <memory>
#include <span>

#include <zstd.h>

#include "core/util/atomic_file_writer.hpp"
#include "core/util/crc32c.hpp"
#include "core/util/error.hpp"
#include "core/util/little_endian.hpp"
#include "core/util/mapped_file.hpp"

namespace egdb::native {
namespace {

constexpr std::array<char, 8> kUnitFileMagic{'E', 'G', 'D', 'B', 'U', 'N', 'I', 'T'};
constexpr std::size_t kTrailerBytes = 16;
constexpr std::size_t kTableEntryBytes = 20;
// Positions per frame (at least one configuration): small enough that a page range of a part
// file (about --chunk-positions positions, spread over every unit of its slice) reads little
// it does not need, large enough for zstd to find its runs.
constexpr std::uint64_t kFramePositions = 4096;

void append_slice(std::vector<std::byte>& out, SliceId s) {
    for (const int count : {s.nbm, s.nbk, s.nwm, s.nwk}) out.push_back(static_cast<std::byte>(count));
}

// Capture bits go into frames as the level's u64 words, whose bytes are little-endian only on
// such a host (every target the project builds for).
static_assert(std::endian::native == std::endian::little, "unit frames store capture words as little-endian bytes");

std::uint64_t capture_words(std::uint64_t positions) { return (positions + 63) / 64; }

std::uint64_t slots_per_frame(std::uint64_t block_size) { return std::max<std::uint64_t>(1, kFramePositions / std::max<std::uint64_t>(block_size, 1)); }

// CRC-32C of the configurations as little-endian u64s, in pieces (a level may hold 1e8 of them).
std::uint32_t configurations_crc(std::span<const std::uint64_t> configurations) {
    std::uint32_t crc = 0;
    std::vector<std::byte> bytes;
    for (std::size_t first = 0; first < configurations.size(); first += 8192) {
        bytes.clear();
        for (const std::uint64_t c : configurations.subspan(first, std::min<std::size_t>(8192, configurations.size() - first))) {
            append_le<std::uint64_t>(bytes, c);
        }
        crc = crc32c(bytes, crc);
    }
    return crc;
}

std::vector<std::byte> encode_header(std::uint32_t version, SliceId slice, int advancement, std::span<const std::uint64_t> configurations,
                                     std::uint64_t block_size, const UnitInputs& inputs) {
    std::vector<std::byte> h;
    for (const char c : kUnitFileMagic) h.push_back(static_cast<std::byte>(c));
    append_le<std::uint32_t>(h, version);
    append_slice(h, slice);
    append_le<std::uint32_t>(h, static_cast<std::uint32_t>(advancement));
    append_le<std::uint32_t>(h, static_cast<std::uint32_t>(inputs.level_read));
    append_le<std::uint32_t>(h, static_cast<std::uint32_t>(inputs.slices.size()));
    for (const SliceId s : inputs.slices) append_slice(h, s);
    append_le<std::uint64_t>(h, configurations.size());
    append_le<std::uint32_t>(h, configurations_crc(configurations));
    append_le<std::uint64_t>(h, block_size);
    append_le<std::uint64_t>(h, slots_per_frame(block_size));
    return h;
}

void free_cctx(ZSTD_CCtx* c) { ZSTD_freeCCtx(c); }
void free_dctx(ZSTD_DCtx* c) { ZSTD_freeDCtx(c); }

[[noreturn]] void corrupt_unit(const std::filesystem::path& path, const std::string& what) {
    throw CorruptDataError("unit file " + path.string() + " " + what + "; remove it to solve the unit again");
}

}  // namespace

std::string unit_file_name(SliceId slice, int advancement, int chunk) {
    char name[48];
    std::snprintf(name, sizeof name, "unit-%s-a%03d-c%04d.egdbu", slice.to_string().c_str(), advancement, chunk);
    return name;
}

std::uintmax_t write_unit_file(const std::filesystem::path& path, const SolvedLevel& level, const UnitInputs& inputs,
                               const UnitWriteOptions& options) {
    const std::uint64_t block = level.block_size();
    const std::uint64_t slots = level.configurations().size();
    const bool has_wide = !level.wide(Color::Black).empty() || !level.wide(Color::White).empty();
    const std::vector<std::byte> header = encode_header(has_wide ? kUnitFileVersionWide : kUnitFileVersion, level.slice(),
                                                        level.advancement(), level.configurations(), block, inputs);
    std::unique_ptr<ZSTD_CCtx, void (*)(ZSTD_CCtx*)> cctx(ZSTD_createCCtx(), &free_cctx);
    if (!cctx) throw OutOfMemoryError("no memory for a zstd compression context");
    ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, options.zstd_level);
    ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, 0);
    // A libzstd built without threads refuses the parameter and compresses on this thread.
    if (options.threads > 1) ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_nbWorkers, options.threads);

    AtomicFileWriter file(path);
    file.write(header);
    std::vector<std::byte> table;
    // A frame is streamed through zstd from the level's own arrays: a frame holds at least one
    // whole block, and the block of a kings-only slice is the slice (318 million positions for
    // 0303), whose copy and compression buffer would take 8 bytes a position beside the level.
    // The frame carries its content size, as one compressed in one call does.
    std::vector<std::byte> out(ZSTD_CStreamOutSize());
    std::uint64_t offset = 0;
    const auto add_frame = [&](std::span<const std::span<const std::byte>> pieces) {
        std::uint64_t content = 0;
        for (const auto& piece : pieces) content += piece.size();
        const auto check = [&](std::size_t rc) {
            if (ZSTD_isError(rc)) throw FileError("cannot compress unit file " + path.string() + ": " + ZSTD_getErrorName(rc));
            return rc;
        };
        check(ZSTD_CCtx_reset(cctx.get(), ZSTD_reset_session_only));
        check(ZSTD_CCtx_setPledgedSrcSize(cctx.get(), content));
        std::uint64_t frame_bytes = 0;
        std::uint32_t frame_crc = 0;
        const auto drain = [&](ZSTD_inBuffer& in, ZSTD_EndDirective mode) {
            for (;;) {
                ZSTD_outBuffer o{out.data(), out.size(), 0};
                const std::size_t remaining = check(ZSTD_compressStream2(cctx.get(), &o, &in, mode));
                const std::span<const std::byte> written(out.data(), o.pos);
                file.write(written);
                frame_crc = crc32c(written, frame_crc);
                frame_bytes += o.pos;
                if (mode == ZSTD_e_end ? remaining == 0 : in.pos == in.size) return;
            }
        };
        for (const auto& piece : pieces) {
            ZSTD_inBuffer in{piece.data(), piece.size(), 0};
            drain(in, ZSTD_e_continue);
        }
        ZSTD_inBuffer none{nullptr, 0, 0};
        drain(none, ZSTD_e_end);
        append_le<std::uint64_t>(table, offset);
        append_le<std::uint64_t>(table, frame_bytes);
        append_le<std::uint32_t>(table, frame_crc);
        offset += frame_bytes;
    };
    const std::uint64_t per_frame = slots_per_frame(block);
    std::array<std::vector<std::uint64_t>, 2> captures;  // the frame's capture bits, from bit 0
    for (std::uint64_t first = 0; first < slots; first += per_frame) {
        const std::uint64_t count = std::min(per_frame, slots - first);
        std::array<std::span<const std::byte>, 6> pieces;
        std::size_t k = 0;
        for (const Color side : {Color::Black, Color::White}) {
            pieces[k++] = std::as_bytes(level.dtw_codes(side).subspan(first * block, count * block));
            pieces[k++] = std::as_bytes(level.mtc(side).subspan(first * block, count * block));
        }
        for (const Color side : {Color::Black, Color::White}) {
            std::vector<std::uint64_t>& bits = captures[static_cast<std::size_t>(side)];
            bits.assign(capture_words(count * block), 0);
            copy_bits({level.capture_bits(side), first * block, count * block}, bits, 0);
            pieces[k++] = std::as_bytes(std::span<const std::uint64_t>(bits));
        }
        add_frame(pieces);
    }
    if (has_wide) {
        // The wide positions, after the last frame of values: raw, checked by the table entry.
        std::vector<std::byte> wide;
        for (const Color side : {Color::Black, Color::White}) {
            append_le<std::uint64_t>(wide, level.wide(side).size());
            for (const auto& [at, d] : level.wide(side)) {
                append_le<std::uint64_t>(wide, at);
                append_le<std::uint16_t>(wide, d.dtw);
                append_le<std::uint16_t>(wide, d.mtc);
            }
        }
        file.write(wide);
        append_le<std::uint64_t>(table, offset);
        append_le<std::uint64_t>(table, wide.size());
        append_le<std::uint32_t>(table, crc32c(wide));
        offset += wide.size();
    }
    file.write(table);
    std::vector<std::byte> trailer;
    append_le<std::uint64_t>(trailer, table.size() / kTableEntryBytes);
    append_le<std::uint32_t>(trailer, crc32c(table));
    append_le<std::uint32_t>(trailer, crc32c(trailer, crc32c(header)));
    file.write(trailer);
    file.commit();
    return header.size() + offset + table.size() + trailer.size();
}

struct UnitFileReader::State {
    MappedFile file;
    SliceId slice;
    int advancement = 0;
    std::span<const std::uint64_t> configurations;
    std::uint64_t block_size = 0;
    std::uint64_t per_frame = 1;
    std::span<const std::byte> frames;  // from the first frame to the table
    std::span<const std::byte> table;
    std::unique_ptr<ZSTD_DCtx, void (*)(ZSTD_DCtx*)> dctx{nullptr, &free_dctx};
    std::array<WideValues, 2> wide;  // keyed by level offset (slot * block size + offset)
    // The frame read last, decompressed, and its capture words (Black's, then White's): a slice
    // file is written part by part from its units, and the parts of a slice without men all lie
    // in its one frame (14 GB decompressed at 0403), which each part would otherwise decompress
    // again.
    mutable std::uint64_t cached_frame = ~std::uint64_t{0};
    mutable std::vector<std::uint8_t> cached_bytes;
    mutable std::vector<std::uint64_t> cached_captures;

    const std::filesystem::path& path() const { return file.path(); }

    // Frame `f`, checked and decompressed into `out` (exactly out.size() bytes).
    // Frame `f` of the file, checked against its table entry.
    std::span<const std::byte> checked_frame(std::uint64_t f) const {
        const std::uint64_t offset = load_le<std::uint64_t>(table, kTableEntryBytes * f);
        const std::uint64_t bytes = load_le<std::uint64_t>(table, kTableEntryBytes * f + 8);
        if (offset > frames.size() || bytes > frames.size() - offset) corrupt_unit(path(), "has a frame outside the file");
        const std::span<const std::byte> frame = frames.subspan(offset, bytes);
        if (crc32c(frame) != load_le<std::uint32_t>(table, kTableEntryBytes * f + 16)) corrupt_unit(path(), "fails its checksum");
        return frame;
    }

    void decompress(std::uint64_t f, std::span<std::byte> out) const {
        const std::span<const std::byte> frame = checked_frame(f);
        const std::size_t n = ZSTD_decompressDCtx(dctx.get(), out.data(), out.size(), frame.data(), frame.size());
        if (ZSTD_isError(n)) corrupt_unit(path(), std::string("has a damaged payload: ") + ZSTD_getErrorName(n));
        if (n != out.size()) corrupt_unit(path(), "has a frame of the wrong size");
    }

    // Frame `f`, checked and decompressed straight into `pieces` in turn (exactly filling them):
    // a whole level is read without a copy of its largest frame (a kings-only slice's frame is
    // the slice).
    void decompress_into(std::uint64_t f, std::span<const std::span<std::byte>> pieces) const {
        const std::span<const std::byte> frame = checked_frame(f);
        ZSTD_DCtx_reset(dctx.get(), ZSTD_reset_session_only);
        ZSTD_inBuffer in{frame.data(), frame.size(), 0};
        std::size_t rc = 1;
        for (const std::span<std::byte> piece : pieces) {
            ZSTD_outBuffer out{piece.data(), piece.size(), 0};
            while (out.pos < out.size) {
                const std::size_t consumed = in.pos, produced = out.pos;
                rc = ZSTD_decompressStream(dctx.get(), &out, &in);
                if (ZSTD_isError(rc)) corrupt_unit(path(), std::string("has a damaged payload: ") + ZSTD_getErrorName(rc));
                // The frame ended, or stopped moving with its input used up, before the piece was full.
                if ((rc == 0 || (in.pos == consumed && out.pos == produced)) && out.pos < out.size) {
                    corrupt_unit(path(), "has a frame of the wrong size");
                }
            }
        }
        // Every piece is full: the frame must end here, with no byte left over.
        if (rc != 0) {
            std::byte extra{};
            ZSTD_outBuffer out{&extra, 1, 0};
            rc = ZSTD_decompressStream(dctx.get(), &out, &in);
            if (ZSTD_isError(rc)) corrupt_unit(path(), std::string("has a damaged payload: ") + ZSTD_getErrorName(rc));
            if (rc != 0 || out.pos != 0) corrupt_unit(path(), "has a frame of the wrong size");
        }
        if (in.pos != in.size) corrupt_unit(path(), "has a frame of the wrong size");
    }
};

void UnitFileReader::release_resident_pages() const noexcept { state_->file.release_resident_pages(); }

void UnitFileReader::release_cached_frame() const noexcept {
    state_->cached_frame = ~std::uint64_t{0};
    state_->cached_bytes = {};
    state_->cached_captures = {};
}

UnitFileReader::UnitFileReader(const std::filesystem::path& path, SliceId slice, int advancement,
                               std::span<const std::uint64_t> configurations, const UnitInputs& inputs)
    : state_(std::make_unique<State>()) {
    State& st = *state_;
    st.file = MappedFile(path);
    st.slice = slice;
    st.advancement = advancement;
    st.block_size = slice_size(slice) / men_configurations(slice.nbm, slice.nwm);
    st.per_frame = slots_per_frame(st.block_size);
    st.dctx.reset(ZSTD_createDCtx());
    if (!st.dctx) throw OutOfMemoryError("no memory for a zstd decompression context");
    const std::span<const std::byte> bytes = st.file.bytes();
    if (bytes.size() < kUnitFileMagic.size() + 4) corrupt_unit(path, "is truncated");
    if (std::memcmp(bytes.data(), kUnitFileMagic.data(), kUnitFileMagic.size()) != 0) corrupt_unit(path, "is not a unit file");
    const std::uint32_t version = load_le<std::uint32_t>(bytes, kUnitFileMagic.size());
    if (version != kUnitFileVersion && version != kUnitFileVersionWide) corrupt_unit(path, "has an unknown version");
    const bool has_wide = version == kUnitFileVersionWide;
    // The header this unit must have: any other is another unit, or a damaged one.
    const std::vector<std::byte> header = encode_header(version, slice, advancement, configurations, st.block_size, inputs);
    if (bytes.size() < header.size() + kTrailerBytes) corrupt_unit(path, "is truncated");
    if (std::memcmp(bytes.data(), header.data(), header.size()) != 0) {
        corrupt_unit(path, "does not hold level " + std::to_string(advancement) + " of slice " + slice.to_string() +
                          " with the inputs and men configurations this build expects");
    }
    const std::span<const std::byte> trailer = bytes.last(kTrailerBytes);
    if (load_le<std::uint32_t>(trailer, 12) != crc32c(trailer.first(12), crc32c(header))) {
        corrupt_unit(path, "has a damaged trailer (or is truncated)");
    }
    const std::uint64_t frame_count = load_le<std::uint64_t>(trailer, 0);
    const std::uint64_t expected_frames = (configurations.size() + st.per_frame - 1) / st.per_frame + (has_wide ? 1 : 0);
    if (frame_count != expected_frames) corrupt_unit(path, "has the wrong number of frames");
    const std::uint64_t table_bytes = kTableEntryBytes * frame_count;
    if (bytes.size() - header.size() - kTrailerBytes < table_bytes) corrupt_unit(path, "is truncated");
    st.table = bytes.subspan(bytes.size() - kTrailerBytes - table_bytes, table_bytes);
    if (crc32c(st.table) != load_le<std::uint32_t>(trailer, 8)) corrupt_unit(path, "has a damaged frame table");
    st.frames = bytes.subspan(header.size(), bytes.size() - header.size() - kTrailerBytes - table_bytes);
    // Frames follow each other without gaps and fill the space before the table.
    std::uint64_t next = 0;
    for (std::uint64_t f = 0; f < frame_count; ++f) {
        if (load_le<std::uint64_t>(st.table, kTableEntryBytes * f) != next) corrupt_unit(path, "has a damaged frame table");
        next += load_le<std::uint64_t>(st.table, kTableEntryBytes * f + 8);
    }
    if (next != st.frames.size()) corrupt_unit(path, "has the wrong length");
    st.configurations = configurations;
    if (has_wide) {
        const std::span<const std::byte> wide = st.checked_frame(frame_count - 1);
        const std::uint64_t level_size = configurations.size() * st.block_size;
        std::size_t at = 0;
        for (WideValues& side : st.wide) {
            if (wide.size() - at < 8) corrupt_unit(path, "has a damaged table of wide positions");
            const std::uint64_t count = load_le<std::uint64_t>(wide, at);
            at += 8;
            if (count > (wide.size() - at) / 12) corrupt_unit(path, "has a damaged table of wide positions");
            for (std::uint64_t k = 0; k < count; ++k, at += 12) {
                const std::uint64_t offset = load_le<std::uint64_t>(wide, at);
                if (offset >= level_size) corrupt_unit(path, "has a wide position outside its level");
                side.set(offset, {load_le<std::uint16_t>(wide, at + 8), load_le<std::uint16_t>(wide, at + 10)});
            }
        }
        if (at != wide.size()) corrupt_unit(path, "has a damaged table of wide positions");
    }
}

UnitFileReader::~UnitFileReader() = default;
UnitFileReader::UnitFileReader(UnitFileReader&&) noexcept = default;
UnitFileReader& UnitFileReader::operator=(UnitFileReader&&) noexcept = default;

std::span<const std::uint64_t> UnitFileReader::configurations() const noexcept { return state_->configurations; }
std::uint64_t UnitFileReader::block_size() const noexcept { return state_->block_size; }
const WideValues& UnitFileReader::wide(Color side_to_move) const noexcept { return state_->wide[static_cast<std::size_t>(side_to_move)]; }

void UnitFileReader::verify() const {
    const State& st = *state_;
    const std::uint64_t frames = st.table.size() / kTableEntryBytes;
    for (std::uint64_t f = 0; f < frames; ++f) {
        const std::uint64_t offset = load_le<std::uint64_t>(st.table, kTableEntryBytes * f);
        const std::uint64_t bytes = load_le<std::uint64_t>(st.table, kTableEntryBytes * f + 8);
        if (crc32c(st.frames.subspan(offset, bytes)) != load_le<std::uint32_t>(st.table, kTableEntryBytes * f + 16)) {
            corrupt_unit(st.path(), "fails its checksum");
        }
    }
}

void UnitFileReader::read_slots(std::uint64_t first, std::uint64_t count, const BlockVisitor& visit) const {
    const State& st = *state_;
    const std::uint64_t slots = st.configurations.size();
    if (first > slots || count > slots - first) throw OutOfRangeError("unit file " + st.path().string() + ": slots out of range");
    const std::uint64_t b = st.block_size;
    std::vector<std::uint8_t>& raw = st.cached_bytes;
    std::vector<std::uint64_t>& captures = st.cached_captures;  // Black's words, then White's
    for (std::uint64_t slot = first; slot < first + count;) {
        const std::uint64_t frame = slot / st.per_frame;
        const std::uint64_t frame_first = frame * st.per_frame;
        const std::uint64_t in_frame = std::min(st.per_frame, slots - frame_first);
        const std::uint64_t words = capture_words(in_frame * b);
        if (st.cached_frame != frame) {
            // In one call, then the capture words copied out to be aligned.
            st.cached_frame = ~std::uint64_t{0};
            raw.resize(4 * in_frame * b + 16 * words);
            st.decompress(frame, std::as_writable_bytes(std::span(raw)));
            captures.resize(2 * words);
            std::memcpy(captures.data(), raw.data() + 4 * in_frame * b, 16 * words);
            st.cached_frame = frame;
        }
        const auto bytes_of = [&](std::uint64_t side, std::uint64_t kind) {
            return std::span<const std::uint8_t>(raw).subspan((2 * side + kind) * in_frame * b, in_frame * b);
        };
        const std::span<const std::uint64_t> black_bits = std::span<const std::uint64_t>(captures).first(words);
        const std::span<const std::uint64_t> white_bits = std::span<const std::uint64_t>(captures).last(words);
        for (; slot < std::min(first + count, frame_first + in_frame); ++slot) {
            const std::uint64_t k = slot - frame_first;
            const Block block{{bytes_of(0, 0).subspan(k * b, b), bytes_of(1, 0).subspan(k * b, b)},
                              {bytes_of(0, 1).subspan(k * b, b), bytes_of(1, 1).subspan(k * b, b)},
                              {BitRun{black_bits, k * b, b}, BitRun{white_bits, k * b, b}}};
            visit(slot, block);
        }
    }
}

SolvedLevel UnitFileReader::read_all() const {
    const State& st = *state_;
    SolvedLevel level(st.slice, st.advancement, {st.configurations.begin(), st.configurations.end()});
    const std::uint64_t b = st.block_size;
    const std::uint64_t slots = st.configurations.size();
    std::array<std::vector<std::uint64_t>, 2> captures;
    for (std::uint64_t first = 0, frame = 0; first < slots; first += st.per_frame, ++frame) {
        const std::uint64_t count = std::min(st.per_frame, slots - first);
        std::array<std::span<std::byte>, 6> pieces;
        std::size_t k = 0;
        for (const Color side : {Color::Black, Color::White}) {
            pieces[k++] = std::as_writable_bytes(level.dtw_codes(side).subspan(first * b, count * b));
            pieces[k++] = std::as_writable_bytes(level.mtc(side).subspan(first * b, count * b));
        }
        for (std::vector<std::uint64_t>& bits : captures) {
            bits.resize(capture_words(count * b));
            pieces[k++] = std::as_writable_bytes(std::span(bits));
        }
        st.decompress_into(frame, pieces);
        for (const Color side : {Color::Black, Color::White}) {
            copy_bits({captures[static_cast<std::size_t>(side)], 0, count * b}, level.capture_bits(side), first * b);
        }
    }
    for (const Color side : {Color::Black, Color::White}) level.wide(side) = st.wide[static_cast<std::size_t>(side)];
    return level;
}

SolvedLevel read_unit_file(const std::filesystem::path& path, SliceId slice, int advancement,
                           const std::vector<std::uint64_t>& configurations, const UnitInputs& inputs) {
    return UnitFileReader(path, slice, advancement, configurations, inputs).read_all();
}

}  // namespace egdb::native
