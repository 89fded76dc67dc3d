#include "core/formats/native/verify_journal.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <string_view>
#include <system_error>

#include "core/formats/native/manifest.hpp"
#include "core/formats/native/native_layout.hpp"
#include "core/util/atomic_file_writer.hpp"
#include "core/util/crc32c.hpp"
#include "core/util/error.hpp"
#include "core/util/mapped_file.hpp"
#include "core/util/text_record.hpp"

namespace egdb::native {
namespace {

constexpr std::string_view kJournalHeader = "egdb-verify-journal 2\n";
// Read as well: its records have no digest of the files their slices' moves reach.
constexpr std::string_view kJournalHeaderV1 = "egdb-verify-journal 1\n";

[[noreturn]] void corrupt_journal(const std::filesystem::path& path, std::size_t line, const std::string& what) {
    throw CorruptDataError("verify journal " + path.string() + " line " + std::to_string(line) + ": " + what +
                           "; remove it to verify every slice again");
}

// The space-separated fields of `record`; empty fields (two spaces) make it malformed.
std::vector<std::string_view> fields_of(std::string_view record) {
    std::vector<std::string_view> fields;
    std::size_t at = 0;
    while (at <= record.size()) {
        const std::size_t space = std::min(record.find(' ', at), record.size());
        fields.push_back(record.substr(at, space - at));
        at = space + 1;
    }
    return fields;
}

bool known_kinds(std::string_view kinds) {
    for (const bool dtw : {false, true}) {
        for (const bool mtc : {false, true}) {
            if (kinds == journal_kinds(dtw, mtc)) return true;
        }
    }
    return false;
}

}  // namespace

std::string journal_kinds(bool dtw, bool mtc) { return std::string("wld") + (dtw ? ",dtw" : "") + (mtc ? ",mtc" : ""); }

VerifyJournal::VerifyJournal(std::filesystem::path path) : path_(std::move(path)) {
    std::error_code ec;
    if (!std::filesystem::exists(path_, ec)) return;
    const MappedFile file(path_);
    const std::string_view text(reinterpret_cast<const char*>(file.bytes().data()), file.bytes().size());
    const bool version1 = text.starts_with(kJournalHeaderV1);
    if (!version1 && !text.starts_with(kJournalHeader)) corrupt_journal(path_, 1, "not an egdb verify journal of version 1 or 2");
    const std::size_t record_fields = version1 ? 6 : 7;
    std::size_t at = kJournalHeader.size();
    for (std::size_t line = 2;; ++line) {
        const std::size_t eol = text.find('\n', at);
        if (eol == std::string_view::npos) corrupt_journal(path_, line, "truncated (no end line)");
        const std::vector<std::string_view> fields = fields_of(text.substr(at, eol - at));
        if (fields.size() == 2 && fields[0] == "end") {
            std::uint32_t crc = 0;
            if (!parse_whole_number(fields[1], crc, 16)) corrupt_journal(path_, line, "the end line has no checksum");
            if (crc != crc32c(text_bytes(text.substr(0, at)))) corrupt_journal(path_, line, "checksum mismatch");
            if (eol + 1 != text.size()) corrupt_journal(path_, line + 1, "text after the end line");
            return;
        }
        VerifiedSlice e;
        const std::optional<SliceId> slice = fields.size() == record_fields ? parse_slice_file_name(fields[0]) : std::nullopt;
        if (!slice || !parse_whole_number(fields[1], e.file_bytes) || !parse_whole_number(fields[2], e.file_crc, 16) ||
            !known_kinds(fields[3]) || !parse_whole_number(fields[4], e.positions) || !parse_whole_number(fields[5], e.seconds)) {
            corrupt_journal(path_, line, "not a verified slice record");
        }
        if (!version1 && fields[6] != "-") {
            std::uint32_t digest = 0;
            if (!parse_whole_number(fields[6], digest, 16)) corrupt_journal(path_, line, "not a verified slice record");
            e.successors_digest = digest;
        }
        e.slice = *slice;
        e.kinds = std::string(fields[3]);
        if (find(e.slice) != nullptr) corrupt_journal(path_, line, "slice " + e.slice.to_string() + " listed twice");
        entries_.push_back(std::move(e));
        at = eol + 1;
    }
}

const VerifiedSlice* VerifyJournal::find(SliceId slice) const noexcept {
    const auto it = std::find_if(entries_.begin(), entries_.end(), [&](const VerifiedSlice& e) { return e.slice == slice; });
    return it == entries_.end() ? nullptr : &*it;
}

void VerifyJournal::record(const VerifiedSlice& entry) {
    const auto it = std::find_if(entries_.begin(), entries_.end(), [&](const VerifiedSlice& e) { return e.slice == entry.slice; });
    if (it == entries_.end()) {
        entries_.push_back(entry);
    } else {
        *it = entry;
    }
    write();
}

void VerifyJournal::forget(SliceId slice) {
    const auto it = std::find_if(entries_.begin(), entries_.end(), [&](const VerifiedSlice& e) { return e.slice == slice; });
    if (it == entries_.end()) return;
    entries_.erase(it);
    write();
}

void VerifyJournal::write() const {
    std::string text(kJournalHeader);
    for (const VerifiedSlice& e : entries_) {
        char line[192];
        char digest[16] = "-";
        if (e.successors_digest) std::snprintf(digest, sizeof digest, "%08x", *e.successors_digest);
        const SliceId s = e.slice;
        std::snprintf(line, sizeof line, "%s %llu %08x %s %llu %.2f %s\n", slice_file_name(s.nbm, s.nbk, s.nwm, s.nwk).c_str(),
                      static_cast<unsigned long long>(e.file_bytes), e.file_crc, e.kinds.c_str(),
                      static_cast<unsigned long long>(e.positions), e.seconds, digest);
        text += line;
    }
    char end[32];
    std::snprintf(end, sizeof end, "end %08x\n", crc32c(text_bytes(text)));
    text += end;
    AtomicFileWriter out(path_);
    out.write(text_bytes(text));
    out.commit();
}

std::optional<SliceFileIdentity> SliceFileIdentities::of(SliceId slice) {
    if (const auto it = known_.find(slice); it != known_.end()) return it->second;
    const std::filesystem::path path = directory_ / slice_file_name(slice.nbm, slice.nbk, slice.nwm, slice.nwk);
    std::optional<SliceFileIdentity> identity;
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) identity = SliceFileIdentity{std::filesystem::file_size(path), file_crc32c(path)};
    known_.emplace(slice, identity);
    return identity;
}

std::optional<std::uint32_t> SliceFileIdentities::successors_digest(std::span<const SliceId> successors) {
    std::vector<std::byte> bytes;
    for (const SliceId t : successors) {
        const std::optional<SliceFileIdentity> identity = of(t);
        if (!identity) return std::nullopt;
        // Little-endian, 12 bytes a file: the digest is the same on every machine.
        for (int b = 0; b < 8; ++b) bytes.push_back(static_cast<std::byte>(identity->bytes >> (8 * b)));
        for (int b = 0; b < 4; ++b) bytes.push_back(static_cast<std::byte>(identity->crc >> (8 * b)));
    }
    return crc32c(bytes);
}

}  // namespace egdb::native
