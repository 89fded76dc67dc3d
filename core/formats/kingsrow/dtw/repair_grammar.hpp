// The Re-Pair grammar of a DTW subslice (kingsrow-format.md 8.3, 8.4): symbol i is a terminal,
// the DTW value i, when its rule's left field is i; otherwise it expands to left then right.
// The reader keeps every symbol's expansion length beside its rule so that finding the value at
// an offset inside a symbol is one descent from the root to a terminal.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace egdb::kingsrow {

// A rule as stored in the index file: two u16 fields.
struct RePairRule {
    std::uint16_t left = 0;
    std::uint16_t right = 0;

    friend constexpr bool operator==(const RePairRule&, const RePairRule&) = default;
};

class RePairGrammar {
public:
    RePairGrammar() = default;
    // Throws std::invalid_argument (with the reason) when a rule refers to a missing symbol, the
    // rules are cyclic, or an expansion is longer than 65535 (upstream keeps lengths in a u16).
    explicit RePairGrammar(std::span<const RePairRule> rules);

    std::size_t size() const noexcept { return nodes_.size(); }
    std::uint32_t expansion_length(std::uint16_t symbol) const noexcept { return nodes_[symbol].length; }
    bool is_terminal(std::uint16_t symbol) const noexcept { return nodes_[symbol].length == 1; }

    // The terminal at position `offset` (< expansion_length(symbol)) of the expansion of
    // `symbol` (8.4 step 4).
    std::uint16_t terminal_at(std::uint16_t symbol, std::uint32_t offset) const noexcept {
        while (nodes_[symbol].length > 1) {
            const Node& node = nodes_[symbol];
            const std::uint32_t left_length = nodes_[node.left].length;
            if (offset < left_length) {
                symbol = node.left;
            } else {
                offset -= left_length;
                symbol = node.right;
            }
        }
        return symbol;
    }

    // Appends the full expansion of `symbol` (for tests and the writer's self-check).
    void expand(std::uint16_t symbol, std::vector<std::uint16_t>& out) const;

private:
    struct Node {
        std::uint16_t left = 0;
        std::uint16_t right = 0;
        std::uint32_t length = 0;
    };
    std::vector<Node> nodes_;
};

// Output of the grammar builder: the rules (terminals first, at their own slots) and the symbol
// sequence that expands to the input.
struct RePairEncoding {
    std::vector<RePairRule> rules;
    std::vector<std::uint16_t> sequence;
};

struct RePairOptions {
    // A pair becomes a rule only if it occurs at least this often: a rule costs 7 index bytes
    // (4 for the rule, 3 for its Huffman entry), so rare pairs do not pay for themselves.
    std::uint32_t min_occurrences = 8;
    // Most rules created per pass over the sequence. Re-Pair proper replaces one pair per pass;
    // replacing the most frequent few pairs at once is almost as good and far faster.
    std::uint32_t rules_per_pass = 64;
    // Total symbol budget (terminals + rules), at most 65535.
    std::uint32_t max_symbols = 0xFFFF;
    // Longest expansion allowed (upstream stores expansion lengths as u16).
    std::uint32_t max_expansion = 0xFFFF;
};

// Builds terminals 0..terminal_count-1 and pair rules for `values` (each < terminal_count), by
// repeated passes that count adjacent pairs (non-overlapping in runs) and replace the most
// frequent ones left to right. Precondition: 1 <= terminal_count <= options.max_symbols.
// The values become the sequence, rewritten in place (hence taken by value: move them in).
RePairEncoding build_repair_grammar(std::vector<std::uint16_t> values, std::uint32_t terminal_count,
                                    const RePairOptions& options = {});

}  // namespace egdb::kingsrow
