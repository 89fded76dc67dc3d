// A path as UTF-8 text for messages. What path::string() gives on Windows depends on the standard
// library (UTF-8 with libstdc++, the ANSI code page with MSVC's, which throws for characters the
// code page lacks, so a message about such a file would itself fail); u8string() is UTF-8 with
// every library and represents every path. On POSIX both are the path's bytes.
#pragma once

#include <filesystem>
#include <string>

namespace egdb {

inline std::string path_text(const std::filesystem::path& path) {
    const std::u8string text = path.u8string();
    return {text.begin(), text.end()};
}

}  // namespace egdb
