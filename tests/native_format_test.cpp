// The native slice file (docs/native-format.md): round trips, constant pages, "don't care"
// positions, and rejection of damaged, truncated and missing files.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <vector>

#include "core/formats/native/native_layout.hpp"
#include "core/formats/native/page_encoder.hpp"
#include "core/formats/native/slice_file_reader.hpp"
#include "core/formats/native/slice_file_writer.hpp"
#include "tests/scratch_dir.hpp"

namespace egdb::native {
namespace {

class NativeFormat : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = test::scratch_path(std::string("native_format_") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    std::vector<std::uint32_t> read_all(const SliceFileReader& r, int section) {
        const SectionDescriptor& d = r.sections()[static_cast<std::size_t>(section)];
        std::vector<std::uint32_t> out;
        std::vector<std::byte> page;
        for (std::uint64_t p = 0; p < d.page_count; ++p) {
            r.load_page(section, p, page);
            const std::uint64_t first = p * d.positions_per_page;
            const std::uint64_t count = std::min<std::uint64_t>(d.positions_per_page, r.positions() - first);
            for (std::uint64_t k = 0; k < count; ++k) out.push_back(packed_value(page, d.value_bits, k));
        }
        return out;
    }

    std::filesystem::path dir_;
};

TEST_F(NativeFormat, RoundTripsEveryKindAndWidth) {
    const SliceId slice{1, 0, 1, 0};  // 1985 positions
    const std::uint64_t n = slice_size(slice);
    std::mt19937 rng(5);
    std::vector<std::uint8_t> wld(n), mtc(n);
    std::vector<std::uint16_t> dtw(n);
    for (std::uint64_t i = 0; i < n; ++i) {
        wld[i] = static_cast<std::uint8_t>(rng() % 3);
        mtc[i] = static_cast<std::uint8_t>(rng() % 200);
        dtw[i] = static_cast<std::uint16_t>(rng() % 1000);
    }
    const std::vector<SectionValues> sections = {
        {.kind = ValueKind::Wld, .side = Color::Black, .values8 = wld},
        {.kind = ValueKind::Dtw, .side = Color::White, .values16 = dtw},
        {.kind = ValueKind::Mtc, .side = Color::Black, .values8 = mtc},
    };
    WriteOptions options;
    options.wld_page_positions = 256;  // several pages, the last one partial
    options.distance_page_positions = 128;
    write_slice_file(dir_, slice, sections, options);
    const SliceFileReader r(dir_ / "slice-1010.egdb");
    EXPECT_EQ(r.slice(), slice);
    ASSERT_EQ(r.sections().size(), 3U);
    EXPECT_EQ(r.find_section(ValueKind::Dtw, Color::White), 1);
    EXPECT_EQ(r.find_section(ValueKind::Dtw, Color::Black), -1);
    EXPECT_EQ(r.sections()[1].value_bits, 16);
    EXPECT_EQ(r.sections()[2].value_bits, 8);
    const auto w = read_all(r, 0), d = read_all(r, 1), m = read_all(r, 2);
    for (std::uint64_t i = 0; i < n; ++i) {
        ASSERT_EQ(w[i], wld[i]) << i;
        ASSERT_EQ(d[i], dtw[i]) << i;
        ASSERT_EQ(m[i], mtc[i]) << i;
    }
    EXPECT_EQ(r.check_page_crcs([](int, std::uint64_t) {}), 0U);
    for (const auto& entry : std::filesystem::directory_iterator(dir_)) {
        EXPECT_EQ(entry.path().extension(), ".egdb") << "temporary file left behind: " << entry.path();
    }
}

TEST_F(NativeFormat, ConstantPagesAndDontCarePositions) {
    const SliceId slice{0, 1, 0, 1};  // 2450 positions
    const std::uint64_t n = slice_size(slice);
    std::vector<std::uint8_t> wld(n, kStoredWin);
    std::vector<std::uint64_t> dont_care((n + 63) / 64, 0);
    for (std::uint64_t i = 1000; i < 1100; ++i) {
        wld[i] = kStoredLoss;  // marked don't care: may read back as anything
        dont_care[i / 64] |= std::uint64_t{1} << (i % 64);
    }
    wld[2000] = kStoredDraw;
    const std::vector<SectionValues> sections = {
        {.kind = ValueKind::Wld, .side = Color::Black, .values8 = wld, .dont_care = dont_care}};
    WriteOptions options;
    options.wld_page_positions = 512;
    write_slice_file(dir_, slice, sections, options);
    const SliceFileReader r(dir_ / "slice-0101.egdb");
    int constant_pages = 0;
    for (std::uint64_t p = 0; p < r.sections()[0].page_count; ++p) constant_pages += r.page(0, p).size == 0 ? 1 : 0;
    EXPECT_EQ(constant_pages, 4) << "only the page holding 2000 differs; don't-care runs must not break pages";
    const auto w = read_all(r, 0);
    for (std::uint64_t i = 0; i < n; ++i) {
        if (i >= 1000 && i < 1100) continue;
        ASSERT_EQ(w[i], wld[i]) << i;
    }
}

// The encoder refuses a meaningful value wider than its section's bits, and takes any value at
// a "don't care" position, which repeats a meaningful one instead.
TEST_F(NativeFormat, AValueWiderThanItsBitsIsRefusedUnlessNobodyCares) {
    std::vector<std::uint8_t> wld(4096, kStoredWin);
    std::vector<std::uint64_t> dont_care(64, 0);
    wld[700] = 3;  // above kStoredWin: does not fit a WLD code
    PageEncoder encoder(ValueKind::Wld, 1);
    const SectionValues values{.kind = ValueKind::Wld, .side = Color::Black, .values8 = wld, .dont_care = dont_care};
    try {
        encoder.encode(values, 512, 2);
        ADD_FAILURE() << "a WLD value of 3 was encoded";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("does not fit in 2 bits"), std::string::npos) << e.what();
    }
    dont_care[700 / 64] |= std::uint64_t{1} << (700 % 64);
    const EncodedPages pages = encoder.encode(values, 512, 2);
    EXPECT_EQ(pages.max_value, kStoredWin);
    EXPECT_EQ(pages.bytes.size(), 0u) << "every page is constant once the 3 is don't care";
    std::vector<std::uint8_t> distances(1024, 7);
    distances[1000] = 255;
    EXPECT_NO_THROW(encoder.encode({.kind = ValueKind::Dtw, .values8 = distances}, 512, 8));
}

TEST_F(NativeFormat, RejectsDamagedTruncatedAndMissingFiles) {
    const SliceId slice{1, 0, 1, 0};
    const std::uint64_t n = slice_size(slice);
    std::vector<std::uint8_t> wld(n);
    std::mt19937 rng(9);
    for (auto& v : wld) v = static_cast<std::uint8_t>(rng() % 3);
    const std::vector<SectionValues> sections = {{.kind = ValueKind::Wld, .side = Color::Black, .values8 = wld}};
    WriteOptions options;
    options.wld_page_positions = 256;
    write_slice_file(dir_, slice, sections, options);
    const auto path = dir_ / "slice-1010.egdb";
    const auto size = std::filesystem::file_size(path);

    EXPECT_THROW(SliceFileReader(dir_ / "slice-2010.egdb"), FileError);

    // A flipped byte in the last page: the file opens, the page read reports the checksum.
    {
        std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
        f.seekg(static_cast<std::streamoff>(size - 3));
        char c;
        f.get(c);
        f.seekp(static_cast<std::streamoff>(size - 3));
        f.put(static_cast<char>(c ^ 0x40));
    }
    {
        const SliceFileReader r(path);
        std::vector<std::byte> page;
        const std::uint64_t last = r.sections()[0].page_count - 1;
        try {
            r.load_page(0, last, page);
            FAIL() << "corrupt page was read";
        } catch (const CorruptDataError& e) {
            EXPECT_NE(std::string(e.what()).find("checksum"), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("slice-1010.egdb"), std::string::npos) << e.what();
        }
        EXPECT_EQ(r.check_page_crcs([](int, std::uint64_t) {}), 1U);
        EXPECT_NO_THROW(r.load_page(0, 0, page));
    }
    // Truncated: rejected when opened.
    std::filesystem::resize_file(path, size / 2);
    EXPECT_THROW(SliceFileReader{path}, CorruptDataError);
    std::filesystem::resize_file(path, 10);
    EXPECT_THROW(SliceFileReader{path}, CorruptDataError);
    // Not an egdb file at all.
    std::ofstream(path, std::ios::trunc) << "this is not a database file, just some text that is long enough";
    try {
        SliceFileReader r(path);
        FAIL();
    } catch (const CorruptDataError& e) {
        EXPECT_NE(std::string(e.what()).find("not an egdb"), std::string::npos) << e.what();
    }
}

TEST_F(NativeFormat, WriteErrorsAreClear) {
    const SliceId slice{0, 1, 0, 1};
    std::vector<std::uint8_t> wld(slice_size(slice), kStoredDraw);
    const std::vector<SectionValues> sections = {{.kind = ValueKind::Wld, .side = Color::Black, .values8 = wld}};
    EXPECT_THROW(write_slice_file(dir_ / "does-not-exist", slice, sections), FileError);
    std::vector<std::uint8_t> short_values(10, 0);
    const std::vector<SectionValues> bad = {{.kind = ValueKind::Wld, .side = Color::Black, .values8 = short_values}};
    EXPECT_THROW(write_slice_file(dir_, slice, bad), std::invalid_argument);
    EXPECT_FALSE(std::filesystem::exists(dir_ / "slice-0101.egdb"));
}

}  // namespace
}  // namespace egdb::native

namespace egdb {
namespace {

TEST(NativeLayout, SliceFileNamesParseBackAndNothingElseParses) {
    for (const SliceId s : {SliceId{0, 1, 0, 1}, SliceId{1, 2, 1, 2}, SliceId{5, 0, 0, 5}}) {
        const auto parsed = native::parse_slice_file_name(native::slice_file_name(s.nbm, s.nbk, s.nwm, s.nwk));
        ASSERT_TRUE(parsed.has_value()) << s.to_string();
        EXPECT_EQ(*parsed, s);
    }
    for (const char* name : {"slice-1212.egdb.tmp", "slice-121.egdb", "slice-12122.egdb", "slice-12a2.egdb", "Slice-1212.egdb",
                             "slice-1212.EGDB", "unit-1212-a003.egdbu", "", "slice-.egdb"}) {
        EXPECT_FALSE(native::parse_slice_file_name(name).has_value()) << name;
    }
}

}  // namespace
}  // namespace egdb
