// `egdb bench index`: throughput of the slice index (kingsrow-format.md section 2) in the shape of
// the GWDEGTB index benchmark: for the largest material of 2..7 pieces (slices 0101, 0111, 1111,
// 1112, 1212, 2212, named nbm nbk nwm nwk), the positions of the slice and, single thread,
// inversions/s (index -> position) and indices/s (position -> index) of the fast SliceIndexer.
// The baseline is the square-by-square reference implementation (core/index/reference_indexer.hpp)
// measured on the same random indices in the same process; the table gives both rates and the
// ratio fast/reference, and checks that both produced the same checksum.
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include "core/index/slice.hpp"

namespace egdb::bench {

// The slices of the table, from 2 to 7 pieces.
std::vector<SliceId> index_benchmark_slices();

struct IndexBenchRow {
    SliceId slice;
    std::uint64_t positions = 0;
    double inversions_per_second = 0;            // fast, index -> position
    double indices_per_second = 0;               // fast, position -> index
    double reference_inversions_per_second = 0;  // baseline, index -> position
    double reference_indices_per_second = 0;     // baseline, position -> index
    bool checksums_agree = false;                // fast and reference computed the same results
};

// Measures one slice. Each of the four rates runs for about seconds_per_slice / 4 over a fixed
// array of random indices (and the positions they map to, precomputed for the position -> index
// direction), folding every result into a checksum so that no work can be optimised away.
IndexBenchRow measure_index_slice(SliceId slice, double seconds_per_slice);

// Measures every slice of index_benchmark_slices() and prints the table to `out`; the whole run
// takes about 6 * seconds_per_slice.
void print_index_benchmark(std::ostream& out, double seconds_per_slice);

}  // namespace egdb::bench
