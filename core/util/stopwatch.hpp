// Wall time since a moment, in seconds: what every workflow reports per slice, unit or file.
#pragma once

#include <chrono>

namespace egdb {

inline double seconds_since(std::chrono::steady_clock::time_point start) noexcept {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace egdb
