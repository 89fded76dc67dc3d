#include "cli/command.hpp"

#include <charconv>

#include "core/probe/database.hpp"

namespace egdb::cli {

UsageError line_error(std::size_t line_number, std::string_view token, std::string_view message) {
    std::string text = "line " + std::to_string(line_number) + ": " + std::string(message);
    if (!token.empty()) text += " (token \"" + std::string(token) + "\")";
    return UsageError(text);
}

int exit_code_of(ErrorKind kind) noexcept {
    switch (kind) {
        case ErrorKind::InvalidArgument:
        case ErrorKind::InvalidNotation:
        case ErrorKind::NoDatabase:
        case ErrorKind::LookupNotPossible: return kExitBadInput;
        case ErrorKind::CorruptData:
        case ErrorKind::Io:
        case ErrorKind::Unsupported:
        case ErrorKind::Cancelled:
        case ErrorKind::Internal: return kExitFailure;
    }
    return kExitFailure;
}

std::int64_t parse_integer(std::string_view token, std::string_view what, std::int64_t min, std::int64_t max) {
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (ec != std::errc{} || end != token.data() + token.size() || token.empty()) {
        throw UsageError(std::string(what) + " must be an integer, got \"" + std::string(token) + "\"");
    }
    if (value < min || value > max) {
        throw UsageError(std::string(what) + " must be in " + std::to_string(min) + ".." + std::to_string(max) +
                         ", got \"" + std::string(token) + "\"");
    }
    return value;
}

void add_help_flag(CLI::App& app) {
    app.set_help_flag();  // removes CLI11's
    app.add_flag_callback("-h,--help", [] { throw CLI::CallForHelp(); })->trigger_on_parse();
}

CLI::App& add_command(CLI::App& parent, const std::string& name, std::string help, Work work) {
    CLI::App& command = *parent.add_subcommand(name, std::move(help));
    add_help_flag(command);
    if (work) {
        // A CLI11 callback returns nothing: a non-zero exit code reaches main as the exception
        // CLI11 has for it, CLI::RuntimeError, which carries the code and prints nothing.
        command.callback([work = std::move(work)] {
            if (const int code = work(); code != kExitOk) throw CLI::RuntimeError(code);
        });
    }
    return command;
}

void add_gibibytes(CLI::App& command, const std::string& name, std::uint64_t& bytes) {
    command
        .add_option_function<std::string>(name,
                                          [&bytes, name](const std::string& text) {
                                              std::size_t used = 0;
                                              double gib = 0;
                                              try {
                                                  gib = std::stod(text, &used);
                                              } catch (const std::exception&) {
                                                  used = 0;
                                              }
                                              if (used != text.size() || !(gib > 0) || gib > 1 << 20) {
                                                  throw UsageError(name + " must be a positive number of GiB, got \"" + text + "\"");
                                              }
                                              bytes = static_cast<std::uint64_t>(gib * 1073741824.0);
                                          })
        ->type_name("G");
}

}  // namespace egdb::cli

namespace egdb::cli {

std::vector<std::filesystem::path> database_directories(const std::vector<std::string>& options) {
    std::vector<std::filesystem::path> directories;
    for (const std::string& option : options) {
        for (std::filesystem::path& d : split_directory_list(option)) directories.push_back(std::move(d));
    }
    return directories;
}

}  // namespace egdb::cli
