// The platform layer under the formats: MappedFile (read-only mapping) and AtomicFileWriter (a
// file appears complete or not at all). Both have a POSIX and a Windows implementation behind
// one header; these tests pin the behaviour both must have.
#include <gtest/gtest.h>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>
#include <string>
#include <unistd.h>
#include <utility>

#include "core/util/atomic_file_writer.hpp"
#include "core/util/mapped_file.hpp"
#include "core/util/peak_memory.hpp"
#include "tests/scratch_dir.hpp"

namespace egdb {
namespace {

class FileIo : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = test::scratch_path(std::string("file_io_") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    static void write_text(const std::filesystem::path& path, const std::string& text) {
        std::ofstream(path, std::ios::binary) << text;
    }
    static std::string read_text(const std::filesystem::path& path) {
        std::ifstream in(path, std::ios::binary);
        return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    }
    static std::string text_of(std::span<const std::byte> bytes) {
        return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
    }
    static std::span<const std::byte> bytes_of(const std::string& text) {
        return std::as_bytes(std::span(text.data(), text.size()));
    }

    std::filesystem::path dir_;
};

TEST_F(FileIo, MapsTheWholeFile) {
    const std::filesystem::path path = dir_ / "data.bin";
    std::string content(100000, '\0');
    for (std::size_t i = 0; i < content.size(); ++i) content[i] = static_cast<char>(i * 7 % 251);
    write_text(path, content);
    const MappedFile file(path);
    EXPECT_EQ(file.size(), content.size());
    EXPECT_EQ(file.path(), path);
    EXPECT_EQ(text_of(file.bytes()), content);
}

// What `egdb verify` under a budget relies on: the pages of a file read through the mapping
// count in the process's resident set until they are given back, and reading after that still
// gives every byte.
TEST_F(FileIo, ReleasedPagesLeaveTheResidentSetAndReadAgain) {
    const std::filesystem::path path = dir_ / "large.bin";
    constexpr std::size_t kBytes = std::size_t{64} << 20;
    std::string content(kBytes, '\0');
    for (std::size_t i = 0; i < content.size(); i += 4096) content[i] = static_cast<char>(i / 4096 % 251 + 1);
    write_text(path, content);
    content.clear();
    content.shrink_to_fit();
    const MappedFile file(path);
    const auto read_every_page = [&] {
        std::size_t sum = 0;
        for (std::size_t i = 0; i < file.size(); i += 4096) sum += static_cast<unsigned char>(file.bytes()[i]);
        return sum;
    };
    const auto resident_mib = [] { return static_cast<double>(resident_memory_bytes()) / (1024.0 * 1024.0); };
    const double before = resident_mib();
    ASSERT_GT(before, 0.0) << "this system does not report the resident set";
    const std::size_t sum = read_every_page();
    const double read = resident_mib();
    EXPECT_GT(read - before, 48.0) << "mapped pages read did not become resident";
    file.release_resident_pages();
    const double released = resident_mib();
    EXPECT_GT(read - released, 48.0) << "resident " << before << " MiB, " << read << " after reading, " << released
                                     << " after release";
    EXPECT_EQ(read_every_page(), sum);

    // A range gives back its own pages only: the first half (from an offset inside a page, as a
    // reader's window may start), then nothing for a range past the end, then the rest.
    const double reread = resident_mib();
    file.release_resident_pages(100, kBytes / 2 - 100);
    const double half = resident_mib();
    EXPECT_GT(reread - half, 24.0) << "the first half stayed resident";
    EXPECT_LT(reread - half, 40.0) << "more than the first half left the resident set";
    file.release_resident_pages(kBytes, 4096);
    file.release_resident_pages(kBytes + 1, 1);
    EXPECT_GT(resident_mib(), half - 8.0) << "a range past the end gave back pages";
    file.release_resident_pages(kBytes / 2, kBytes);  // the length is clamped to the file
    EXPECT_GT(half - resident_mib(), 24.0) << "the second half stayed resident";
    EXPECT_EQ(read_every_page(), sum);
}

TEST_F(FileIo, AnEmptyFileMapsToNoBytes) {
    const std::filesystem::path path = dir_ / "empty.bin";
    write_text(path, "");
    const MappedFile file(path);
    EXPECT_EQ(file.size(), 0U);
    EXPECT_TRUE(file.bytes().empty());
}

TEST_F(FileIo, AMissingFileIsAFileErrorNamingIt) {
    const std::filesystem::path path = dir_ / "missing.bin";
    try {
        const MappedFile file(path);
        FAIL() << "mapped a file that does not exist";
    } catch (const FileError& e) {
        EXPECT_NE(std::string(e.what()).find("cannot open " + path.string() + ": "), std::string::npos) << e.what();
    }
}

TEST_F(FileIo, AMoveTransfersTheMapping) {
    const std::filesystem::path path = dir_ / "data.bin";
    write_text(path, "abcdef");
    MappedFile first(path);
    MappedFile second(std::move(first));
    EXPECT_TRUE(first.bytes().empty());  // a moved-from MappedFile maps nothing
    EXPECT_EQ(text_of(second.bytes()), "abcdef");
    MappedFile third;
    third = std::move(second);
    EXPECT_TRUE(second.bytes().empty());
    EXPECT_EQ(text_of(third.bytes()), "abcdef");
    EXPECT_EQ(third.path(), path);
}

TEST_F(FileIo, ACommittedFileHasEveryByteAndNoTemporaryIsLeft) {
    const std::filesystem::path path = dir_ / "out.bin";
    AtomicFileWriter writer(path);
    EXPECT_EQ(writer.temporary_path(), dir_ / "out.bin.tmp");
    writer.write(bytes_of("header|"));
    writer.write(bytes_of(""));
    writer.write(bytes_of(std::string(70000, 'x')));
    EXPECT_FALSE(std::filesystem::exists(path)) << "the final name must not exist before commit";
    writer.commit();
    EXPECT_EQ(read_text(path), "header|" + std::string(70000, 'x'));
    EXPECT_FALSE(std::filesystem::exists(writer.temporary_path()));
}

TEST_F(FileIo, CommitReplacesAnOlderFile) {
    const std::filesystem::path path = dir_ / "out.bin";
    write_text(path, "old and longer than the new content");
    {
        AtomicFileWriter writer(path);
        writer.write(bytes_of("new"));
        writer.commit();
    }
    EXPECT_EQ(read_text(path), "new");
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir_), std::filesystem::directory_iterator()), 1);
}

TEST_F(FileIo, AWriteThatIsNotCommittedLeavesNothing) {
    const std::filesystem::path path = dir_ / "out.bin";
    {
        AtomicFileWriter writer(path);
        writer.write(bytes_of("partial"));
        EXPECT_TRUE(std::filesystem::exists(writer.temporary_path()));
    }
    EXPECT_FALSE(std::filesystem::exists(path));
    EXPECT_TRUE(std::filesystem::is_empty(dir_));
}

TEST_F(FileIo, AWriteThatIsNotCommittedKeepsTheOlderFile) {
    const std::filesystem::path path = dir_ / "out.bin";
    write_text(path, "old");
    {
        AtomicFileWriter writer(path);
        writer.write(bytes_of("new"));
    }
    EXPECT_EQ(read_text(path), "old");
    EXPECT_FALSE(std::filesystem::exists(dir_ / "out.bin.tmp"));
}

TEST_F(FileIo, AMissingDirectoryIsAFileErrorNamingTheTemporaryFile) {
    const std::filesystem::path path = dir_ / "no-such-directory" / "out.bin";
    try {
        AtomicFileWriter writer(path);
        FAIL() << "created a file in a directory that does not exist";
    } catch (const FileError& e) {
        EXPECT_NE(std::string(e.what()).find("cannot create " + path.string() + ".tmp: "), std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace egdb
