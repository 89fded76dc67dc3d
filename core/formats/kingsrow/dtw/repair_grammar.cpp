#include "core/formats/kingsrow/dtw/repair_grammar.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace egdb::kingsrow {

RePairGrammar::RePairGrammar(std::span<const RePairRule> rules) {
    if (rules.empty()) throw std::invalid_argument("no grammar symbols");
    nodes_.resize(rules.size());
    for (std::size_t i = 0; i < rules.size(); ++i) {
        const RePairRule& r = rules[i];
        nodes_[i].left = r.left;
        nodes_[i].right = r.right;
        if (r.left == i) continue;  // terminal
        if (r.left >= rules.size() || r.right >= rules.size()) {
            throw std::invalid_argument("rule " + std::to_string(i) + " refers to symbol " +
                                        std::to_string(std::max(r.left, r.right)) + " of " +
                                        std::to_string(rules.size()));
        }
    }
    // Expansion lengths by an explicit depth-first walk; `length == 0` means not yet known and
    // `on_stack` catches a rule that (indirectly) contains itself, which would never end.
    std::vector<bool> on_stack(nodes_.size(), false);
    std::vector<std::uint16_t> stack;
    for (std::size_t start = 0; start < nodes_.size(); ++start) {
        if (nodes_[start].length != 0) continue;
        stack.push_back(static_cast<std::uint16_t>(start));
        while (!stack.empty()) {
            const std::uint16_t s = stack.back();
            Node& node = nodes_[s];
            if (node.left == s) {
                node.length = 1;
                stack.pop_back();
                continue;
            }
            on_stack[s] = true;
            bool pushed = false;
            for (const std::uint16_t child : {node.left, node.right}) {
                if (nodes_[child].length != 0) continue;
                if (on_stack[child]) throw std::invalid_argument("rule " + std::to_string(s) + " is cyclic");
                stack.push_back(child);
                pushed = true;
                break;
            }
            if (pushed) continue;
            const std::uint32_t length = nodes_[node.left].length + nodes_[node.right].length;
            if (length > 0xFFFF) {
                throw std::invalid_argument("rule " + std::to_string(s) + " expands to " + std::to_string(length) +
                                            " values (at most 65535)");
            }
            node.length = length;
            on_stack[s] = false;
            stack.pop_back();
        }
    }
}

void RePairGrammar::expand(std::uint16_t symbol, std::vector<std::uint16_t>& out) const {
    for (std::uint32_t offset = 0; offset < nodes_[symbol].length; ++offset) out.push_back(terminal_at(symbol, offset));
}

namespace {

// Counts of adjacent symbol pairs, keyed by left << 16 | right, in an open-addressing table.
class PairTable {
public:
    static constexpr std::uint32_t kEmpty = 0xFFFFFFFF;  // pair (65535, 65535) cannot occur

    explicit PairTable(std::size_t expected) {
        std::size_t capacity = 64;
        while (capacity < 2 * expected) capacity *= 2;
        keys_.assign(capacity, kEmpty);
        values_.assign(capacity, 0);
    }

    std::uint32_t& operator[](std::uint32_t key) {
        if (2 * (used_ + 1) > keys_.size()) grow();
        const std::size_t slot = find(key);
        if (keys_[slot] == kEmpty) {
            keys_[slot] = key;
            ++used_;
        }
        return values_[slot];
    }

    const std::uint32_t* get(std::uint32_t key) const noexcept {
        const std::size_t slot = find(key);
        return keys_[slot] == kEmpty ? nullptr : &values_[slot];
    }

    template <class Visit>
    void for_each(Visit&& visit) const {
        for (std::size_t i = 0; i < keys_.size(); ++i) {
            if (keys_[i] != kEmpty) visit(keys_[i], values_[i]);
        }
    }

private:
    std::size_t find(std::uint32_t key) const noexcept {
        const std::size_t mask = keys_.size() - 1;
        std::size_t slot = (std::uint64_t{key} * 0x9E3779B97F4A7C15ULL >> 20) & mask;
        while (keys_[slot] != kEmpty && keys_[slot] != key) slot = (slot + 1) & mask;
        return slot;
    }

    void grow() {
        std::vector<std::uint32_t> keys(std::move(keys_));
        std::vector<std::uint32_t> values(std::move(values_));
        keys_.assign(2 * keys.size(), kEmpty);
        values_.assign(2 * keys.size(), 0);
        for (std::size_t i = 0; i < keys.size(); ++i) {
            if (keys[i] == kEmpty) continue;
            const std::size_t slot = find(keys[i]);
            keys_[slot] = keys[i];
            values_[slot] = values[i];
        }
    }

    std::vector<std::uint32_t> keys_;
    std::vector<std::uint32_t> values_;
    std::size_t used_ = 0;
};

constexpr std::uint32_t pair_key(std::uint16_t left, std::uint16_t right) noexcept {
    return (std::uint32_t{left} << 16) | right;
}

}  // namespace

RePairEncoding build_repair_grammar(std::vector<std::uint16_t> values, std::uint32_t terminal_count,
                                    const RePairOptions& options) {
    RePairEncoding out;
    const std::uint32_t max_symbols = std::min<std::uint32_t>(options.max_symbols, 0xFFFF);
    if (terminal_count < 1 || terminal_count > max_symbols) {
        throw std::invalid_argument("terminal count " + std::to_string(terminal_count) + " out of range");
    }
    out.rules.reserve(terminal_count);
    std::vector<std::uint32_t> lengths;
    for (std::uint32_t t = 0; t < terminal_count; ++t) {
        out.rules.push_back({static_cast<std::uint16_t>(t), static_cast<std::uint16_t>(t)});
        lengths.push_back(1);
    }
    out.sequence = std::move(values);
    std::vector<std::uint16_t>& seq = out.sequence;

    struct Candidate {
        std::uint32_t key;
        std::uint32_t count;
    };
    std::vector<Candidate> candidates;
    while (out.rules.size() < max_symbols && seq.size() >= 2) {
        // Count pairs; inside a run "aaaa" only non-overlapping occurrences count (2, not 3),
        // since that is how many replacements a left-to-right pass can make.
        PairTable counts(std::min<std::size_t>(seq.size(), std::size_t{1} << 16));
        std::size_t last_run_pair = seq.size();
        for (std::size_t i = 0; i + 1 < seq.size(); ++i) {
            if (seq[i] == seq[i + 1]) {
                if (last_run_pair + 1 == i && seq[last_run_pair] == seq[i]) continue;
                last_run_pair = i;
            }
            ++counts[pair_key(seq[i], seq[i + 1])];
        }
        candidates.clear();
        counts.for_each([&](std::uint32_t key, std::uint32_t count) {
            if (count < options.min_occurrences) return;
            const std::uint32_t length = lengths[key >> 16] + lengths[key & 0xFFFF];
            if (length <= options.max_expansion) candidates.push_back({key, count});
        });
        if (candidates.empty()) break;
        const std::size_t budget = std::min<std::size_t>(options.rules_per_pass, max_symbols - out.rules.size());
        const std::size_t take = std::min(budget, candidates.size());
        std::partial_sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(take), candidates.end(),
                          [](const Candidate& a, const Candidate& b) {
                              return a.count != b.count ? a.count > b.count : a.key < b.key;
                          });

        PairTable new_symbol(take);
        for (std::size_t c = 0; c < take; ++c) {
            const std::uint32_t key = candidates[c].key;
            new_symbol[key] = static_cast<std::uint32_t>(out.rules.size());
            out.rules.push_back({static_cast<std::uint16_t>(key >> 16), static_cast<std::uint16_t>(key & 0xFFFF)});
            lengths.push_back(lengths[key >> 16] + lengths[key & 0xFFFF]);
        }
        std::size_t write = 0;
        std::size_t i = 0;
        while (i < seq.size()) {
            if (i + 1 < seq.size()) {
                if (const std::uint32_t* s = new_symbol.get(pair_key(seq[i], seq[i + 1]))) {
                    seq[write++] = static_cast<std::uint16_t>(*s);
                    i += 2;
                    continue;
                }
            }
            seq[write++] = seq[i++];
        }
        seq.resize(write);
    }
    return out;
}

}  // namespace egdb::kingsrow
