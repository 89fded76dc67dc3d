// The files of the web page (serve/web), embedded in the program at build time
// (cmake/EmbedWebAssets.cmake writes their definition), so that `egdb serve` needs no file
// beside it and no network: the page works from the build folder, installed, and offline.
#pragma once

#include <span>
#include <string_view>

namespace egdb::serve {

struct WebAsset {
    std::string_view path;          // "/index.html", "/app.js", ...
    std::string_view content_type;  // with charset for text
    std::string_view content;
};

std::span<const WebAsset> web_assets() noexcept;

}  // namespace egdb::serve
