#include "core/formats/kingsrow/dtw/repair_grammar.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "core/util/error.hpp"

namespace egdb::kingsrow {

RePairGrammar::RePairGrammar(std::span<const RePairRule> rules) {
    if (rules.empty()) throw InvalidArgumentError("no grammar symbols");
    nodes_.resize(rules.size());
    for (std::size_t i = 0; i < rules.size(); ++i) {
        const RePairRule& r = rules[i];
        nodes_[i].left = r.left;
        nodes_[i].right = r.right;
        if (r.left == i) continue;  // terminal
        if (r.left >= rules.size() || r.right >= rules.size()) {
            throw InvalidArgumentError("rule " + std::to_string(i) + " refers to symbol " +
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
                if (on_stack[child]) throw InvalidArgumentError("rule " + std::to_string(s) + " is cyclic");
                stack.push_back(child);
                pushed = true;
                break;
            }
            if (pushed) continue;
            const std::uint32_t length = nodes_[node.left].length + nodes_[node.right].length;
            if (length > 0xFFFF) {
                throw InvalidArgumentError("rule " + std::to_string(s) + " expands to " + std::to_string(length) +
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
// Key and count share a slot, so an update touches one cache line: counting is a random access
// per position of sequences of up to 2^30 symbols, and the misses are the builder's cost.
class PairTable {
public:
    static constexpr std::uint32_t kEmpty = 0xFFFFFFFF;  // pair (65535, 65535) cannot occur

    explicit PairTable(std::size_t expected) { reset(expected); }

    // Empties the table, sized for `expected` keys; storage is reused when the size is unchanged.
    void reset(std::size_t expected) {
        std::size_t capacity = 64;
        while (capacity < 2 * expected) capacity *= 2;
        if (slots_.size() == capacity) {
            std::fill(slots_.begin(), slots_.end(), Slot{});
        } else {
            slots_.assign(capacity, Slot{});
        }
        used_ = 0;
    }

    std::size_t size() const noexcept { return used_; }

    std::uint32_t& operator[](std::uint32_t key) {
        if (2 * (used_ + 1) > slots_.size()) grow();
        Slot& slot = slots_[find(key)];
        if (slot.key == kEmpty) {
            slot.key = key;
            ++used_;
        }
        return slot.value;
    }

    // Starts loading the slot of `key` into the cache, for an update a few positions later
    // (a hint only: compilers without the builtin skip it).
    void prefetch([[maybe_unused]] std::uint32_t key) const noexcept {
#if defined(__GNUC__) || defined(__clang__)
        __builtin_prefetch(&slots_[home(key)]);
#endif
    }

    const std::uint32_t* get(std::uint32_t key) const noexcept {
        const Slot& slot = slots_[find(key)];
        return slot.key == kEmpty ? nullptr : &slot.value;
    }

    template <class Visit>
    void for_each(Visit&& visit) const {
        for (const Slot& slot : slots_) {
            if (slot.key != kEmpty) visit(slot.key, slot.value);
        }
    }

private:
    struct Slot {
        std::uint32_t key = kEmpty;
        std::uint32_t value = 0;
    };

    std::size_t home(std::uint32_t key) const noexcept {
        return (std::uint64_t{key} * 0x9E3779B97F4A7C15ULL >> 20) & (slots_.size() - 1);
    }

    std::size_t find(std::uint32_t key) const noexcept {
        const std::size_t mask = slots_.size() - 1;
        std::size_t slot = home(key);
        while (slots_[slot].key != kEmpty && slots_[slot].key != key) slot = (slot + 1) & mask;
        return slot;
    }

    void grow() {
        std::vector<Slot> old(std::move(slots_));
        slots_.assign(2 * old.size(), Slot{});
        for (const Slot& s : old) {
            if (s.key != kEmpty) slots_[find(s.key)] = s;
        }
    }

    std::vector<Slot> slots_;
    std::size_t used_ = 0;
};

// Pairs ahead whose slots are prefetched while counting: enough to cover a memory access.
constexpr std::size_t kPrefetchDistance = 16;

constexpr std::uint32_t pair_key(std::uint16_t left, std::uint16_t right) noexcept {
    return (std::uint32_t{left} << 16) | right;
}

}  // namespace

RePairEncoding build_repair_grammar(std::vector<std::uint16_t> values, std::uint32_t terminal_count,
                                    const RePairOptions& options) {
    RePairEncoding out;
    const std::uint32_t max_symbols = std::min<std::uint32_t>(options.max_symbols, 0xFFFF);
    if (terminal_count < 1 || terminal_count > max_symbols) {
        throw InvalidArgumentError("terminal count " + std::to_string(terminal_count) + " out of range");
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
    // Sized from the previous pass's distinct pairs, so that it rarely grows (each growth rehashes).
    PairTable counts(std::min<std::size_t>(seq.size(), std::size_t{1} << 16));
    while (out.rules.size() < max_symbols && seq.size() >= 2) {
        // Count pairs; inside a run "aaaa" only non-overlapping occurrences count (2, not 3),
        // since that is how many replacements a left-to-right pass can make.
        counts.reset(std::min(seq.size(), std::max(counts.size(), std::size_t{1} << 16)));
        std::size_t last_run_pair = seq.size();
        for (std::size_t i = 0; i + 1 < seq.size(); ++i) {
            if (i + kPrefetchDistance + 1 < seq.size()) {
                counts.prefetch(pair_key(seq[i + kPrefetchDistance], seq[i + kPrefetchDistance + 1]));
            }
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
