#include "core/formats/native/manifest.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <system_error>

#include "core/formats/native/native_layout.hpp"
#include "core/index/slice_graph.hpp"
#include "core/util/atomic_file_writer.hpp"
#include "core/util/crc32c.hpp"
#include "core/util/error.hpp"
#include "core/util/mapped_file.hpp"
#include "core/util/text_record.hpp"

namespace egdb::native {
namespace {

constexpr std::string_view kManifestHeader = "egdb-manifest 1\n";

[[noreturn]] void corrupt_manifest(const std::filesystem::path& path, std::size_t line, const std::string& what) {
    throw CorruptDataError("manifest " + path.string() + " line " + std::to_string(line) + ": " + what +
                           "; run egdb build on the directory again to rewrite it");
}

}  // namespace

std::uint32_t file_crc32c(const std::filesystem::path& path) {
    // Mapped pages once read stay in the resident set until the mapping goes: a build that
    // checksums the 6-piece slice file it has just written (its verify journal) would hold the
    // whole file beside its budget, so the pages are given back every 64 MiB.
    constexpr std::size_t kWindow = std::size_t{64} << 20;
    const MappedFile file(path);
    const std::span<const std::byte> bytes = file.bytes();
    std::uint32_t crc = 0;
    for (std::size_t at = 0; at < bytes.size(); at += kWindow) {
        const std::size_t length = std::min(kWindow, bytes.size() - at);
        crc = crc32c(bytes.subspan(at, length), crc);
        file.release_resident_pages(at, length);
    }
    return crc;
}

std::vector<ManifestEntry> write_manifest(const std::filesystem::path& directory) {
    std::vector<SliceId> present;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(directory)) {
        const std::optional<SliceId> slice = parse_slice_file_name(entry.path().filename().string());
        if (slice && entry.is_regular_file(ec)) present.push_back(*slice);
    }
    int most = 0;
    for (const SliceId s : present) most = std::max(most, s.total());
    std::vector<ManifestEntry> entries;
    std::string text(kManifestHeader);
    for (const SliceId s : present.empty() ? std::vector<SliceId>{} : build_order(most)) {
        if (std::find(present.begin(), present.end(), s) == present.end()) continue;
        ManifestEntry e;
        e.file = slice_file_name(s.nbm, s.nbk, s.nwm, s.nwk);
        e.bytes = std::filesystem::file_size(directory / e.file);
        e.crc = file_crc32c(directory / e.file);
        char line[96];
        std::snprintf(line, sizeof line, "%s %llu %08x\n", e.file.c_str(), static_cast<unsigned long long>(e.bytes), e.crc);
        text += line;
        entries.push_back(std::move(e));
    }
    char end[32];
    std::snprintf(end, sizeof end, "end %08x\n", crc32c(text_bytes(text)));
    text += end;
    AtomicFileWriter out(directory / kManifestFileName);
    out.write(text_bytes(text));
    out.commit();
    return entries;
}

std::optional<std::vector<ManifestEntry>> read_manifest(const std::filesystem::path& directory) {
    const std::filesystem::path path = directory / kManifestFileName;
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return std::nullopt;
    const MappedFile file(path);
    const std::string_view text(reinterpret_cast<const char*>(file.bytes().data()), file.bytes().size());
    if (!text.starts_with(kManifestHeader)) corrupt_manifest(path, 1, "not an egdb manifest of version 1");
    std::vector<ManifestEntry> entries;
    std::size_t at = kManifestHeader.size();
    for (std::size_t line = 2;; ++line) {
        const std::size_t eol = text.find('\n', at);
        if (eol == std::string_view::npos) corrupt_manifest(path, line, "truncated (no end line)");
        const std::string_view record = text.substr(at, eol - at);
        const std::size_t space = record.find(' ');
        if (space == std::string_view::npos) corrupt_manifest(path, line, "not a record");
        const std::string_view first = record.substr(0, space);
        const std::string_view rest = record.substr(space + 1);
        if (first == "end") {
            std::uint32_t crc = 0;
            if (!parse_whole_number(rest, crc, 16)) corrupt_manifest(path, line, "the end line has no checksum");
            if (crc != crc32c(text_bytes(text.substr(0, at)))) corrupt_manifest(path, line, "checksum mismatch");
            if (eol + 1 != text.size()) corrupt_manifest(path, line + 1, "text after the end line");
            return entries;
        }
        ManifestEntry e;
        e.file = std::string(first);
        const std::size_t gap = rest.find(' ');
        if (!parse_slice_file_name(e.file) || gap == std::string_view::npos || !parse_whole_number(rest.substr(0, gap), e.bytes, 10) ||
            !parse_whole_number(rest.substr(gap + 1), e.crc, 16)) {
            corrupt_manifest(path, line, "not a slice file record");
        }
        entries.push_back(std::move(e));
        at = eol + 1;
    }
}

std::vector<std::string> check_manifest(const std::filesystem::path& directory, const std::vector<ManifestEntry>& entries) {
    std::vector<std::string> problems;
    for (const ManifestEntry& e : entries) {
        const std::filesystem::path path = directory / e.file;
        std::error_code ec;
        const std::uintmax_t bytes = std::filesystem::file_size(path, ec);
        if (ec) {
            problems.push_back(e.file + " is listed in " + std::string(kManifestFileName) + " but missing");
        } else if (bytes != e.bytes) {
            problems.push_back(e.file + " has " + std::to_string(bytes) + " bytes, " + std::to_string(e.bytes) + " when it was built");
        } else if (file_crc32c(path) != e.crc) {
            problems.push_back(e.file + " has other bytes than when it was built (CRC-32C of the file)");
        }
    }
    return problems;
}

}  // namespace egdb::native
