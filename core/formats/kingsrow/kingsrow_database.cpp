#include "core/formats/kingsrow/kingsrow_database.hpp"

#include <stdexcept>
#include <string>

#include "core/formats/kingsrow/directory/identify.hpp"
#include "core/formats/kingsrow/codecs/mtc_codec.hpp"
#include "core/formats/kingsrow/codecs/runlen_codec.hpp"
#include "core/formats/kingsrow/text_index/stream_database.hpp"
#include "core/formats/kingsrow/codecs/tunstall_v1_codec.hpp"
#include "core/formats/kingsrow/codecs/tunstall_v2_codec.hpp"
#include "core/util/error.hpp"

namespace egdb::kingsrow {
namespace {

template <class Codec>
class WldStreamDatabase final : public WldDatabase {
public:
    WldStreamDatabase(const std::filesystem::path& directory, DbType type, int max_pieces, const KingsrowOpenOptions& options)
        : type_(type), engine_(directory, type, max_pieces, Codec(), options) {}

    DbType type() const noexcept override { return type_; }
    int max_pieces() const noexcept override { return engine_.table().max_pieces(); }
    int max_pieces_one_side() const noexcept override { return engine_.table().max_pieces_one_side(); }
    int lookup_code(const Position& p, Color side, Conditional conditional) const override {
        return engine_.lookup(p, side, conditional);
    }
    WldResult lookup(const Position& p, Color side, Conditional conditional) const override {
        return static_cast<WldResult>(engine_.lookup(p, side, conditional));
    }
    void lookup_codes(std::span<const Position> positions, std::span<const Color> sides,
                      std::span<int> out) const override {
        engine_.lookup_many(positions, sides, out);
    }
    PageCacheStats cache_stats() const override { return engine_.cache_stats(); }
    void attach_cache(std::shared_ptr<PageCache> cache) override { engine_.attach_cache(std::move(cache)); }
    std::size_t file_count() const override { return engine_.table().files().size(); }

private:
    DbType type_;
    StreamDatabase<Codec> engine_;
};

class MtcStreamDatabase final : public MtcDatabase {
public:
    MtcStreamDatabase(const std::filesystem::path& directory, int max_pieces, const KingsrowOpenOptions& options)
        : engine_(directory, DbType::MtcRunlen, max_pieces, MtcCodec(), options) {}

    DbType type() const noexcept override { return DbType::MtcRunlen; }
    int max_pieces() const noexcept override { return engine_.table().max_pieces(); }
    int max_pieces_one_side() const noexcept override { return engine_.table().max_pieces_one_side(); }
    int lookup_code(const Position& p, Color side, Conditional conditional) const override {
        return engine_.lookup(p, side, conditional);
    }
    void lookup_codes(std::span<const Position> positions, std::span<const Color> sides,
                      std::span<int> out) const override {
        engine_.lookup_many(positions, sides, out);
    }
    MtcValue lookup(const Position& p, Color side, Conditional conditional) const override {
        const int code = engine_.lookup(p, side, conditional);
        return code == MtcValue::kLessThanThresholdCode ? MtcValue::less_than_threshold() : MtcValue::plies(code);
    }
    PageCacheStats cache_stats() const override { return engine_.cache_stats(); }
    void attach_cache(std::shared_ptr<PageCache> cache) override { engine_.attach_cache(std::move(cache)); }
    std::size_t file_count() const override { return engine_.table().files().size(); }

private:
    StreamDatabase<MtcCodec> engine_;
};

std::string listing(const std::filesystem::path& directory) {
    std::string found;
    int shown = 0;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(directory, ec)) {
        if (shown++ == 12) {
            found += " ...";
            break;
        }
        found += " " + entry.path().filename().string();
    }
    return found.empty() ? " nothing" : found;
}

}  // namespace

std::unique_ptr<KingsrowDatabase> open_database(const std::filesystem::path& directory, DbType type, int max_pieces,
                                        const KingsrowOpenOptions& options) {
    const int pieces = effective_max_pieces(max_pieces, options.options);
    switch (type) {
        case DbType::WldRunlen: return std::make_unique<WldStreamDatabase<RunlenCodec>>(directory, type, pieces, options);
        case DbType::WldTunV1:
            return std::make_unique<WldStreamDatabase<TunstallV1Codec>>(directory, type, pieces, options);
        case DbType::WldTunV2:
            return std::make_unique<WldStreamDatabase<TunstallV2Codec>>(directory, type, pieces, options);
        case DbType::MtcRunlen: return std::make_unique<MtcStreamDatabase>(directory, pieces, options);
        case DbType::Dtw:
        case DbType::WldHuffman:
        case DbType::Native: break;
    }
    throw InvalidArgumentError(std::string(name_of(type)) + " databases are not opened by this reader");
}

std::unique_ptr<KingsrowDatabase> open_database(const std::filesystem::path& directory, const KingsrowOpenOptions& options) {
    const std::optional<Identification> id = identify(directory);
    if (!id) {
        throw RuntimeError(ErrorKind::NoDatabase, "No egdb found in " + directory.string() +
                                 ": no identifying Kingsrow index file (db<n>.idx1, .idx, .idx_mtc, .idx_dtw); found" +
                                 listing(directory));
    }
    if (options.messages) {
        options.messages(std::string(name_of(id->type)) + ", " + std::to_string(id->max_pieces) + " pieces (" +
                         id->file + ")\n");
    }
    return open_database(directory, id->type, id->max_pieces, options);
}

}  // namespace egdb::kingsrow
