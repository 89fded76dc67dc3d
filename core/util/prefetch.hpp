// A hint to bring the cache line holding `address` towards the core before it is read, for
// pipelines of independent lookups (one lookup's memory is requested while earlier ones are
// decoded). It never faults and has no effect on results; where the compiler has no such
// intrinsic it does nothing.
#pragma once

#if defined(_MSC_VER) && !defined(__clang__) && (defined(_M_X64) || defined(_M_IX86))
#include <xmmintrin.h>
#endif

namespace egdb {

inline void prefetch_for_read(const void* address) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(address, 0, 3);
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
    _mm_prefetch(static_cast<const char*>(address), _MM_HINT_T0);
#else
    (void)address;
#endif
}

// The same for a line that is about to be written: asks for it in exclusive state, which saves
// the second bus transaction a read-then-write otherwise costs.
inline void prefetch_for_write(const void* address) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(address, 1, 3);
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
    _mm_prefetch(static_cast<const char*>(address), _MM_HINT_T0);
#else
    (void)address;
#endif
}

}  // namespace egdb
