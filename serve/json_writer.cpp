#include "serve/json_writer.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace egdb::serve {
namespace {

constexpr char kHex[] = "0123456789abcdef";

// RFC 8259 section 7, with the short escapes nlohmann's dump uses. The texts of a report are
// ASCII (FEN, PDN, Hub notation); any byte above 0x7f is written as U+FFFD, so the text is
// valid JSON (and valid UTF-8) whatever a string holds.
void append_escaped(std::string& out, std::string_view text) {
    out.push_back('"');
    // The texts of a report need no escape: they go in whole.
    if (std::all_of(text.begin(), text.end(), [](char ch) {
            const auto c = static_cast<unsigned char>(ch);
            return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
        })) {
        out.append(text);
        out.push_back('"');
        return;
    }
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\b': out += "\\b"; break;
            case '\f': out += "\\f"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20) {
                    out += "\\u00";
                    out.push_back(kHex[c >> 4]);
                    out.push_back(kHex[c & 15]);
                } else if (c >= 0x80) {
                    out += "\\ufffd";
                } else {
                    out.push_back(ch);
                }
        }
    }
    out.push_back('"');
}

}  // namespace

void JsonWriter::before_value() {
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (depth_ > 0 && brackets_[depth_ - 1] == '{') throw std::logic_error("JsonWriter: a value in an object without its key");
    if (depth_ == 0) {
        if (!out_.empty()) throw std::logic_error("JsonWriter: a second value at the top level");
        return;
    }
    if (has_members_[depth_ - 1]) out_.push_back(',');
    has_members_[depth_ - 1] = true;
}

JsonWriter& JsonWriter::open(char bracket) {
    if (depth_ == kMaxDepth) throw std::logic_error("JsonWriter: nested too deep");
    before_value();
    out_.push_back(bracket);
    brackets_[depth_] = bracket;
    has_members_[depth_++] = false;
    return *this;
}

JsonWriter& JsonWriter::close(char bracket) {
    const char opening = bracket == '}' ? '{' : '[';
    if (depth_ == 0 || after_key_ || brackets_[depth_ - 1] != opening) {
        throw std::logic_error("JsonWriter: nothing of this kind to close, or a key without its value");
    }
    out_.push_back(bracket);
    --depth_;
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
    if (depth_ == 0 || after_key_ || brackets_[depth_ - 1] != '{') {
        throw std::logic_error("JsonWriter: a key outside an object, or two keys in a row");
    }
    if (has_members_[depth_ - 1]) out_.push_back(',');
    has_members_[depth_ - 1] = true;
    append_escaped(out_, name);
    out_.push_back(':');
    after_key_ = true;
    return *this;
}

JsonWriter& JsonWriter::string(std::string_view text) {
    before_value();
    append_escaped(out_, text);
    return *this;
}

JsonWriter& JsonWriter::number(long long value) {
    before_value();
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
    out_.append(digits, end);
    return *this;
}

JsonWriter& JsonWriter::boolean(bool value) {
    before_value();
    out_ += value ? "true" : "false";
    return *this;
}

JsonWriter& JsonWriter::null() {
    before_value();
    out_ += "null";
    return *this;
}

std::string JsonWriter::take() {
    if (depth_ != 0 || after_key_) throw std::logic_error("JsonWriter: the text is not complete");
    std::string text = std::move(out_);
    out_.clear();
    return text;
}

}  // namespace egdb::serve
