#include "core/formats/kingsrow/dtw/huffman_code.hpp"

#include <algorithm>
#include <queue>
#include <stdexcept>

#include "core/formats/kingsrow/dtw/dtw_format.hpp"
#include "core/util/error.hpp"

namespace egdb::kingsrow {

std::vector<std::uint32_t> assign_canonical_codes(std::span<const HuffmanEntry> table, std::string& error) {
    std::vector<std::uint32_t> codes;
    if (table.empty()) {
        error = "empty Huffman table";
        return codes;
    }
    codes.reserve(table.size());
    std::uint64_t code = 0;
    unsigned previous_length = 0;
    for (std::size_t i = 0; i < table.size(); ++i) {
        const unsigned length = table[i].length;
        if (length < 1 || length > kDtwMaxCodeLength) {
            error = "Huffman entry " + std::to_string(i) + " has code length " + std::to_string(length) +
                    " (must be 1..32)";
            codes.clear();
            return codes;
        }
        if (i > 0) {
            if (length > previous_length) {
                error = "Huffman entry " + std::to_string(i) + " is longer than the entry before it (8.3 needs "
                        "non-increasing lengths)";
                codes.clear();
                return codes;
            }
            code = (code + 1) >> (previous_length - length);
        }
        if (code >> length != 0) {
            error = "Huffman entry " + std::to_string(i) + " overflows its code length (the lengths are not a "
                    "prefix code)";
            codes.clear();
            return codes;
        }
        codes.push_back(static_cast<std::uint32_t>(code));
        previous_length = length;
    }
    return codes;
}

HuffmanDecoder::HuffmanDecoder(std::span<const HuffmanEntry> table) {
    std::string error;
    const std::vector<std::uint32_t> codes = assign_canonical_codes(table, error);
    if (codes.empty()) throw InvalidArgumentError(error);
    symbols_.reserve(table.size());
    for (const HuffmanEntry& e : table) symbols_.push_back(e.symbol);
    max_length_ = table.front().length;

    // Upstream's length table: walk the entries from the end (shortest codes) and record where
    // each length starts. The last group, the longest codes, starts at code 0, so every window
    // belongs to some group.
    for (std::size_t i = table.size(); i-- > 0;) {
        const bool group_start = i == 0 || table[i - 1].length != table[i].length;
        if (!group_start) continue;
        const unsigned length = table[i].length;
        groups_.push_back({static_cast<std::uint32_t>(std::uint64_t{codes[i]} << (32 - length)),
                           static_cast<std::uint32_t>(i), static_cast<std::uint8_t>(length)});
    }

    for (std::size_t g = 0; g < groups_.size(); ++g) group_starts_[g] = groups_[g].first_code_left_justified;

    // First-level table on the top bits: exact whenever the shortest window and the longest
    // window of a prefix fall in the same length group and that length is within the prefix
    // (group_of is monotone in the window, so then every window with the prefix agrees).
    constexpr unsigned kMaxFastBits = 10;
    const unsigned fast_bits = std::min(max_length_, kMaxFastBits);
    fast_shift_ = 32 - fast_bits;
    fast_table_.assign(std::size_t{1} << fast_bits, 0);
    for (std::uint32_t prefix = 0; prefix < fast_table_.size(); ++prefix) {
        const std::uint32_t low = prefix << fast_shift_;
        const std::uint32_t high = low | static_cast<std::uint32_t>((std::uint64_t{1} << fast_shift_) - 1);
        const std::size_t group = group_of(low);
        if (group != group_of(high) || groups_[group].length > fast_bits) continue;
        const Decoded d = decode_slow(low);
        if (d.length != 0) fast_table_[prefix] = d.symbol | (std::uint32_t{d.length} << 16);
    }
}

HuffmanDecoder::Decoded HuffmanDecoder::decode_slow(std::uint32_t window) const noexcept {
    const LengthGroup& group = groups_[group_of(window)];
    const std::uint64_t entry =
        group.first_entry + ((window - group.first_code_left_justified) >> (32 - group.length));
    if (entry >= symbols_.size()) return {};
    return {symbols_[entry], group.length};
}

namespace {

// Huffman code lengths of the used symbols (frequency > 0), unlimited.
std::vector<unsigned> huffman_lengths(std::span<const std::uint64_t> frequencies) {
    struct Node {
        std::uint64_t weight;
        std::size_t id;
    };
    const auto heavier = [](const Node& a, const Node& b) {
        return a.weight != b.weight ? a.weight > b.weight : a.id > b.id;
    };
    std::priority_queue<Node, std::vector<Node>, decltype(heavier)> queue(heavier);
    const std::size_t leaves = frequencies.size();
    std::vector<std::size_t> parent(leaves, 0);
    for (std::size_t s = 0; s < leaves; ++s) {
        if (frequencies[s] != 0) queue.push({frequencies[s], s});
    }
    std::vector<unsigned> lengths(leaves, 0);
    if (queue.size() == 1) {
        lengths[queue.top().id] = 1;
        return lengths;
    }
    while (queue.size() > 1) {
        const Node a = queue.top();
        queue.pop();
        const Node b = queue.top();
        queue.pop();
        const std::size_t id = parent.size();
        parent.push_back(0);
        parent[a.id] = id;
        parent[b.id] = id;
        queue.push({a.weight + b.weight, id});
    }
    // Internal nodes are created after their children, so one backward pass gives every depth.
    const std::size_t root = parent.size() - 1;
    std::vector<unsigned> depth(parent.size(), 0);
    for (std::size_t n = root; n-- > 0;) depth[n] = depth[parent[n]] + 1;
    for (std::size_t s = 0; s < leaves; ++s) {
        if (frequencies[s] != 0) lengths[s] = depth[s];
    }
    return lengths;
}

}  // namespace

std::vector<HuffmanEntry> build_huffman_table(std::span<const std::uint64_t> frequencies, unsigned max_length) {
    std::vector<std::uint64_t> weights(frequencies.begin(), frequencies.end());
    std::vector<unsigned> lengths = huffman_lengths(weights);
    // Too deep (only with very skewed counts): flatten the weights and rebuild. Halving keeps
    // every used symbol at weight >= 1 and converges to a balanced tree.
    while (*std::max_element(lengths.begin(), lengths.end()) > max_length) {
        for (std::uint64_t& w : weights) {
            if (w != 0) w = (w >> 1) | 1;
        }
        lengths = huffman_lengths(weights);
    }
    std::vector<HuffmanEntry> table;
    for (std::size_t s = 0; s < lengths.size(); ++s) {
        if (lengths[s] != 0) table.push_back({static_cast<std::uint16_t>(s), static_cast<std::uint8_t>(lengths[s])});
    }
    std::sort(table.begin(), table.end(), [](const HuffmanEntry& a, const HuffmanEntry& b) {
        return a.length != b.length ? a.length > b.length : a.symbol < b.symbol;
    });
    return table;
}

}  // namespace egdb::kingsrow
