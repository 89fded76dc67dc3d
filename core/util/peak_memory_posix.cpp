#include "core/util/peak_memory.hpp"

#include <sys/resource.h>

namespace egdb {

double peak_memory_mib() noexcept {
    struct rusage usage {};
    if (::getrusage(RUSAGE_SELF, &usage) != 0) return 0;
#if defined(__APPLE__)
    return static_cast<double>(usage.ru_maxrss) / (1024.0 * 1024.0);  // bytes on macOS
#else
    return static_cast<double>(usage.ru_maxrss) / 1024.0;  // KiB on Linux
#endif
}

}  // namespace egdb
