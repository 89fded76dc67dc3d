// What the build tests share: reading a file whole, and the request of a native build without
// its verification pass (the tests compare the files themselves).
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "core/util/peak_memory.hpp"
#include "core/workflow/build.hpp"

namespace egdb::test {

inline std::string slurp(const std::filesystem::path& p) {
    std::ifstream f(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
}

// A native build of up to `pieces` pieces into `dir` on 2 threads, without the verification pass.
inline workflow::BuildRequest unverified_build(const std::filesystem::path& dir, int pieces) {
    workflow::BuildRequest request;
    request.out = dir;
    request.pieces = pieces;
    request.threads = 2;
    request.verify = false;
    return request;
}

// The page cache a build or verification takes of a memory budget: an eighth, 8 MiB .. 1 GiB.
inline std::uint64_t budget_page_cache(std::uint64_t budget) {
    return std::clamp<std::uint64_t>(budget / 8, std::uint64_t{8} << 20, std::uint64_t{1} << 30);
}

// A memory budget that leaves `room` bytes for solutions beside what this process holds now and
// the page cache: the budget bounds the whole process (DecodedSlicePlan), and a test process holds
// far more than the small build under test.
inline std::uint64_t budget_leaving(std::uint64_t room) {
    const std::uint64_t now = resident_memory_bytes();
    const std::uint64_t budget = (now + room) * 8 / 7;  // its eighth is the cache
    return budget_page_cache(budget) == budget / 8 ? budget : now + room + budget_page_cache(now + room);
}

}  // namespace egdb::test
