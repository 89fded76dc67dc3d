#include "core/formats/kingsrow/open_options.hpp"

#include <algorithm>
#include <climits>

namespace egdb::kingsrow {

std::optional<int> parse_maxpieces_option(std::string_view options) noexcept {
    const std::size_t at = options.find("maxpieces");
    if (at == std::string_view::npos) return std::nullopt;
    const std::size_t equals = options.find('=', at);
    if (equals == std::string_view::npos) return std::nullopt;
    std::size_t i = equals + 1;
    // atoi: leading white space, an optional sign, decimal digits; 0 when there are none.
    while (i < options.size() && (options[i] == ' ' || options[i] == '\t' || options[i] == '\n' ||
                                  options[i] == '\r' || options[i] == '\f' || options[i] == '\v')) {
        ++i;
    }
    bool negative = false;
    if (i < options.size() && (options[i] == '-' || options[i] == '+')) negative = options[i++] == '-';
    long long value = 0;
    while (i < options.size() && options[i] >= '0' && options[i] <= '9') {
        value = std::min<long long>(value * 10 + (options[i++] - '0'), INT_MAX);
    }
    return static_cast<int>(negative ? -value : value);
}

MaxPiecesOption read_maxpieces_option(std::string_view options) {
    const std::size_t at = options.find("maxpieces");
    if (at == std::string_view::npos) return {};
    std::size_t i = at + std::string_view("maxpieces").size();
    const auto blank = [&options](std::size_t k) { return k < options.size() && (options[k] == ' ' || options[k] == '\t'); };
    while (blank(i)) ++i;
    if (i >= options.size() || options[i] != '=') return {0, "option maxpieces needs a value: maxpieces=N"};
    ++i;
    while (blank(i)) ++i;
    const std::size_t digits = i;
    int limit = 0;
    while (i < options.size() && options[i] >= '0' && options[i] <= '9' && i - digits < 4) limit = limit * 10 + (options[i++] - '0');
    const bool ends = i == options.size() || options[i] == ' ' || options[i] == '\t' || options[i] == ';' || options[i] == ',';
    if (i == digits || !ends) {
        std::size_t end = digits;
        while (end < options.size() && options[end] != ' ' && options[end] != ';' && options[end] != ',') ++end;
        return {0, "option maxpieces must be a whole number of pieces (maxpieces=N, N >= 0; 0: no limit), got '" +
                       std::string(options.substr(digits, end - digits)) + "'"};
    }
    return {limit, {}};
}

int effective_max_pieces(int identified, std::string_view options) noexcept {
    const std::optional<int> limit = parse_maxpieces_option(options);
    if (limit && *limit > 0) return std::min(identified, *limit);
    return identified;
}

}  // namespace egdb::kingsrow
