// The Tunstall encoders of V1 and V2 (4.6, 5.4): greedy longest match against the catalog's
// codes, with the catalog and value map chosen per 4096-byte block (V2) or per subslice (V1)
// by trial-encoding every candidate over the next codes and keeping the one covering the most
// positions per byte.
#include <algorithm>
#include <array>
#include <numeric>
#include <stdexcept>
#include <string>

#include "core/formats/kingsrow/codecs/stream_encoder.hpp"
#include "core/formats/kingsrow/codecs/tunstall_code_book.hpp"
#include "core/util/error.hpp"

namespace egdb::kingsrow {
namespace {

constexpr std::uint8_t kNotRepresentable = 0xFF;

// The values of one subslice with, at every position, the end of the run holding it.
struct Source {
    std::span<const std::uint8_t> real;
    std::vector<std::uint32_t> run_end;

    explicit Source(std::span<const std::uint8_t> values) : real(values), run_end(values.size()) {
        for (std::size_t i = values.size(); i-- > 0;) {
            run_end[i] = i + 1 < values.size() && values[i + 1] == values[i] ? run_end[i + 1] : static_cast<std::uint32_t>(i + 1);
        }
    }
};

// A real -> virtual value assignment (kNotRepresentable for values the block cannot hold).
using ToVirtual = std::array<std::uint8_t, 8>;

struct Candidate {
    int catalog = 0;
    ToVirtual to_virtual{};
    std::array<std::uint8_t, 6> from_virtual{};  // real value of each virtual value
};

struct Emitted {
    std::uint8_t code;
    std::uint16_t length;
};

class Matcher {
public:
    explicit Matcher(const TunstallCodeBook& book) : book_(book), by_first_(static_cast<std::size_t>(book.catalogs()) * 8) {
        for (int c = 0; c < book.catalogs(); ++c) {
            for (int b = 0; b < 256; ++b) {
                const TunstallCode& code = book.code(c, static_cast<std::uint8_t>(b));
                by_first_[static_cast<std::size_t>(c) * 8 + code.values[0]].push_back(static_cast<std::uint8_t>(b));
            }
            for (int v = 0; v < 8; ++v) {
                auto& list = by_first_[static_cast<std::size_t>(c) * 8 + v];
                std::stable_sort(list.begin(), list.end(), [&](std::uint8_t a, std::uint8_t b) {
                    return book.length(c, a) > book.length(c, b);
                });
            }
        }
    }

    // The longest code matching the virtual values from p (positions past the end match anything).
    bool longest(const Candidate& cand, const Source& src, std::size_t p, Emitted& out) const noexcept {
        const std::uint8_t first = cand.to_virtual[src.real[p]];
        if (first == kNotRepresentable) return false;
        for (const std::uint8_t b : by_first_[static_cast<std::size_t>(cand.catalog) * 8 + first]) {
            if (matches(book_.code(cand.catalog, b), cand, src, p)) {
                out = {b, book_.length(cand.catalog, b)};
                return true;
            }
        }
        return false;
    }

    // Encodes from p for at most max_codes codes (stops at the end of the values). Returns the
    // position reached; `failed` when no code matched before the end.
    std::size_t run(const Candidate& cand, const Source& src, std::size_t p, std::uint64_t max_codes,
                    std::vector<Emitted>* out, bool& failed) const {
        failed = false;
        for (std::uint64_t n = 0; n < max_codes && p < src.real.size(); ++n) {
            Emitted e{};
            if (!longest(cand, src, p, e)) {
                failed = true;
                break;
            }
            if (out != nullptr) out->push_back(e);
            p += e.length;
        }
        return p;
    }

    const TunstallCodeBook& book() const noexcept { return book_; }

private:
    static bool matches(const TunstallCode& code, const Candidate& cand, const Source& src, std::size_t p) noexcept {
        const std::size_t n = src.real.size();
        std::size_t q = p;
        std::uint32_t previous_end = 0;
        for (int j = 0; j < code.runs; ++j) {
            const std::uint32_t length = code.ends[j] - previous_end;
            previous_end = code.ends[j];
            if (q >= n) return true;
            if (cand.to_virtual[src.real[q]] != code.values[j]) return false;
            const std::size_t run_end = src.run_end[q];
            if (j + 1 == code.runs) return q + length <= run_end || run_end == n;
            if (q + length == run_end) {
                q = run_end;
                continue;
            }
            return run_end == n && q + length > n;
        }
        return true;
    }

    const TunstallCodeBook& book_;
    std::vector<std::vector<std::uint8_t>> by_first_;  // catalog * 8 + first virtual value
};

// Every assignment of the real values in `present` to distinct virtual values below `alphabet`
// (or, when `compact`, below |present| only), at most `limit` of them.
std::vector<Candidate> assignments(int catalog, const std::vector<std::uint8_t>& present, int alphabet, bool compact,
                                   std::size_t limit) {
    std::vector<Candidate> out;
    const int used = static_cast<int>(present.size());
    const int range = compact ? used : alphabet;
    Candidate c;
    c.catalog = catalog;
    c.to_virtual.fill(kNotRepresentable);
    unsigned taken = 0;
    // Depth-first over the present values, each taking a virtual value not yet taken.
    const auto place = [&](const auto& self, int i) -> void {
        if (out.size() >= limit) return;
        if (i == used) {
            out.push_back(c);
            return;
        }
        for (int v = 0; v < range; ++v) {
            if ((taken >> v) & 1U) continue;
            taken |= 1U << v;
            c.to_virtual[present[static_cast<std::size_t>(i)]] = static_cast<std::uint8_t>(v);
            c.from_virtual[static_cast<std::size_t>(v)] = present[static_cast<std::size_t>(i)];
            self(self, i + 1);
            c.from_virtual[static_cast<std::size_t>(v)] = 0;
            taken &= ~(1U << v);
        }
    };
    place(place, 0);
    return out;
}

std::vector<std::uint8_t> values_present(std::span<const std::uint8_t> values) {
    std::array<bool, 8> seen{};
    for (const std::uint8_t v : values) seen[v & 7] = true;
    std::vector<std::uint8_t> present;
    for (std::uint8_t v = 0; v < 8; ++v) {
        if (seen[v]) present.push_back(v);
    }
    return present;
}

// The candidate covering the most positions in `trial_codes` codes from p (ties: the first).
const Candidate* best_candidate(const Matcher& m, const std::vector<Candidate>& candidates, const Source& src,
                                std::size_t p, std::uint64_t trial_codes) {
    const Candidate* best = nullptr;
    std::size_t best_reach = 0;
    for (const Candidate& c : candidates) {
        bool failed = false;
        const std::size_t reach = m.run(c, src, p, trial_codes, nullptr, failed);
        if (failed && reach < src.real.size()) continue;
        if (best == nullptr || reach > best_reach) {
            best = &c;
            best_reach = reach;
        }
    }
    return best;
}

class TunstallV2Encoder final : public StreamEncoder {
public:
    explicit TunstallV2Encoder(int trial_codes) : book_(TunstallVersion::V2), matcher_(book_), trial_codes_(trial_codes) {}

    StreamCoding encode(std::span<const std::uint8_t> values, StreamSink& sink) const override {
        for (const std::uint8_t v : values) {
            if (v > 3) throw InvalidArgumentError("EGDB_WLD_TUN_V2 cannot store the partial value " + std::to_string(v));
        }
        const Source src(values);
        StreamCoding coding;
        std::vector<Emitted> codes;
        std::size_t p = 0;
        while (p < values.size()) {
            const std::uint64_t room = sink.room_in_block();
            // Values present ahead: three or fewer allow the three-valued catalogs 0..29.
            const std::size_t window_end = std::min(values.size(), p + (std::size_t{1} << 16));
            std::vector<std::uint8_t> present = values_present(values.subspan(p, window_end - p));
            codes.clear();
            const Candidate* chosen = nullptr;
            std::vector<Candidate> candidates;
            if (present.size() <= 3) {
                for (int c = 0; c < book_.catalogs(); ++c) {
                    if (book_.alphabet(c) != 3) continue;
                    for (const Candidate& cand : assignments(c, present, 3, false, 24)) candidates.push_back(cand);
                }
                chosen = best_candidate(matcher_, candidates, src, p, trial_codes_);
                if (chosen != nullptr) {
                    bool failed = false;
                    const std::size_t reach = matcher_.run(*chosen, src, p, room, &codes, failed);
                    if (failed && reach < values.size()) {
                        chosen = nullptr;  // a value outside the window's three: use a four-valued catalog
                        codes.clear();
                    }
                }
            }
            if (chosen == nullptr) {
                candidates.clear();
                const std::vector<std::uint8_t> all{0, 1, 2, 3};
                for (int c = 0; c < book_.catalogs(); ++c) {
                    if (book_.alphabet(c) != 4) continue;
                    for (const Candidate& cand : assignments(c, all, 4, false, 24)) candidates.push_back(cand);
                }
                chosen = best_candidate(matcher_, candidates, src, p, trial_codes_);
                bool failed = false;
                std::size_t reach = p;
                if (chosen != nullptr) reach = matcher_.run(*chosen, src, p, room, &codes, failed);
                if (chosen == nullptr || (failed && reach < values.size())) {
                    throw InternalError("Tunstall V2: no code matches the values at local index " + std::to_string(p));
                }
            }
            coding.blocks.push_back({static_cast<std::uint16_t>(chosen->catalog), vmap_byte(*chosen)});
            for (const Emitted& e : codes) {
                sink.emit(e.code, e.length);
                p += e.length;
            }
        }
        return coding;
    }

    std::uint8_t filler_code(const StreamCoding&) const override { return 0; }
    std::uint64_t filler_positions(const StreamCoding& c) const override {
        return book_.length(c.blocks.back().table, 0);
    }

private:
    // 4.5: real value of virtual v in bits 2v..2v+1; the values the block does not use take the
    // remaining slots so that the byte is a permutation.
    static std::uint16_t vmap_byte(const Candidate& c) noexcept {
        std::array<int, 4> real{-1, -1, -1, -1};
        std::array<bool, 4> used{};
        for (int r = 0; r < 4; ++r) {
            if (c.to_virtual[r] < 4) {
                real[c.to_virtual[r]] = r;
                used[r] = true;
            }
        }
        for (int v = 0; v < 4; ++v) {
            if (real[v] >= 0) continue;
            for (int r = 0; r < 4; ++r) {
                if (!used[r]) {
                    real[v] = r;
                    used[r] = true;
                    break;
                }
            }
        }
        int byte = 0;
        for (int v = 0; v < 4; ++v) byte |= real[v] << (2 * v);
        return static_cast<std::uint16_t>(byte);
    }

    TunstallCodeBook book_;
    Matcher matcher_;
    int trial_codes_;
};

class TunstallV1Encoder final : public StreamEncoder {
public:
    explicit TunstallV1Encoder(int trial_codes) : book_(TunstallVersion::V1), matcher_(book_), trial_codes_(trial_codes) {}

    StreamCoding encode(std::span<const std::uint8_t> values, StreamSink& sink) const override {
        const Source src(values);
        const std::vector<std::uint8_t> present = values_present(values);
        if (present.size() > 6 || present.back() > 5) throw InvalidArgumentError("EGDB_WLD_TUN_V1 stores values 0..5 only");
        std::vector<Candidate> candidates;
        for (int c = 0; c < book_.catalogs(); ++c) {
            const int alphabet = book_.alphabet(c);
            if (static_cast<int>(present.size()) > alphabet) continue;
            for (const Candidate& cand : assignments(c, present, alphabet, alphabet == 6, 24)) candidates.push_back(cand);
        }
        const Candidate* chosen = best_candidate(matcher_, candidates, src, 0, std::uint64_t{8} * static_cast<std::uint64_t>(trial_codes_));
        std::vector<Emitted> codes;
        bool failed = true;
        if (chosen != nullptr) matcher_.run(*chosen, src, 0, ~std::uint64_t{0}, &codes, failed);
        if (chosen == nullptr || failed) throw InternalError("Tunstall V1: no catalog encodes this subslice");
        for (const Emitted& e : codes) sink.emit(e.code, e.length);
        StreamCoding coding;
        coding.v1_catalog = chosen->catalog;
        coding.v1_value_count = book_.alphabet(chosen->catalog);
        coding.v1_values = chosen->from_virtual;
        return coding;
    }

    std::uint8_t filler_code(const StreamCoding&) const override { return 0; }
    std::uint64_t filler_positions(const StreamCoding& c) const override { return book_.length(c.v1_catalog, 0); }

private:
    TunstallCodeBook book_;
    Matcher matcher_;
    int trial_codes_;
};

}  // namespace

std::unique_ptr<StreamEncoder> make_tunstall_v1_encoder(int trial_codes) {
    return std::make_unique<TunstallV1Encoder>(trial_codes);
}
std::unique_ptr<StreamEncoder> make_tunstall_v2_encoder(int trial_codes) {
    return std::make_unique<TunstallV2Encoder>(trial_codes);
}

}  // namespace egdb::kingsrow
