#include "core/hub/hub_line.hpp"

#include <algorithm>

namespace egdb {
namespace {

constexpr bool is_separator(char c) noexcept { return c == ' ' || c == '\t'; }

}  // namespace

const HubArgument* HubLine::find(std::string_view name) const noexcept {
    const auto it = std::find_if(arguments.begin(), arguments.end(), [&](const HubArgument& a) { return a.name == name; });
    return it == arguments.end() ? nullptr : &*it;
}

std::optional<std::string> HubLine::value(std::string_view name) const {
    const HubArgument* a = find(name);
    if (a == nullptr) return std::nullopt;
    return a->value;
}

HubLine parse_hub_line(std::string_view text) {
    if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    HubLine line;
    std::size_t i = 0;
    const auto skip_separators = [&] {
        while (i < text.size() && is_separator(text[i])) ++i;
    };
    skip_separators();
    const std::size_t command_start = i;
    while (i < text.size() && !is_separator(text[i])) ++i;
    line.command = std::string(text.substr(command_start, i - command_start));
    for (skip_separators(); i < text.size(); skip_separators()) {
        const std::size_t name_start = i;
        while (i < text.size() && !is_separator(text[i]) && text[i] != '=') ++i;
        HubArgument argument;
        argument.name = std::string(text.substr(name_start, i - name_start));
        if (i < text.size() && text[i] == '=') {
            if (argument.name.empty()) {
                throw NotationError(token_message("argument without a name", "=", i), "=", i);
            }
            ++i;
            argument.has_value = true;
            if (i < text.size() && text[i] == '"') {
                const std::size_t close = text.find('"', i + 1);
                if (close == std::string_view::npos) {
                    const std::string token(text.substr(name_start));
                    throw NotationError(token_message("unterminated quoted value", token, name_start), token, name_start);
                }
                argument.value = std::string(text.substr(i + 1, close - i - 1));
                i = close + 1;
            } else {
                const std::size_t value_start = i;
                while (i < text.size() && !is_separator(text[i])) ++i;
                if (i == value_start) {
                    const std::string token(text.substr(name_start, i - name_start));
                    throw NotationError(token_message("argument without a value", token, name_start), token, name_start);
                }
                argument.value = std::string(text.substr(value_start, i - value_start));
            }
        }
        line.arguments.push_back(std::move(argument));
    }
    return line;
}

std::string hub_value(std::string_view value) {
    // A line break would end the line early; a double quote would end the quoted value.
    std::string text(value);
    for (char& c : text) {
        if (c == '"') c = '\'';
        if (c == '\n' || c == '\r') c = ' ';
    }
    const bool plain = !text.empty() && std::none_of(text.begin(), text.end(), [](char c) { return is_separator(c) || c == '='; });
    return plain ? text : "\"" + text + "\"";
}

}  // namespace egdb
