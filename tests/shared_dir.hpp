// Where the tests find the reference material (../shared: oracles, Kingsrow tables). Tests that
// need it use EGDB_REQUIRE_SHARED_FILE and are reported as skipped, with the reason, without it.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

namespace egdb::test {

inline std::filesystem::path shared_dir() {
    if (const char* env = std::getenv("EGDB_SHARED_DIR"); env != nullptr && *env != '\0') return env;
    return EGDB_SHARED_DIR;
}

inline std::filesystem::path cli_path() { return EGDB_CLI_PATH; }

}  // namespace egdb::test

// Skips the calling test when `relative` (a path below the shared folder) does not exist.
#define EGDB_REQUIRE_SHARED_FILE(var, relative)                                                  \
    const std::filesystem::path var = ::egdb::test::shared_dir() / (relative);                     \
    if (!std::filesystem::exists(var))                                                            \
    GTEST_SKIP() << "needs the reference material " << var.string()                             \
                 << " (set EGDB_SHARED_DIR or check out ../shared beside the project)"
