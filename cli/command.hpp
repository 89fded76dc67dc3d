// The `egdb` command-line program: shared pieces of its subcommands.
//
// Contract (scripts rely on it): results on stdout, diagnostics on stderr; exit code 0 on
// success, 2 on bad input or usage (the message names the line and the token), 1 when the work
// itself fails. A command that rejects its input writes nothing to stdout.
//
// Arguments are parsed by CLI11: each command file registers its subcommand (options, help text,
// and the work to run) on the one CLI::App that main.cpp builds.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

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

// `token` as an integer in min..max; otherwise a UsageError naming `what` and the token.
std::int64_t parse_integer(std::string_view token, std::string_view what, std::int64_t min, std::int64_t max);

// The work of a command, run once its arguments are parsed. It returns the exit code: kExitOk,
// or kExitFailure when the work found a problem that it has reported (verify, build). Bad input
// and failures are thrown; main maps them with exit_code_of.
using Work = std::function<int()>;

// Makes -h/--help on `app` ask for its help text as soon as the flag is parsed. CLI11's own help
// flag is looked at only after every option value is converted, so a bad value elsewhere on the
// line would be reported instead of the help that was asked for.
void add_help_flag(CLI::App& app);

// Adds subcommand `name` to `parent`. `help` is the text `--help` prints, as written (it starts
// with the "usage: egdb ..." line and describes the options). `work` runs when the command line
// chose this subcommand; a command that only groups subcommands (bench) passes none.
CLI::App& add_command(CLI::App& parent, const std::string& name, std::string help, Work work);

// Adds the option (or, for a name without dashes, the positional argument) `name` that stores an
// integer in min..max into `value`. The conversion is parse_integer's rather than CLI11's, whose
// messages neither say the range nor quote the value.
template <class T>
CLI::Option* add_integer(CLI::App& command, const std::string& name, T& value, std::int64_t min, std::int64_t max) {
    return command
        .add_option_function<std::string>(
            name, [&value, name, min, max](const std::string& token) { value = static_cast<T>(parse_integer(token, name, min, max)); })
        ->type_name("N");
}

// Adds option `name` taking a positive number of GiB (decimals allowed: "0.5") stored in bytes.
void add_gibibytes(CLI::App& command, const std::string& name, std::uint64_t& bytes);

// The directories of the repeated --db options of probe and hub, each of which may itself be a
// ';'-separated list (split_directory_list), in order: Database::open takes each kind of data
// from the first that holds it.
std::vector<std::filesystem::path> database_directories(const std::vector<std::string>& options);

// The lines `egdb verify` prints for a finished verification (also the end of `egdb build`).
void print_verify_result(const workflow::VerifyResult& result);

// The subcommands, one function per command; main.cpp calls each once on the root app.
void add_perft(CLI::App& app);
void add_moves(CLI::App& app);
void add_index(CLI::App& app);
void add_position(CLI::App& app);
void add_build(CLI::App& app);
void add_verify(CLI::App& app);
void add_probe(CLI::App& app);
void add_info(CLI::App& app);
void add_serve(CLI::App& app);
void add_bench(CLI::App& app);
void add_hub(CLI::App& app);

}  // namespace egdb::cli
