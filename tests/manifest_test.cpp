// The manifest of a native database (formats/native/manifest.hpp): a build writes it last, and
// verify reports a listed slice file that is missing (the slices of the top piece count, which no
// other slice reads, passed before: bench/damage.py), changed or resized, and a damaged manifest.
// A directory without one still verifies, with a note.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/formats/native/manifest.hpp"
#include "core/formats/native/native_layout.hpp"
#include "core/build/verify_database.hpp"
#include "core/generate/build_driver.hpp"
#include "core/util/error.hpp"
#include "core/workflow/build.hpp"
#include "tests/build_helpers.hpp"
#include "tests/scratch_dir.hpp"

namespace egdb {
namespace {

namespace fs = std::filesystem;

void spit(const fs::path& p, const std::string& bytes) { std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes; }

bool names(const native::VerifyReport& report, const std::string& text) {
    for (const std::string& m : report.messages) {
        if (m.find(text) != std::string::npos) return true;
    }
    return false;
}

class Manifest : public ::testing::Test {
protected:
    static constexpr int kPieces = 3;
    void SetUp() override {
        workflow::build_database(test::unverified_build(reference_, kPieces));
        fs::copy(reference_, dir_);
    }
    // The slice that no other slice reads: the last one built.
    static std::string top_slice_file() {
        const SliceId top = build_order(kPieces).back();
        return native::slice_file_name(top.nbm, top.nbk, top.nwm, top.nwk);
    }
    native::VerifyReport verify() const { return native::verify_native_database(dir_, {.resources = {.threads = 2}}); }

    test::ScratchDir scratch_{"manifest"};
    fs::path reference_ = scratch_.sub("reference");
    fs::path dir_ = scratch_.path() / "copy";
};

TEST_F(Manifest, BuildListsEverySliceFileInBuildOrder) {
    const auto manifest = native::read_manifest(dir_);
    ASSERT_TRUE(manifest.has_value());
    const std::vector<SliceId> order = build_order(kPieces);
    ASSERT_EQ(manifest->size(), order.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        const native::ManifestEntry& e = (*manifest)[i];
        EXPECT_EQ(e.file, native::slice_file_name(order[i].nbm, order[i].nbk, order[i].nwm, order[i].nwk));
        EXPECT_EQ(e.bytes, fs::file_size(dir_ / e.file));
    }
    // Writing it again from the same files gives the same list.
    EXPECT_EQ(native::write_manifest(dir_), *manifest);
    const native::VerifyReport report = verify();
    EXPECT_TRUE(report.ok());
    EXPECT_TRUE(report.manifest_found);
}

TEST_F(Manifest, DeletedTopSliceFailsVerification) {
    fs::remove(dir_ / top_slice_file());
    const native::VerifyReport report = verify();
    EXPECT_FALSE(report.ok());
    EXPECT_EQ(report.manifest_problems, 1U);
    EXPECT_TRUE(names(report, top_slice_file() + " is listed in")) << report.messages.front();
    // Rebuilding solves it again and verification passes.
    workflow::build_database(test::unverified_build(dir_, kPieces));
    EXPECT_TRUE(verify().ok());
}

TEST_F(Manifest, ResizedOrChangedSliceFilesFailVerification) {
    const std::vector<native::ManifestEntry> manifest = *native::read_manifest(dir_);
    const std::string resized = manifest.front().file;
    const std::string changed = manifest.back().file;
    spit(dir_ / resized, test::slurp(dir_ / resized) + "x");
    // The last byte of a page: its own CRC-32C catches it too, the manifest's whole-file one first.
    std::string bytes = test::slurp(dir_ / changed);
    bytes.back() = static_cast<char>(bytes.back() ^ 1);
    spit(dir_ / changed, bytes);
    const native::VerifyReport report = native::verify_native_database(dir_, {.resources = {.threads = 2}, .max_messages = 100});
    EXPECT_FALSE(report.ok());
    EXPECT_EQ(report.manifest_problems, 2U);
    EXPECT_TRUE(names(report, resized + " has ")) << resized;
    EXPECT_TRUE(names(report, changed + " has other bytes")) << changed;
}

TEST_F(Manifest, DamagedManifestFailsVerificationNamingIt) {
    const std::string text = test::slurp(dir_ / native::kManifestFileName);
    std::string flipped = text;
    flipped[text.find("slice-") + 7] ^= 1;
    std::string foreign = text;
    foreign.replace(0, 8, "manifest");
    for (const std::string& damaged : {flipped, text.substr(0, text.size() / 2), text + "slice-0101.egdb 1 0\n", foreign, std::string()}) {
        spit(dir_ / native::kManifestFileName, damaged);
        EXPECT_THROW(native::read_manifest(dir_), CorruptDataError);
        const native::VerifyReport report = verify();
        EXPECT_FALSE(report.ok());
        EXPECT_TRUE(report.manifest_found);
        EXPECT_TRUE(names(report, std::string(native::kManifestFileName))) << damaged;
    }
}

TEST_F(Manifest, WithoutOneVerificationPassesAndSaysSo) {
    fs::remove(dir_ / native::kManifestFileName);
    const native::VerifyReport report = verify();
    EXPECT_TRUE(report.ok());
    EXPECT_FALSE(report.manifest_found);
    EXPECT_FALSE(native::read_manifest(dir_).has_value());
}

}  // namespace
}  // namespace egdb
