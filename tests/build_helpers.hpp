// What the build tests share: reading a file whole, and the request of a native build without
// its verification pass (the tests compare the files themselves).
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

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
    request.resources.threads = 2;
    request.verify = false;
    return request;
}

}  // namespace egdb::test
