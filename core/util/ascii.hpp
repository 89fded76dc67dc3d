// Character classes of the ASCII texts egdb parses (FEN, PDN and Hub moves, Kingsrow text
// indexes): fixed to ASCII, unlike <cctype>, whose answers depend on the C locale and which takes
// an int that a negative char would make undefined.
#pragma once

namespace egdb {

constexpr bool is_ascii_digit(char c) noexcept { return c >= '0' && c <= '9'; }

}  // namespace egdb
