#include "core/util/resources.hpp"

#include <thread>

namespace egdb {

int machine_threads() noexcept {
    const unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : static_cast<int>(n);
}

}  // namespace egdb
