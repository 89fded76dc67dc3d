#include "core/probe/backend.hpp"

#include <vector>

#include "core/formats/kingsrow/kingsrow_database.hpp"
#include "core/formats/kingsrow/dtw/dtw_database.hpp"
#include "core/formats/native/native_database.hpp"
#include "core/probe/database.hpp"
#include "core/rules/movegen.hpp"

namespace egdb {

void Backend::lookup_batch(StoredKind kind, std::span<const Position> positions, std::span<const Color> sides,
                           std::span<int> out) const {
    for (std::size_t i = 0; i < positions.size(); ++i) out[i] = lookup(kind, positions[i], sides[i], false);
}

namespace {

constexpr native::ValueKind native_kind(StoredKind kind) noexcept {
    return kind == StoredKind::Wld ? native::ValueKind::Wld : kind == StoredKind::Dtw ? native::ValueKind::Dtw
                                                                                      : native::ValueKind::Mtc;
}

// Native WLD as Kingsrow codes: the stored value, EGDB_UNKNOWN where the side to move must
// capture ("don't care", docs/native-format.md), EGDB_SUBDB_UNAVAILABLE for a slice not held.
constexpr int kingsrow_wld_code(std::uint32_t stored) noexcept {
    using kingsrow::WldResult;
    return kingsrow::to_code(stored == native::kStoredWin    ? WldResult::Win
                             : stored == native::kStoredLoss ? WldResult::Loss
                                                             : WldResult::Draw);
}
constexpr int kUnknownCode = kingsrow::to_code(kingsrow::WldResult::Unknown);
constexpr int kUnavailableCode = kingsrow::to_code(kingsrow::WldResult::SubdbUnavailable);

class NativeBackend final : public ResolvingBackend {
public:
    explicit NativeBackend(std::unique_ptr<native::NativeDatabase> db) : db_(std::move(db)) {}

    DatabaseType type() const noexcept override { return DatabaseType::Native; }
    const std::filesystem::path& directory() const noexcept override { return db_->directory(); }
    // Up to the largest slice held: a partial database answers the slices it has, and a position
    // of a slice it lacks (or one its search needs) fails naming that slice.
    int max_pieces() const noexcept override { return db_->held_max_pieces(); }
    bool holds(StoredKind kind) const noexcept override { return db_->has_kind(native_kind(kind)); }

    int lookup(StoredKind kind, const Position& position, Color side, bool) const override {
        if (kind == StoredKind::Wld && has_capture(position, side)) return kUnknownCode;
        const std::optional<std::uint32_t> v = db_->stored(native_kind(kind), position, side);
        if (!v) return kUnavailableCode;
        return kind == StoredKind::Wld ? kingsrow_wld_code(*v) : static_cast<int>(*v);
    }

    void lookup_batch(StoredKind kind, std::span<const Position> positions, std::span<const Color> sides,
                      std::span<int> out) const override {
        if (kind != StoredKind::Wld) {
            Backend::lookup_batch(kind, positions, sides, out);
            return;
        }
        std::vector<std::optional<std::uint32_t>> stored(positions.size());
        db_->stored_wld_many(positions, sides, stored);
        for (std::size_t i = 0; i < positions.size(); ++i) {
            out[i] = stored[i] ? kingsrow_wld_code(*stored[i])
                               : has_capture(positions[i], sides[i]) ? kUnknownCode : kUnavailableCode;
        }
    }

    WldValue wld(const Position& position, Color side) const override {
        try {
            return db_->wld(position, side);
        } catch (const native::MissingSliceError& e) {
            throw LookupNotPossible(e.what());
        }
    }

    PositionValue value(const Position& position, Color side) const override {
        try {
            return db_->value(position, side);
        } catch (const native::MissingSliceError& e) {
            throw LookupNotPossible(e.what());
        }
    }

    void wld_batch(std::span<const Position> positions, std::span<const Color> sides,
                   std::span<std::optional<WldValue>> out) const override {
        db_->wld_many(positions, sides, out);
    }

    std::size_t file_count() const override { return db_->files().size(); }
    void attach_cache(std::shared_ptr<PageCache> cache) override { db_->attach_cache(std::move(cache)); }

private:
    std::unique_ptr<native::NativeDatabase> db_;
};

class KingsrowBackend final : public Backend {
public:
    KingsrowBackend(std::unique_ptr<kingsrow::KingsrowDatabase> db, std::filesystem::path directory)
        : db_(std::move(db)), directory_(std::move(directory)) {
        const DatabaseType t = db_->type();
        kind_ = t == DatabaseType::MtcRunlen ? StoredKind::Mtc : t == DatabaseType::Dtw ? StoredKind::Dtw : StoredKind::Wld;
        tun_v2_ = t == DatabaseType::WldTunV2;
    }

    DatabaseType type() const noexcept override { return db_->type(); }
    const std::filesystem::path& directory() const noexcept override { return directory_; }
    int max_pieces() const noexcept override { return db_->max_pieces(); }
    bool holds(StoredKind kind) const noexcept override { return kind == kind_; }

    int lookup(StoredKind, const Position& position, Color side, bool conditional) const override {
        return db_->lookup_code(position, side, conditional ? kingsrow::Conditional::Yes : kingsrow::Conditional::No);
    }

    void lookup_batch(StoredKind, std::span<const Position> positions, std::span<const Color> sides,
                      std::span<int> out) const override {
        db_->lookup_codes(positions, sides, out);
    }

    bool needs_opponent_capture_test(const Material& m) const noexcept override {
        return tun_v2_ && m.total() >= 7 && (m.total() >= 9 || m.nbk + m.nwk >= 2);
    }

    std::size_t file_count() const override { return db_->file_count(); }
    void attach_cache(std::shared_ptr<PageCache> cache) override { db_->attach_cache(std::move(cache)); }

private:
    std::unique_ptr<kingsrow::KingsrowDatabase> db_;
    std::filesystem::path directory_;
    StoredKind kind_ = StoredKind::Wld;
    bool tun_v2_ = false;
};

}  // namespace

std::unique_ptr<ResolvingBackend> make_native_backend(std::unique_ptr<native::NativeDatabase> db) {
    return std::make_unique<NativeBackend>(std::move(db));
}

std::unique_ptr<Backend> make_kingsrow_backend(std::unique_ptr<kingsrow::KingsrowDatabase> db,
                                               const std::filesystem::path& directory) {
    return std::make_unique<KingsrowBackend>(std::move(db), directory);
}

}  // namespace egdb
