#include "core/formats/kingsrow/text_index/text_index.hpp"
#include "core/util/ascii.hpp"

#include <cctype>
#include <limits>

namespace egdb::kingsrow {
namespace {

// Upstream reads a comment line into a 120-byte buffer; a longer line stops the parser (5.2).
constexpr std::size_t kMaxCommentLength = 119;

bool is_space(char c) noexcept { return std::isspace(static_cast<unsigned char>(c)) != 0; }

class Cursor {
public:
    Cursor(std::string_view text, std::string_view file) : text_(text), file_(file) {}

    bool at_end() const noexcept { return pos_ >= text_.size(); }
    char peek() const noexcept { return at_end() ? '\0' : text_[pos_]; }
    int line() const noexcept { return line_; }

    void skip_space() noexcept {
        while (!at_end() && is_space(text_[pos_])) advance();
    }

    [[noreturn]] void fail(std::string_view reason) const { throw IndexFileError(file_, line_, reason); }

    void expect(char c, std::string_view what) {
        if (peek() != c) fail("expected '" + std::string(1, c) + "' " + std::string(what));
        advance();
    }

    bool consume(std::string_view word) noexcept {
        if (text_.substr(pos_, word.size()) != word) return false;
        for (std::size_t i = 0; i < word.size(); ++i) advance();
        return true;
    }

    char take() noexcept {
        const char c = peek();
        advance();
        return c;
    }

    // C's %i: optional sign, then decimal, 0-prefixed octal or 0x-prefixed hexadecimal (3.2).
    std::int64_t c_integer(std::string_view what) {
        skip_space();
        const bool negative = peek() == '-';
        if (peek() == '-' || peek() == '+') advance();
        int base = 10;
        if (peek() == '0') {
            base = 8;
            if (pos_ + 2 < text_.size() + 1 && (peek_at(1) == 'x' || peek_at(1) == 'X') &&
                std::isxdigit(static_cast<unsigned char>(peek_at(2)))) {
                base = 16;
                advance();
                advance();
            }
        }
        return digits(base, negative, what);
    }

    // C's %d.
    std::int64_t decimal(std::string_view what) {
        skip_space();
        const bool negative = peek() == '-';
        if (peek() == '-' || peek() == '+') advance();
        return digits(10, negative, what);
    }

    // The rest of the current line (without the line end).
    std::string_view rest_of_line() noexcept {
        const std::size_t start = pos_;
        while (!at_end() && text_[pos_] != '\n') ++pos_;
        return text_.substr(start, pos_ - start);
    }

private:
    char peek_at(std::size_t ahead) const noexcept {
        return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
    }

    void advance() noexcept {
        if (at_end()) return;
        if (text_[pos_] == '\n') ++line_;
        ++pos_;
    }

    std::int64_t digits(int base, bool negative, std::string_view what) {
        std::int64_t value = 0;
        int count = 0;
        while (true) {
            const char c = peek();
            int d = -1;
            if (is_ascii_digit(c)) d = c - '0';
            else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
            else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
            if (d < 0 || d >= base) break;
            if (value > (std::numeric_limits<std::int64_t>::max() - d) / base) fail("number too large for " + std::string(what));
            value = value * base + d;
            ++count;
            advance();
        }
        if (count == 0 && base != 8) fail("expected a number (" + std::string(what) + ")");
        return negative ? -value : value;
    }

    std::string_view text_;
    std::string_view file_;
    std::size_t pos_ = 0;
    int line_ = 1;
};

template <class T>
T checked(Cursor& in, std::int64_t value, std::int64_t low, std::int64_t high, std::string_view what) {
    if (value < low || value > high) {
        in.fail(std::string(what) + " " + std::to_string(value) + " is outside " + std::to_string(low) + ".." +
                std::to_string(high));
    }
    return static_cast<T>(value);
}

int single_value_of(char c) noexcept {
    switch (c) {
        case '+': return 1;  // EGDB_WIN
        case '-': return 2;  // EGDB_LOSS
        case '=': return 3;  // EGDB_DRAW
        case '.': return 0;  // EGDB_UNKNOWN
        default: return -1;
    }
}

// " vmap %d: %d,%d,%d,%d,%d,%d" with exactly 3 or 6 values; other counts are ignored (5.2).
void parse_vmap_comment(std::string_view comment, IndexRecord& record) {
    const std::size_t at = comment.find("vmap");
    std::string_view rest = comment.substr(at + 4);
    std::array<std::int64_t, 7> numbers{};
    int count = 0;
    bool colon_seen = false;
    std::size_t i = 0;
    const auto skip_blank = [&] {
        while (i < rest.size() && is_space(rest[i])) ++i;
    };
    while (count < 7) {
        skip_blank();
        bool negative = false;
        if (i < rest.size() && rest[i] == '-') {
            negative = true;
            ++i;
        }
        if (i >= rest.size() || !is_ascii_digit(rest[i])) break;
        std::int64_t v = 0;
        while (i < rest.size() && is_ascii_digit(rest[i]) && v < 1000000) v = v * 10 + (rest[i++] - '0');
        numbers[count++] = negative ? -v : v;
        skip_blank();
        const char separator = count == 1 ? ':' : ',';
        if (i >= rest.size() || rest[i] != separator) break;
        if (count == 1) colon_seen = true;
        ++i;
    }
    const int values = count - 1;
    if (!colon_seen || (values != 3 && values != 6)) return;
    record.has_vmap = true;
    record.vmap_catalog = static_cast<int>(numbers[0]);
    record.vmap_size = values;
    record.vmap_values = {};
    for (int v = 0; v < values; ++v) {
        // Values outside 0..5 cannot be results; keep them visible to the codec's check.
        record.vmap_values[v] = static_cast<std::uint8_t>(numbers[v + 1] >= 0 && numbers[v + 1] <= 255 ? numbers[v + 1] : 255);
    }
}

}  // namespace

IndexFileError::IndexFileError(std::string_view file, int line, std::string_view reason)
    : CorruptDataError(std::string(file) + ":" + std::to_string(line) + ": " + std::string(reason)) {}

std::vector<IndexRecord> parse_text_index(std::string_view text, IndexDialect dialect, std::string_view file) {
    std::vector<IndexRecord> records;
    Cursor in(text, file);
    const bool v2 = dialect == IndexDialect::TunV2;
    const std::int64_t unit = v2 || dialect == IndexDialect::Mtc ? 4096 : 1024;
    while (true) {
        in.skip_space();
        if (!in.consume("BASE")) break;  // end of file or trailing text: stop (3.2)
        IndexRecord r;
        r.line = in.line();
        r.slice.nbm = checked<int>(in, in.c_integer("black men"), 0, kMaxPiecesPerSide, "black men");
        in.expect(',', "after the black men");
        r.slice.nbk = checked<int>(in, in.c_integer("black kings"), 0, kMaxPiecesPerSide, "black kings");
        in.expect(',', "after the black kings");
        r.slice.nwm = checked<int>(in, in.c_integer("white men"), 0, kMaxPiecesPerSide, "white men");
        in.expect(',', "after the white men");
        r.slice.nwk = checked<int>(in, in.c_integer("white kings"), 0, kMaxPiecesPerSide, "white kings");
        in.expect(',', "after the white kings");
        if (!is_indexable(r.slice) || !is_canonical(r.slice)) {
            in.fail("slice " + r.slice.to_string() + " is not a canonical slice of at most " +
                    std::to_string(kMaxPiecesPerSide) + " pieces a side");
        }
        r.subslice = checked<std::uint32_t>(in, in.c_integer("subslice"), 0, 1 << 20, "subslice");
        in.expect(',', "after the subslice");
        r.side_to_move = in.take() == 'b' ? Color::Black : Color::White;  // any other character is White
        in.expect(':', "after the side to move");

        const char first = in.peek();
        if (!is_ascii_digit(first)) {
            r.single_value = single_value_of(first);
            if (r.single_value < 0 || dialect == IndexDialect::Mtc) {
                in.fail(std::string("invalid value character '") + first + "' (expected a digit" +
                        (dialect == IndexDialect::Mtc ? ")" : " or one of + - = .)"));
            }
            in.take();
            records.push_back(std::move(r));
            continue;
        }
        r.first_block = checked<std::uint64_t>(in, in.decimal("first block"), 0, std::int64_t{1} << 40, "first block");
        in.expect('/', "between block and offset");
        r.first_offset = checked<std::uint32_t>(in, in.decimal("offset"), 0, unit - 1, "offset in block");
        if (v2) {
            in.expect(',', "before the catalog");
            r.catalogs.push_back(checked<std::uint8_t>(in, in.decimal("catalog"), 0, 255, "catalog"));
            in.expect(',', "before the value map");
            r.value_maps.push_back(checked<std::uint8_t>(in, in.decimal("value map"), 0, 255, "value map"));
        }
        bool stop_file = false;
        while (true) {
            in.skip_space();
            const char c = in.peek();
            if (c == '#' && !v2) {
                const std::string_view comment = in.rest_of_line();
                if (comment.size() + 1 > kMaxCommentLength) {
                    stop_file = true;  // upstream silently stops reading the file here
                    break;
                }
                if (dialect == IndexDialect::TunV1 && comment.find("vmap") != std::string_view::npos) {
                    parse_vmap_comment(comment, r);
                }
                if (dialect == IndexDialect::Runlen && comment.find("haspartials") != std::string_view::npos) {
                    r.has_partials = true;
                }
                continue;
            }
            if (!is_ascii_digit(c)) break;
            r.block_starts.push_back(checked<std::uint32_t>(in, in.decimal("block start"), 0, std::int64_t{1} << 31,
                                                            "block start index"));
            if (v2) {
                in.expect(',', "before the catalog");
                r.catalogs.push_back(checked<std::uint8_t>(in, in.decimal("catalog"), 0, 255, "catalog"));
                in.expect(',', "before the value map");
                r.value_maps.push_back(checked<std::uint8_t>(in, in.decimal("value map"), 0, 255, "value map"));
            }
        }
        records.push_back(std::move(r));
        if (stop_file) break;
    }
    return records;
}

}  // namespace egdb::kingsrow
