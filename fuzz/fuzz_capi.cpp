// The C ABI entry points that take strings and buffers, from arbitrary bytes, on a 2-piece native
// database opened once. The input is read as a small program: the first byte chooses the
// functions, then come NUL-separated strings (a FEN or Hub text, a move, an options string) and
// raw bytes read as positions (three 64-bit bitboards, any bits), colours, slice counts, indexes
// and buffer sizes. Every call must return (a value or a negative code with a message); no call
// may write past the buffer it was given, which AddressSanitizer checks.
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "capi/egdb.h"
#include "fuzz/fuzz_support.hpp"

namespace {

void require(bool condition) {
    if (!condition) std::abort();
}

// Reads fields off the input front to back; past the end everything reads as zero.
class InputReader {
public:
    InputReader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
    std::string text() {
        std::string out;
        while (at_ < size_ && data_[at_] != 0) out.push_back(static_cast<char>(data_[at_++]));
        if (at_ < size_) ++at_;
        return out;
    }
    template <class T>
    T number() {
        T value{};
        const std::size_t n = std::min(sizeof value, size_ - at_);
        std::memcpy(&value, data_ + at_, n);
        at_ += n;
        return value;
    }
    EgdbPosition position() {
        EgdbPosition p{};
        p.black = number<std::uint64_t>();
        p.white = number<std::uint64_t>();
        p.king = number<std::uint64_t>();
        return p;
    }

private:
    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t at_ = 0;
};

// A returned message must be a terminated string (the ABI keeps it per thread).
void check_message() { require(std::strlen(egdb_last_error(-1)) < 4096); }

int database_handle() {
    static const int handle = [] {
        const std::filesystem::path dir =
            egdb::fuzz::build_reference("capi", egdb::workflow::OutputFormat::Native, 2);
        return egdb_open("", 8, dir.string().c_str(), "");
    }();
    return handle;
}

void strings(int handle, const std::string& fen, const std::string& move, int size) {
    EgdbPosition pos{};
    int color = -1;
    if (fentoposition(fen.c_str(), &pos, &color) == 0) {
        char written[EGDB_MAXFENLEN];
        require(positiontofen(&pos, color, written) > 0);
        EgdbPosition again{};
        int again_color = -1;
        require(fentoposition(written, &again, &again_color) == 0);
        require(std::memcmp(&again, &pos, sizeof pos) == 0 && again_color == color);
        EgdbPosition after{};
        if (egdb_parse_move(&pos, color, move.c_str(), &after) == 0) {
            // The move text is written into a buffer of the size the input asks for.
            std::vector<char> out(static_cast<std::size_t>(size));
            const int n = egdb_move_text(&pos, &after, color, size % 2, out.data(), size);
            require(n < size || n < 0);
        } else {
            check_message();
        }
    } else {
        check_message();
    }
    EgdbPosition hub{};
    if (egdb_hub_to_position(fen.c_str(), &hub, &color) != 0) check_message();
    (void)egdb_lookup_fen(handle, fen.c_str(), 0);
    (void)egdb_lookup_fen_with_search(handle, fen.c_str());
    EgdbProbe probe{};
    if (egdb_probe_fen(handle, fen.c_str(), &probe) != 0) check_message();
    // Exactly `capacity` entries, so that AddressSanitizer sees a write past them.
    const int capacity = size % (EGDB_MAXMOVES + 1);
    std::vector<EgdbMoveDistance> moves(static_cast<std::size_t>(capacity));
    const int count = egdb_best_moves(handle, fen.c_str(), size % 2, moves.data(), capacity);
    require(count <= capacity);
    std::vector<char> pv(static_cast<std::size_t>(size));
    const int pv_length = egdb_pv(handle, fen.c_str(), pv.data(), size);
    require(pv_length < size || pv_length < 0);
    std::array<int, EGDB_MAXMOVES> distances{};
    char distance_moves[EGDB_MAXMOVES][EGDB_MAXMOVELEN];
    (void)egdb_lookup_distance(handle, handle, fen.c_str(), distances.data(), distance_moves);
}

void positions(int handle, InputReader& in) {
    const EgdbPosition pos = in.position();
    const int color = in.number<std::uint8_t>() % 3;  // 2: an invalid colour
    (void)egdb_lookup(handle, &pos, color, 0);
    (void)egdb_lookup_with_search(handle, &pos, color);
    EgdbProbe probe{};
    (void)egdb_probe(handle, &pos, color, &probe);
    std::array<EgdbPosition, EGDB_MAXMOVES> list{};
    const int moves = get_movelist(&pos, color, list.data());
    require(moves <= EGDB_MAXMOVES);
    (void)is_capture(&pos, color);
    char fen[EGDB_MAXFENLEN];
    (void)positiontofen(&pos, color, fen);
    char hub[EGDB_HUBLEN];
    (void)egdb_position_to_hub(&pos, color, hub);
    EgdbPosition sharp{};
    (void)is_sharp_win(handle, &pos, color, &sharp);
    char pdn[128];
    if (moves > 0) (void)move_string(&pos, &list[0], color, pdn);
    const int counts[4] = {in.number<std::int8_t>(), in.number<std::int8_t>(), in.number<std::int8_t>(),
                           in.number<std::int8_t>()};
    (void)getdatabasesize_slice(counts[0], counts[1], counts[2], counts[3]);
    (void)positiontoindex(&pos, counts[0], counts[1], counts[2], counts[3]);
    EgdbPosition at{};
    indextoposition(in.number<std::int64_t>(), &at, counts[0], counts[1], counts[2], counts[3]);
    // A batch of the positions that follow, with their colours.
    const int batch = in.number<std::uint8_t>() % 8;
    std::vector<EgdbPosition> many(static_cast<std::size_t>(batch));
    std::vector<int> colors(static_cast<std::size_t>(batch));
    std::vector<int> results(static_cast<std::size_t>(batch));
    for (int i = 0; i < batch; ++i) {
        many[static_cast<std::size_t>(i)] = in.position();
        colors[static_cast<std::size_t>(i)] = in.number<std::uint8_t>() % 3;
    }
    (void)egdb_lookup_batch(handle, many.data(), colors.data(), batch, results.data());
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    require(database_handle() >= 0);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const int handle = database_handle();
    InputReader in(data + 1, size - 1);
    switch (data[0] % 3) {
        case 0: {
            const std::string fen = in.text();
            const std::string move = in.text();
            strings(handle, fen, move, 1 + in.number<std::uint8_t>());
            break;
        }
        case 1: positions(handle, in); break;
        default: {
            // An options string and a cache size for egdb_open on the reference folder (never
            // another path: a random one could name any folder of the machine).
            const std::string options = in.text();
            const int cache_mb = in.number<std::int16_t>();
            std::string directory = egdb::fuzz::scratch().string() + "/capi";
            const int opened = egdb_open(options.c_str(), cache_mb, directory.c_str(), "");
            if (opened >= 0) {
                require(egdb_close(opened) == 0);
            } else {
                check_message();
            }
            int type = 0;
            int pieces = 0;
            (void)egdb_identify(directory.c_str(), &type, &pieces);
        }
    }
    return 0;
}
