// The zstd decompression contexts of one slice file, shared by the threads that read its pages.
//
// Why not one thread_local context per thread (as this was): on Windows the DLL is built with
// MinGW-w64, whose emulated TLS frees a thread's thread_local storage before libstdc++ runs the
// destructors of its thread_local objects, so every worker thread that had decompressed a page
// crashed when it ended, calling the freed context's deleter (found by running egdb.dll under
// Wine, tests/windows/wine_capi_test.sh). A context is not cheap to create (about 100 KB, more
// than a page miss costs), so the file keeps a few: a thread takes one from a slot with an atomic
// exchange (no lock), decompresses, and puts it back in an empty slot, or frees it when every
// slot is full. At most kSlots contexts stay with a file.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <span>

struct ZSTD_DCtx_s;

namespace egdb::native {

class ZstdContexts {
public:
    static constexpr std::size_t kSlots = 4;

    ZstdContexts() = default;
    ~ZstdContexts();
    ZstdContexts(const ZstdContexts&) = delete;
    ZstdContexts& operator=(const ZstdContexts&) = delete;

    // ZSTD_decompressDCtx of `compressed` into `out` with one of the contexts: the number of
    // bytes written or a zstd error code (ZSTD_isError). Throws std::bad_alloc when no context can
    // be created.
    std::size_t decompress(std::span<std::byte> out, std::span<const std::byte> compressed);

private:
    std::array<std::atomic<ZSTD_DCtx_s*>, kSlots> slots_{};
};

}  // namespace egdb::native
