// Part files (formats/native/slice_part_file.hpp): a slice encoded as page ranges on separate
// workers and assembled gives the bytes of the single-process writer, whatever the cut; damaged,
// misplaced or missing parts are refused with an error naming them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <vector>

#include "core/formats/native/native_layout.hpp"
#include "core/formats/native/slice_file_reader.hpp"
#include "core/formats/native/slice_file_writer.hpp"
#include "core/formats/native/slice_part_file.hpp"
#include "core/util/error.hpp"
#include "tests/scratch_dir.hpp"

namespace egdb::native {
namespace {

std::vector<char> file_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Values with long runs (as real sections have), some constant stretches and "don't care" bits.
struct SliceValues {
    explicit SliceValues(std::uint64_t n, unsigned seed) : wld(n), dtw(n), mtc(n), dont_care((n + 63) / 64) {
        std::mt19937 rng(seed);
        std::uint8_t w = 1, d = 7, m = 3;
        for (std::uint64_t i = 0; i < n; ++i) {
            if (rng() % 37 == 0) w = static_cast<std::uint8_t>(rng() % 3);
            if (rng() % 5 == 0) d = static_cast<std::uint8_t>(rng() % 90);
            if (rng() % 11 == 0) m = static_cast<std::uint8_t>(rng() % 40);
            wld[i] = w;
            dtw[i] = d;
            mtc[i] = m;
            if (rng() % 7 == 0) dont_care[i / 64] |= std::uint64_t{1} << (i % 64);
        }
        // A stretch where every position is "don't care", one where the values are constant.
        for (std::uint64_t i = n / 3; i < n / 3 + 700 && i < n; ++i) dont_care[i / 64] |= std::uint64_t{1} << (i % 64);
        for (std::uint64_t i = n / 2; i < n / 2 + 900 && i < n; ++i) wld[i] = 2, dtw[i] = 5, mtc[i] = 9;
    }
    std::vector<SectionValues> sections(std::uint64_t first, std::uint64_t count) const {
        std::vector<SectionValues> s = {
            {.kind = ValueKind::Wld, .side = Color::Black, .values8 = wld, .dont_care = dont_care},
            {.kind = ValueKind::Dtw, .side = Color::Black, .values8 = dtw, .dont_care = dont_care},
            {.kind = ValueKind::Mtc, .side = Color::White, .values8 = mtc, .dont_care = dont_care},
        };
        for (SectionValues& v : s) v = v.subrange(first, count);
        return s;
    }
    std::vector<std::uint8_t> wld, dtw, mtc;
    std::vector<std::uint64_t> dont_care;
};

class SlicePartFiles : public ::testing::Test {
protected:
    static constexpr SliceId kSlice{1, 1, 1, 0};  // 90,675 positions
    SlicePartFiles() {
        format_.wld_page_positions = 1024;
        format_.distance_page_positions = 256;
        format_.zstd_level = 3;
    }
    // Writes the parts of `n` positions each (the last one shorter) and returns their paths.
    std::vector<std::filesystem::path> write_parts(const SliceValues& v, std::uint64_t positions_per_part) {
        std::vector<std::filesystem::path> paths;
        const std::uint64_t n = slice_size(kSlice);
        for (std::uint64_t first = 0; first < n; first += positions_per_part) {
            const std::uint64_t count = std::min(positions_per_part, n - first);
            const int part = static_cast<int>(paths.size());
            paths.push_back(dir_.path() / "parts" / slice_part_file_name(kSlice, part));
            write_slice_part_file(paths.back(), kSlice, part, first, count, v.sections(first, count), format_);
        }
        return paths;
    }
    test::ScratchDir dir_{"slice_part_files"};
    WriteOptions format_;
};

TEST_F(SlicePartFiles, AssembledFileIsTheSingleWritersBytesForEveryCut) {
    const std::uint64_t n = slice_size(kSlice);
    const SliceValues values(n, 11);
    const std::filesystem::path whole = dir_.sub("whole");
    for (int threads : {1, 2}) {
        WriteOptions format = format_;
        format.threads = threads;
        write_slice_file(whole, kSlice, values.sections(0, n), format);
        const std::vector<char> expected = file_bytes(whole / "slice-1110.egdb");
        ASSERT_FALSE(expected.empty());
        EXPECT_EQ(SliceFileReader(whole / "slice-1110.egdb").check_page_crcs([](int, std::uint64_t) {}), 0U);
        for (const std::uint64_t per_part : {std::uint64_t{1024}, std::uint64_t{4096}, std::uint64_t{65536}, n}) {
            std::filesystem::create_directories(dir_.path() / "parts");
            const auto parts = write_parts(values, per_part);
            EXPECT_EQ(parts.size(), (n + per_part - 1) / per_part);
            const std::filesystem::path assembled = dir_.sub("assembled");
            const std::uint64_t size = assemble_slice_file(assembled, kSlice, parts);
            EXPECT_EQ(size, expected.size());
            EXPECT_TRUE(file_bytes(assembled / "slice-1110.egdb") == expected) << per_part << " positions per part, " << threads << " threads";
            std::filesystem::remove_all(dir_.path() / "parts");
        }
    }
}

TEST_F(SlicePartFiles, DamagedMisplacedAndMissingPartsAreRefused) {
    const std::uint64_t n = slice_size(kSlice);
    const SliceValues values(n, 12);
    std::filesystem::create_directories(dir_.path() / "parts");
    const auto parts = write_parts(values, 8192);
    ASSERT_GE(parts.size(), 4U);
    const std::filesystem::path out = dir_.sub("out");
    const auto refuses = [&](const std::vector<std::filesystem::path>& list, const std::string& naming) {
        try {
            assemble_slice_file(out, kSlice, list);
            ADD_FAILURE() << "accepted parts that " << naming;
        } catch (const CorruptDataError& e) {
            EXPECT_NE(std::string(e.what()).find("part"), std::string::npos) << e.what();
        }
        EXPECT_FALSE(std::filesystem::exists(out / "slice-1110.egdb"));
        EXPECT_TRUE(std::filesystem::is_empty(out)) << "a temporary file was left";
    };
    refuses({parts.begin(), parts.end() - 1}, "miss the last one");
    refuses({parts[1], parts[0], parts[2], parts[3]}, "come out of order");
    {
        std::vector<std::filesystem::path> swapped = parts;
        std::swap(swapped[1], swapped[2]);
        refuses(swapped, "are swapped");
    }
    // A flipped byte in the pages of part 2: its checksum fails.
    const std::filesystem::path damaged = dir_.path() / "parts" / "damaged.egdbp";
    std::filesystem::copy_file(parts[2], damaged);
    {
        std::fstream f(damaged, std::ios::in | std::ios::out | std::ios::binary);
        f.seekg(-40, std::ios::end);
        char c = 0;
        f.read(&c, 1);
        f.seekp(-40, std::ios::end);
        c = static_cast<char>(c ^ 0x10);
        f.write(&c, 1);
    }
    std::vector<std::filesystem::path> with_damage = parts;
    with_damage[2] = damaged;
    EXPECT_THROW(SlicePartFile(damaged).verify_data(), CorruptDataError);
    refuses(with_damage, "are damaged");
    // Truncated, and not a part file at all.
    std::filesystem::resize_file(damaged, std::filesystem::file_size(damaged) - 3);
    EXPECT_THROW(SlicePartFile{damaged}, CorruptDataError);
    refuses(with_damage, "are truncated");
    {
        const std::filesystem::path other = dir_.path() / "other.egdbp";
        std::ofstream(other, std::ios::binary) << "EGDBNAT\x01 this is no part file at all, only text";
        EXPECT_THROW(SlicePartFile{other}, CorruptDataError);
    }
    // A range that is not whole pages is refused before anything is written.
    EXPECT_THROW(write_slice_part_file(dir_.path() / "bad.egdbp", kSlice, 0, 0, 1000, values.sections(0, 1000), format_),
                 std::invalid_argument);
    EXPECT_THROW(write_slice_part_file(dir_.path() / "bad.egdbp", kSlice, 0, 512, 1024, values.sections(512, 1024), format_),
                 std::invalid_argument);
    EXPECT_FALSE(std::filesystem::exists(dir_.path() / "bad.egdbp"));
    // The good parts still assemble.
    EXPECT_GT(assemble_slice_file(out, kSlice, parts), 0U);
}

}  // namespace
}  // namespace egdb::native
