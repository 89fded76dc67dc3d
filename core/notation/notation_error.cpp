#include "core/notation/notation_error.hpp"

namespace egdb {

std::string quoted_token(std::string_view token) {
    constexpr std::string_view kHex = "0123456789abcdef";
    std::string out = "\"";
    for (const char c : token) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (c == '\t') {
            out += "\\t";
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (u < 0x20 || u >= 0x7f) {
            out += "\\x";
            out += kHex[u >> 4];
            out += kHex[u & 0xF];
        } else {
            out += c;
        }
    }
    out += '"';
    return out;
}

std::string token_message(std::string_view problem, std::string_view token, std::size_t offset) {
    std::string message(problem);
    message += " in token ";
    message += quoted_token(token);
    message += " at byte ";
    message += std::to_string(offset);
    return message;
}

}  // namespace egdb
