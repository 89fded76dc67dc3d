#include "core/util/peak_memory.hpp"

#include <cstdio>
#include <sys/resource.h>
#include <unistd.h>

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

std::uint64_t resident_memory_bytes() noexcept {
    // Linux: the second field of /proc/self/statm is the resident set in pages. Elsewhere the
    // file is absent and the answer is "unknown".
    std::FILE* statm = std::fopen("/proc/self/statm", "r");
    if (statm == nullptr) return 0;
    unsigned long long total = 0, resident = 0;
    const int fields = std::fscanf(statm, "%llu %llu", &total, &resident);
    std::fclose(statm);
    const long page_size = ::sysconf(_SC_PAGESIZE);
    if (fields != 2 || page_size <= 0) return 0;
    return static_cast<std::uint64_t>(resident) * static_cast<std::uint64_t>(page_size);
}

std::uint64_t physical_memory_bytes() noexcept {
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long page_size = ::sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page_size <= 0) return 0;
    return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
}

}  // namespace egdb
