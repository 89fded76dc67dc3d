#include "core/formats/native/native_layout.hpp"

#include <array>

namespace egdb::native {

std::string slice_file_name(int nbm, int nbk, int nwm, int nwk) {
    std::string name = "slice-";
    for (int c : {nbm, nbk, nwm, nwk}) name += static_cast<char>('0' + c);
    name += ".egdb";
    return name;
}

std::optional<SliceId> parse_slice_file_name(std::string_view name) noexcept {
    constexpr std::string_view prefix = "slice-";
    constexpr std::string_view suffix = ".egdb";
    if (name.size() != prefix.size() + 4 + suffix.size() || !name.starts_with(prefix) || !name.ends_with(suffix)) {
        return std::nullopt;
    }
    std::array<int, 4> counts{};
    for (std::size_t k = 0; k < 4; ++k) {
        const char c = name[prefix.size() + k];
        if (c < '0' || c > '9') return std::nullopt;
        counts[k] = c - '0';
    }
    return SliceId{counts[0], counts[1], counts[2], counts[3]};
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
