#include "core/formats/native/zstd_contexts.hpp"

#include <new>
#include <zstd.h>

#include "core/util/error.hpp"

namespace egdb::native {

ZstdContexts::~ZstdContexts() {
    for (auto& slot : slots_) ZSTD_freeDCtx(slot.load(std::memory_order_acquire));
}

std::size_t ZstdContexts::decompress(std::span<std::byte> out, std::span<const std::byte> compressed) {
    ZSTD_DCtx* context = nullptr;
    for (auto& slot : slots_) {
        context = slot.exchange(nullptr, std::memory_order_acquire);
        if (context != nullptr) break;
    }
    if (context == nullptr) context = ZSTD_createDCtx();
    if (context == nullptr) throw OutOfMemoryError("no memory for a zstd context");
    const std::size_t n = ZSTD_decompressDCtx(context, out.data(), out.size(), compressed.data(), compressed.size());
    for (auto& slot : slots_) {
        ZSTD_DCtx* empty = nullptr;
        if (slot.compare_exchange_strong(empty, context, std::memory_order_release, std::memory_order_relaxed)) {
            return n;
        }
    }
    ZSTD_freeDCtx(context);
    return n;
}

}  // namespace egdb::native
