// How a Kingsrow database is opened: the upstream options string (12.1), the memory budget of
// 12.2 (upstream's cache_mb, here in bytes like every cache size of egdb), and egdb's own controls
// over the memory plan.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/cache/shared_page_cache.hpp"

namespace egdb::kingsrow {

// Which files are read whole into memory at open ("autoloaded", 12.2).
enum class AutoloadPolicy : std::uint8_t {
    AsUpstream,  // the driver's budget rule of 12.2 (MTC: none)
    All,         // every file
    None,        // none: every block goes through the LRU cache
};

struct KingsrowOpenOptions {
    std::string options;    // upstream options string, e.g. "maxpieces=6"
    std::size_t cache_bytes = 0;  // upstream cache_mb in bytes (12.2); small values get the 10 MiB minimum
    AutoloadPolicy autoload = AutoloadPolicy::AsUpstream;
    bool preload = true;    // fill the LRU cache at open, as upstream (12.2 item 5)
    std::function<void(std::string_view)> messages;  // upstream msg_fn: progress and notes
    // A handle's cache to join instead of a cache of its own (cache_bytes then still steers the
    // autoload rule): the database has no cache, and does not preload, until attach_cache.
    SharedPageCache* shared_cache = nullptr;
};

// The `maxpieces` option parsed as the driver does (12.1): find the substring "maxpieces", skip
// to the next '=', skip blanks, read an integer as atoi does. Anything else in the string is
// ignored. nullopt when absent; a "maxpieces" without a following '=' counts as absent (upstream
// would read past the end of the string). Values <= 0 mean "no limit", as upstream.
std::optional<int> parse_maxpieces_option(std::string_view options) noexcept;

// egdb's reading of maxpieces (egdb_open, KingsrowDatabase::open): the limit (0: none), or why the options
// cannot be taken. Stricter than the driver (which reads "maxpieces=abc" as 0, no limit): a
// maxpieces that is not "maxpieces=N" with N a whole number >= 0 (at most 4 digits) is refused,
// so that a typo never opens more pieces than asked for. Other words are ignored as upstream does.
struct MaxPiecesOption {
    int limit = 0;
    std::string problem;  // empty when the options can be taken
};
MaxPiecesOption read_maxpieces_option(std::string_view options);

// The piece count to open: min(identified, maxpieces) when maxpieces > 0, else identified.
int effective_max_pieces(int identified, std::string_view options) noexcept;

}  // namespace egdb::kingsrow
