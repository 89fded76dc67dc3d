// Every exception core throws carries its ErrorKind (core/util/error.hpp): no throw of a bare
// standard exception in core's sources, and the kinds of the typed ones.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/util/error.hpp"

namespace egdb {
namespace {

// "file:line" of every `throw std::` in `text`.
std::vector<std::string> bare_throws(const std::string& name, const std::string& text) {
    std::vector<std::string> found;
    std::istringstream lines(text);
    std::string line;
    for (int n = 1; std::getline(lines, line); ++n) {
        if (line.find("throw std::") != std::string::npos) found.push_back(name + ":" + std::to_string(n));
    }
    return found;
}

TEST(ErrorKinds, TheScanFindsABareThrow) {
    EXPECT_EQ(bare_throws("x.cpp", "int f() {\n    throw std::invalid_argument(\"no\");\n}\n"),
              std::vector<std::string>{"x.cpp:2"});
    EXPECT_TRUE(bare_throws("x.cpp", "throw InvalidArgumentError(\"no\");\n").empty());
}

TEST(ErrorKinds, CoreThrowsOnlyErrorsWithAKind) {
    const std::filesystem::path core = std::filesystem::path(EGDB_SOURCE_DIR) / "core";
    ASSERT_TRUE(std::filesystem::is_directory(core)) << core;
    std::vector<std::string> found;
    std::size_t files = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(core)) {
        const std::string ext = entry.path().extension().string();
        if (ext != ".cpp" && ext != ".hpp") continue;
        std::ifstream in(entry.path());
        std::stringstream text;
        text << in.rdbuf();
        for (std::string& f : bare_throws(entry.path().string(), text.str())) found.push_back(std::move(f));
        ++files;
    }
    EXPECT_GT(files, 100U);
    std::string list;
    for (const std::string& f : found) list += "\n  " + f;
    EXPECT_TRUE(found.empty()) << "throws without an ErrorKind (use the types of core/util/error.hpp):" << list;
}

TEST(ErrorKinds, TypedStandardErrorsKeepTheirStandardBaseAndKind) {
    try {
        throw OutOfMemoryError("no memory for a test");
    } catch (const std::bad_alloc& e) {
        EXPECT_STREQ(e.what(), "no memory for a test");
        EXPECT_EQ(kind_of(e), ErrorKind::Internal);
    }
    EXPECT_EQ(kind_of(LimitError("too large")), ErrorKind::Unsupported);
    EXPECT_EQ(kind_of(InternalError("broken")), ErrorKind::Internal);
    EXPECT_EQ(kind_of(OutOfRangeError("outside")), ErrorKind::InvalidArgument);
    EXPECT_EQ(kind_of(DistanceOverflowError("far")), ErrorKind::Unsupported);
}

}  // namespace
}  // namespace egdb
