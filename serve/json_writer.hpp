// A compact JSON text written straight into one string, for the answers `egdb serve` gives on
// every request (report_json.hpp). Building an nlohmann::ordered_json for a report of 20 moves
// takes some 150 allocations and was over a quarter of the server's CPU under load (perf, 64
// clients); this writes the same bytes nlohmann's compact dump writes, with one growing buffer.
// Structure (commas, nesting) is tracked here; the caller names keys and values in order.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace egdb::serve {

class JsonWriter {
public:
    // `capacity`: bytes reserved up front (a report with its moves is 1-3 KB).
    explicit JsonWriter(std::size_t capacity = 0) { out_.reserve(capacity); }

    JsonWriter& begin_object() { return open('{'); }
    JsonWriter& end_object() { return close('}'); }
    JsonWriter& begin_array() { return open('['); }
    JsonWriter& end_array() { return close(']'); }
    // The key of the next member; inside an object only.
    JsonWriter& key(std::string_view name);

    // Distinct names rather than overloads: a string literal would otherwise pick the bool one.
    JsonWriter& string(std::string_view text);
    JsonWriter& number(long long value);
    JsonWriter& boolean(bool value);
    JsonWriter& null();
    JsonWriter& number_or_null(const std::optional<int>& value) { return value ? number(*value) : null(); }

    // The text; the writer is empty afterwards. Throws std::logic_error when an object or array
    // is still open.
    std::string take();

    // Nesting deeper than this throws std::logic_error (the answers nest three levels).
    static constexpr std::size_t kMaxDepth = 16;

private:
    JsonWriter& open(char bracket);
    JsonWriter& close(char bracket);
    void before_value();

    std::string out_;
    std::array<bool, kMaxDepth> has_members_{};  // per open level: a comma goes before the next
    std::array<char, kMaxDepth> brackets_{};     // per open level: '{' or '['
    std::size_t depth_ = 0;
    bool after_key_ = false;
};

}  // namespace egdb::serve
