#include "core/workflow/info.hpp"

#include <algorithm>

#include "core/formats/native/native_database.hpp"
#include "core/formats/native/native_layout.hpp"
#include "core/probe/database.hpp"
#include "core/util/directory_problem.hpp"

namespace egdb::workflow {

double DatabaseInfo::bits_per_position(std::uint64_t bytes) const noexcept {
    return positions_both_sides == 0 ? 0.0 : 8.0 * static_cast<double>(bytes) / static_cast<double>(positions_both_sides);
}

DatabaseInfo describe_database(const std::filesystem::path& directory) {
    DatabaseInfo info;
    info.directory = directory;
    if (const std::string problem = directory_problem(directory); !problem.empty()) {
        throw DatabaseError("cannot describe " + directory.string() + ": " + problem);
    }
    if (native::has_slice_files(directory)) {
        const native::NativeDatabase db{directory};
        info.type = DatabaseType::Native;
        info.max_pieces = db.max_pieces();
        info.has_wld = true;
        info.has_dtw = db.has_kind(native::ValueKind::Dtw);
        info.has_mtc = db.has_kind(native::ValueKind::Mtc);
        for (const native::SliceFileReader* f : db.files()) {
            SliceInfo s;
            s.slice = f->slice();
            s.positions = f->positions();
            s.file_bytes = f->file_size();
            for (const native::SectionDescriptor& d : f->sections()) {
                const auto k = static_cast<std::size_t>(d.kind);
                s.kind_bytes[k] += d.pages_bytes;
                if (d.kind == native::ValueKind::Dtw) s.max_dtw = std::max(s.max_dtw, d.max_value);
                if (d.kind == native::ValueKind::Mtc) s.max_mtc = std::max(s.max_mtc, d.max_value);
            }
            info.positions_both_sides += 2 * s.positions;
            info.total_bytes += s.file_bytes;
            info.slices.push_back(s);
        }
        return info;
    }
    const std::unique_ptr<Database> db = Database::open(directory);
    info.type = db->type();
    info.max_pieces = db->max_pieces();
    info.has_wld = db->has_wld();
    info.has_dtw = db->has_dtw();
    info.has_mtc = db->has_mtc();
    for (SliceId s : all_slices(db->max_pieces())) {
        if (is_canonical(s)) info.positions_both_sides += slice_size(s) * (is_color_symmetric(s) ? 1 : 2);
    }
    // The files of every folder opened (a Kingsrow installation's folders named with their folder),
    // each once, however many kinds a folder holds.
    std::vector<std::filesystem::path> folders;
    for (const std::unique_ptr<Backend>& backend : db->backends()) {
        if (std::find(folders.begin(), folders.end(), backend->directory()) == folders.end()) folders.push_back(backend->directory());
    }
    for (const std::filesystem::path& folder : folders) {
        for (const auto& entry : std::filesystem::directory_iterator(folder)) {
            if (!entry.is_regular_file()) continue;
            const std::uint64_t bytes = entry.file_size();
            const std::string name = entry.path().filename().string();
            info.files.push_back({folder == directory ? name : folder.filename().string() + "/" + name, bytes});
            info.total_bytes += bytes;
        }
    }
    std::sort(info.files.begin(), info.files.end(), [](const FileInfo& a, const FileInfo& b) { return a.name < b.name; });
    return info;
}

}  // namespace egdb::workflow
