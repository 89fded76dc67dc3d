// The error of every strict notation parser (FEN, Hub positions, Hub moves): a message that names
// the offending token and the byte offset where it starts, so a typo never yields a silently
// different position or move, and a caller can point at the mistake.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "core/util/error.hpp"

namespace egdb {

// what() is a complete human-readable message, for example
// `square 51 out of range 1..50 in token "51" at byte 5`; token() and offset() give the token
// (empty for an empty input) and the byte offset in the text given to the parser.
class NotationError : public ErrorOf<std::invalid_argument, ErrorKind::InvalidNotation> {
public:
    NotationError(const std::string& message, std::string token, std::size_t offset)
        : ErrorOf(message), token_(std::move(token)), offset_(offset) {}

    const std::string& token() const noexcept { return token_; }
    std::size_t offset() const noexcept { return offset_; }

private:
    std::string token_;
    std::size_t offset_;
};

// A token as it appears in a message, in double quotes: printable ASCII as is, anything else
// escaped, so a tab or a stray control byte in the input is visible rather than misleading.
std::string quoted_token(std::string_view token);

// `<problem> in token "<token>" at byte <offset>`: the message every notation error uses.
std::string token_message(std::string_view problem, std::string_view token, std::size_t offset);

// Whitespace as the notation parsers skip it around a whole FEN, Hub position or move.
constexpr bool is_notation_space(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

}  // namespace egdb
