// The RUNLEN and MTC encoders (6.2, 7.5): greedy runs of the largest skip not exceeding the run,
// literals otherwise.
#include <algorithm>
#include <stdexcept>

#include "core/formats/kingsrow/codecs/mtc_codec.hpp"
#include "core/formats/kingsrow/codecs/runlen_codec.hpp"
#include "core/formats/kingsrow/codecs/stream_encoder.hpp"

namespace egdb::kingsrow {
namespace {

// Index of the largest skip <= run in an ascending table (MTC: the 800000 entry sits out of
// order, so that table is searched linearly; any entry <= run is a correct choice).
template <class Table>
int largest_skip_at_most(const Table& skip, std::uint64_t run) noexcept {
    int best = -1;
    for (int i = 0; i < static_cast<int>(skip.size()); ++i) {
        if (skip[i] <= run && (best < 0 || skip[i] > skip[best])) best = i;
    }
    return best;
}

std::uint64_t run_length_at(std::span<const std::uint8_t> values, std::size_t p) noexcept {
    std::size_t e = p;
    while (e < values.size() && values[e] == values[p]) ++e;
    return e - p;
}

class RunlenEncoder final : public StreamEncoder {
public:
    StreamCoding encode(std::span<const std::uint8_t> values, StreamSink& sink) const override {
        StreamCoding coding;
        coding.has_partials = std::any_of(values.begin(), values.end(), [](std::uint8_t v) { return v < 1 || v > 3; });
        const bool partial = coding.has_partials;
        const int min_run = partial ? runlen::kSkipPartial.front() : runlen::kSkip.front();
        std::size_t p = 0;
        while (p < values.size()) {
            std::uint64_t run = run_length_at(values, p);
            if (run >= static_cast<std::uint64_t>(min_run)) {
                const int v = values[p];
                while (run >= static_cast<std::uint64_t>(min_run)) {
                    std::uint64_t length = 0;
                    if (partial) {
                        const int i = largest_skip_at_most(runlen::kSkipPartial, run);
                        length = runlen::kSkipPartial[i];
                        sink.emit(static_cast<std::uint8_t>(runlen::kPartialLiterals + v * 36 + i), length);
                    } else {
                        const int i = largest_skip_at_most(runlen::kSkip, run);
                        length = runlen::kSkip[i];
                        sink.emit(static_cast<std::uint8_t>(runlen::kCompleteLiterals + (v - 1) * 58 + i), length);
                    }
                    p += length;
                    run -= length;
                }
                continue;
            }
            // A literal; positions past the end are filled with any value (never queried).
            if (partial) {
                const int a = values[p];
                const int b = p + 1 < values.size() ? values[p + 1] : 0;
                sink.emit(static_cast<std::uint8_t>(a + 6 * b), runlen::kPartialLiteralPositions);
                p += runlen::kPartialLiteralPositions;
            } else {
                int code = 0;
                for (int j = 3; j >= 0; --j) code = code * 3 + (p + j < values.size() ? values[p + j] - 1 : 0);
                sink.emit(static_cast<std::uint8_t>(code), runlen::kCompleteLiteralPositions);
                p += runlen::kCompleteLiteralPositions;
            }
        }
        return coding;
    }
    std::uint8_t filler_code(const StreamCoding&) const override { return 0; }
    std::uint64_t filler_positions(const StreamCoding& c) const override {
        return c.has_partials ? runlen::kPartialLiteralPositions : runlen::kCompleteLiteralPositions;
    }
};

class MtcEncoder final : public StreamEncoder {
public:
    StreamCoding encode(std::span<const std::uint8_t> values, StreamSink& sink) const override {
        std::size_t p = 0;
        while (p < values.size()) {
            if (values[p] != 0) {
                sink.emit(values[p], 1);
                ++p;
                continue;
            }
            for (std::uint64_t run = run_length_at(values, p); run > 0;) {
                const int i = largest_skip_at_most(mtc::kSkip, run);  // kSkip[0] = 1 always fits
                sink.emit(static_cast<std::uint8_t>(i), mtc::kSkip[i]);
                p += mtc::kSkip[i];
                run -= mtc::kSkip[i];
            }
        }
        return {};
    }
    std::uint8_t filler_code(const StreamCoding&) const override { return 0; }
    std::uint64_t filler_positions(const StreamCoding&) const override { return 1; }
};

}  // namespace

std::unique_ptr<StreamEncoder> make_runlen_encoder() { return std::make_unique<RunlenEncoder>(); }
std::unique_ptr<StreamEncoder> make_mtc_encoder() { return std::make_unique<MtcEncoder>(); }

}  // namespace egdb::kingsrow
