#include "core/formats/native/unit_file.hpp"

#include <array>
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

constexpr std::array<char, 8> kMagic{'E', 'G', 'D', 'B', 'U', 'N', 'I', 'T'};
constexpr std::size_t kTrailerBytes = 16;
constexpr std::size_t kChunkBytes = std::size_t{1} << 20;

void append_slice(std::vector<std::byte>& out, SliceId s) {
    for (const int count : {s.nbm, s.nbk, s.nwm, s.nwk}) out.push_back(static_cast<std::byte>(count));
}

std::vector<std::byte> encode_header(const SolvedLevel& level, const UnitInputs& inputs) {
    std::vector<std::byte> h;
    for (const char c : kMagic) h.push_back(static_cast<std::byte>(c));
    append_le<std::uint32_t>(h, kUnitFileVersion);
    append_slice(h, level.slice());
    append_le<std::uint32_t>(h, static_cast<std::uint32_t>(level.advancement()));
    append_le<std::uint32_t>(h, static_cast<std::uint32_t>(inputs.level_read));
    append_le<std::uint32_t>(h, static_cast<std::uint32_t>(inputs.slices.size()));
    for (const SliceId s : inputs.slices) append_slice(h, s);
    append_le<std::uint64_t>(h, level.configurations().size());
    append_le<std::uint64_t>(h, level.block_size());
    return h;
}

std::span<const std::byte> as_bytes(std::span<const std::uint8_t> s) { return std::as_bytes(s); }

// Streams the payload through zstd into the file, accumulating its CRC.
class PayloadWriter {
public:
    PayloadWriter(AtomicFileWriter& file, int level) : file_(file), cctx_(ZSTD_createCCtx(), &ZSTD_freeCCtx), out_(kChunkBytes) {
        if (!cctx_) throw std::bad_alloc();
        ZSTD_CCtx_setParameter(cctx_.get(), ZSTD_c_compressionLevel, level);
        ZSTD_CCtx_setParameter(cctx_.get(), ZSTD_c_checksumFlag, 0);
    }

    void add(std::span<const std::byte> data) {
        crc_ = crc32c(data, crc_);
        ZSTD_inBuffer in{data.data(), data.size(), 0};
        while (in.pos < in.size) step(in, ZSTD_e_continue);
    }

    void finish() {
        ZSTD_inBuffer in{nullptr, 0, 0};
        while (step(in, ZSTD_e_end) != 0) {
        }
    }

    std::uint64_t compressed_bytes() const noexcept { return written_; }
    std::uint32_t crc() const noexcept { return crc_; }

private:
    std::size_t step(ZSTD_inBuffer& in, ZSTD_EndDirective mode) {
        ZSTD_outBuffer out{out_.data(), out_.size(), 0};
        const std::size_t left = ZSTD_compressStream2(cctx_.get(), &out, &in, mode);
        if (ZSTD_isError(left)) {
            throw FileError("cannot compress unit file " + file_.final_path().string() + ": " + ZSTD_getErrorName(left));
        }
        file_.write(std::span(out_.data(), out.pos));
        written_ += out.pos;
        return left;
    }

    AtomicFileWriter& file_;
    std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> cctx_;
    std::vector<std::byte> out_;
    std::uint64_t written_ = 0;
    std::uint32_t crc_ = 0;
};

[[noreturn]] void corrupt(const std::filesystem::path& path, const std::string& what) {
    throw CorruptDataError("unit file " + path.string() + " " + what + "; remove it to solve the unit again");
}

}  // namespace

std::string unit_file_name(SliceId slice, int advancement) {
    char name[40];
    std::snprintf(name, sizeof name, "unit-%s-a%03d.egdbu", slice.to_string().c_str(), advancement);
    return name;
}

std::string unit_file_name(SliceId slice, int advancement, int chunk) {
    char name[48];
    std::snprintf(name, sizeof name, "unit-%s-a%03d-c%04d.egdbu", slice.to_string().c_str(), advancement, chunk);
    return name;
}

std::uintmax_t write_unit_file(const std::filesystem::path& path, const SolvedLevel& level, const UnitInputs& inputs,
                               const UnitWriteOptions& options) {
    AtomicFileWriter file(path);
    const std::vector<std::byte> header = encode_header(level, inputs);
    file.write(header);
    PayloadWriter payload(file, options.zstd_level);
    std::vector<std::byte> chunk;
    const auto& configurations = level.configurations();
    for (std::size_t k = 0; k < configurations.size(); ++k) {
        append_le<std::uint64_t>(chunk, configurations[k]);
        if (chunk.size() >= kChunkBytes || k + 1 == configurations.size()) {
            payload.add(chunk);
            chunk.clear();
        }
    }
    for (const Color side : {Color::Black, Color::White}) {
        payload.add(as_bytes(level.dtw_codes(side)));
        payload.add(as_bytes(level.mtc(side)));
    }
    payload.finish();
    std::vector<std::byte> trailer;
    append_le<std::uint64_t>(trailer, payload.compressed_bytes());
    append_le<std::uint32_t>(trailer, payload.crc());
    append_le<std::uint32_t>(trailer, crc32c(trailer, crc32c(header)));
    file.write(trailer);
    file.commit();
    return header.size() + payload.compressed_bytes() + trailer.size();
}

SolvedLevel read_unit_file(const std::filesystem::path& path, SliceId slice, int advancement,
                           const std::vector<std::uint64_t>& configurations, const UnitInputs& inputs) {
    const MappedFile file(path);
    const std::span<const std::byte> bytes = file.bytes();
    // The header this unit must have: any other is another unit, or a damaged one.
    SolvedLevel level(slice, advancement, configurations);
    const std::vector<std::byte> header = encode_header(level, inputs);
    if (bytes.size() < header.size() + kTrailerBytes) corrupt(path, "is truncated");
    if (std::memcmp(bytes.data(), kMagic.data(), kMagic.size()) != 0) corrupt(path, "is not a unit file");
    if (load_le<std::uint32_t>(bytes, kMagic.size()) != kUnitFileVersion) corrupt(path, "has an unknown version");
    if (std::memcmp(bytes.data(), header.data(), header.size()) != 0) {
        corrupt(path, "does not hold level " + std::to_string(advancement) + " of slice " + slice.to_string() +
                          " with the inputs and men configurations this build expects");
    }
    const std::span<const std::byte> trailer = bytes.last(kTrailerBytes);
    if (load_le<std::uint32_t>(trailer, 12) != crc32c(trailer.first(12), crc32c(header))) {
        corrupt(path, "has a damaged trailer (or is truncated)");
    }
    const std::uint64_t compressed = load_le<std::uint64_t>(trailer, 0);
    if (compressed != bytes.size() - header.size() - kTrailerBytes) corrupt(path, "has the wrong length");

    // Decompress straight into the level, section by section.
    std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> dctx(ZSTD_createDCtx(), &ZSTD_freeDCtx);
    if (!dctx) throw std::bad_alloc();
    ZSTD_inBuffer in{bytes.data() + header.size(), compressed, 0};
    std::uint32_t crc = 0;
    std::size_t result = 1;  // of the last ZSTD_decompressStream: 0 once the frame is complete
    const auto fill = [&](std::span<std::byte> target) {
        ZSTD_outBuffer out{target.data(), target.size(), 0};
        while (out.pos < out.size) {
            const std::size_t before = out.pos;
            result = ZSTD_decompressStream(dctx.get(), &out, &in);
            if (ZSTD_isError(result)) corrupt(path, std::string("has a damaged payload: ") + ZSTD_getErrorName(result));
            if (out.pos == before && in.pos == in.size) corrupt(path, "has a payload that ends early");
        }
        crc = crc32c(target, crc);
    };
    std::vector<std::byte> stored_configurations(8 * configurations.size());
    fill(stored_configurations);
    for (std::size_t k = 0; k < configurations.size(); ++k) {
        if (load_le<std::uint64_t>(stored_configurations, 8 * k) != configurations[k]) {
            corrupt(path, "holds other men configurations than its level");
        }
    }
    for (const Color side : {Color::Black, Color::White}) {
        fill(std::as_writable_bytes(level.dtw_codes(side)));
        fill(std::as_writable_bytes(level.mtc(side)));
    }
    if (result != 0) {
        // The frame's end may still be pending: it must come now, without more data.
        std::byte extra{};
        ZSTD_outBuffer end{&extra, 1, 0};
        result = ZSTD_decompressStream(dctx.get(), &end, &in);
        if (ZSTD_isError(result) || result != 0 || end.pos != 0) corrupt(path, "has more data in its payload than its level");
    }
    if (in.pos != in.size) corrupt(path, "has data after its payload");
    if (crc != load_le<std::uint32_t>(trailer, 8)) corrupt(path, "fails its checksum");
    return level;
}

}  // namespace egdb::native
