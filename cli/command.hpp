// The `egdb` command-line program: shared pieces of its subcommands.
//
// Contract (scripts rely on it): results on stdout, diagnostics on stderr; exit code 0 on
// success, 2 on bad input or usage (the message names the line and the token), 1 when the work
// itself fails. A command that rejects its input writes nothing to stdout.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/error.hpp"

namespace egdb::workflow {
struct VerifyResult;
}

namespace egdb::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitBadInput = 2;

// Bad input or usage; reported as "egdb <command>: <message>" with exit code 2.
class UsageError : public ErrorOf<std::runtime_error, ErrorKind::InvalidArgument> {
public:
    using ErrorOf::ErrorOf;
};

// The exit code of a failure of `kind`: the one place where the CLI maps errors. Bad input
// (arguments, notation, a path without a database, a position the database cannot answer) is 2;
// a failure of the work itself (corrupt or unreadable files, missing tables, internal errors) 1.
int exit_code_of(ErrorKind kind) noexcept;

// Bad input on a numbered line of standard input.
UsageError line_error(std::size_t line_number, std::string_view token, std::string_view message);

using Args = std::span<const std::string_view>;

bool wants_help(Args args);
std::int64_t parse_integer(std::string_view token, std::string_view what, std::int64_t min, std::int64_t max);

// The lines `egdb verify` prints for a finished verification (also the end of `egdb build`).
void print_verify_result(const workflow::VerifyResult& result);

int run_perft(Args args);
int run_moves(Args args);
int run_index(Args args);
int run_position(Args args);
int run_bench(Args args);
int run_build(Args args);
int run_verify(Args args);
int run_probe(Args args);
int run_info(Args args);

}  // namespace egdb::cli
