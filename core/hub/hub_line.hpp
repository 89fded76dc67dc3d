// One line of the Hub protocol (Scan's protocol.txt, version 2, "general syntax"): a command
// word followed by arguments `name=value`, `name="quoted value"` or a bare `name` (a flag), in
// both directions between GUI and engine. The engine side of `egdb hub` reads every GUI line
// with parse_hub_line and writes its answers with hub_value, so quoting is the same everywhere.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/notation/notation_error.hpp"

namespace egdb {

struct HubArgument {
    std::string name;
    std::string value;       // unquoted; empty for a flag
    bool has_value = false;  // false for a flag (`level infinite`)
};

struct HubLine {
    std::string command;  // empty for a blank line
    std::vector<HubArgument> arguments;

    // The argument called `name` (the first one, if the line repeats it), nullptr when absent.
    const HubArgument* find(std::string_view name) const noexcept;
    // Its value, nullopt when absent (a flag has the empty value).
    std::optional<std::string> value(std::string_view name) const;
};

// Splits a line. Spaces and tabs separate tokens, a trailing '\r' is ignored, a value in double
// quotes runs to the next double quote (the protocol has no escapes). A NotationError names the
// token and byte offset of what cannot be read: a quote that is never closed, `=` with no name
// before it, `name=` with nothing after it. Unknown commands and arguments are not errors here:
// the protocol says both sides ignore what they do not understand.
HubLine parse_hub_line(std::string_view text);

// `value` as it may stand after `name=`: as is when it is a non-empty run of characters other
// than space, tab, '=' and '"', otherwise in double quotes. A value with a double quote inside
// cannot be written in the protocol: its double quotes become single quotes, and line breaks
// spaces, so that a message quoted from anywhere stays one valid line.
std::string hub_value(std::string_view value);

}  // namespace egdb
