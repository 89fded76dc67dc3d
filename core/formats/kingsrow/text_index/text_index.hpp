// The text index files of the RUNLEN, TUN_V1, TUN_V2 and MTC formats (kingsrow-format.md 3.2,
// 4.2, 5.2, 6.1, 7.2): one record per (slice, subslice, side to move), each either a single
// value or the position of a data stream and the starting index of every further file block
// it touches.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/board/position.hpp"
#include "core/index/slice.hpp"
#include "core/util/error.hpp"

namespace egdb::kingsrow {

// An index file that does not follow the grammar; what() is "<file>:<line>: <reason>".
class IndexFileError : public CorruptDataError {
public:
    IndexFileError(std::string_view file, int line, std::string_view reason);
};

// The four text grammars differ only in what follows a data record's header.
enum class IndexDialect : std::uint8_t {
    Runlen,    // F1/B1 in 1024-byte blocks, "#haspartials" comment, one integer per further block
    TunV1,     // F1/B1 in 1024-byte blocks, "#vmap <cat>: v0,v1,v2[,v3,v4,v5]", integers
    TunV2,     // F/B,cat,vmap in 4096-byte blocks, then "I,cat,vmap" per further block
    Mtc,       // F4/B4 in 4096-byte blocks, integers; no single-value records
};

struct IndexRecord {
    SliceId slice;
    std::uint32_t subslice = 0;
    Color side_to_move = Color::Black;
    int line = 0;  // of the header, for messages

    // Single-value record: the WLD value (0..3) of every position. -1 for a data record.
    int single_value = -1;

    // Data record: the stream starts at byte first_offset of block first_block (blocks of the
    // dialect's unit) and block_starts[k-1] is the local index of the first position encoded in
    // block first_block + k.
    std::uint64_t first_block = 0;
    std::uint32_t first_offset = 0;
    std::vector<std::uint32_t> block_starts;

    // TunV2: catalog and value map for block first_block + k (k = 0 .. block_starts.size()).
    std::vector<std::uint8_t> catalogs;
    std::vector<std::uint8_t> value_maps;
    // TunV1: the subslice's catalog and value list (has_vmap false: catalog 0, all values 0).
    bool has_vmap = false;
    int vmap_catalog = 0;
    int vmap_size = 0;  // 3 or 6
    std::array<std::uint8_t, 6> vmap_values{};
    // Runlen: the subslice uses the six-valued ("haspartials") coding.
    bool has_partials = false;

    bool is_data() const noexcept { return single_value < 0; }
};

// Parses an index file's text. `file` names it in errors. Parsing stops silently at the first
// token that does not start a record (3.2), as upstream does; malformed records throw.
std::vector<IndexRecord> parse_text_index(std::string_view text, IndexDialect dialect, std::string_view file);

}  // namespace egdb::kingsrow
