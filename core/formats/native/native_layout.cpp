#include "core/formats/native/native_layout.hpp"

namespace egdb::native {

std::string slice_file_name(int nbm, int nbk, int nwm, int nwk) {
    std::string name = "slice-";
    for (int c : {nbm, nbk, nwm, nwk}) name += static_cast<char>('0' + c);
    name += ".egdb";
    return name;
}

bool has_slice_files(const std::filesystem::path& directory) {
    std::error_code ec;
    for (std::filesystem::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.starts_with("slice-") && name.ends_with(".egdb")) return true;
    }
    return false;
}

}  // namespace egdb::native
