// egdb: command-line front end of the egdb library (see cli/command.hpp for the contract).
#include <exception>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/command.hpp"

namespace {

constexpr const char* kUsage =
    "usage: egdb <command> [options]\n"
    "\n"
    "commands:\n"
    "  perft [--fen FEN] [--threads N] DEPTH   leaf counts, one line per depth: <depth> <nodes> <seconds>\n"
    "  moves FEN                               legal moves: <pdn-move> <fen-after-the-move>\n"
    "  index                                   FEN lines on stdin -> <nbm> <nbk> <nwm> <nwk> <index>\n"
    "  position                                <nbm> <nbk> <nwm> <nwk> <index> lines on stdin -> FEN\n"
    "  build --pieces N --out DIR              solve every endgame up to N pieces into DIR\n"
    "  verify DIR                              check a database: checksums, one-ply consistency\n"
    "  probe --db DIR... FEN...|-              values, distances and best moves of positions\n"
    "  info --db DIR                           slices, sizes, bits per position\n"
    "  hub --db DIR [--engine CMD]             Hub protocol engine: database moves, the rest to CMD\n"
    "  serve --db DIR [--port P]               HTTP tablebase server: JSON API and a web page\n"
    "  bench index|perft|build|probe           speed tables\n"
    "\n"
    "'egdb <command> --help' describes a command; 'egdb --version' prints the version.\n"
    "Exit codes: 0 ok, 1 failure, 2 bad input.\n";

// The help of a command is its own text (its description), as written: that text is the
// documentation, and it already describes the options, so CLI11's generated list is left out.
class OwnHelpText : public CLI::FormatterBase {
public:
    std::string make_help(const CLI::App* app, std::string, CLI::AppFormatMode) const override {
        return app->get_description();
    }
};

// The message of a CLI11 parse error, worded like the rest of egdb's diagnostics where CLI11's
// wording is unclear. `app` has parsed as far as the error, so it still holds what was left over.
std::string usage_message(const CLI::App& app, const CLI::ParseError& e) {
    const std::string what = e.what();
    if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
        // Each command keeps what it could not take; the first command with leftovers throws.
        const std::vector<std::string> extra = app.remaining(true);
        if (extra.empty()) return what;
        const bool command_word = app.get_subcommands().empty() && !extra.front().starts_with('-');
        return std::string(command_word ? "unknown command" : "unexpected argument") + " \"" + extra.front() + "\"";
    }
    // An option at the end of the line without its value: "--pieces: 1 required N missing".
    if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr && what.ends_with(" missing")) {
        if (const auto colon = what.find(": "); colon != std::string::npos) return what.substr(0, colon) + " needs a value";
    }
    return what;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace egdb::cli;
    CLI::App app(kUsage, "egdb");
    // Set before the subcommands are added: they inherit the formatter and the option defaults.
    app.formatter(std::make_shared<OwnHelpText>());
    add_help_flag(app);
    app.set_version_flag("--version", std::string("egdb ") + EGDB_VERSION);
    // An option given twice takes its last value, as egdb's commands always have (CLI11 would
    // reject the line); a list such as probe's FENs keeps every value.
    app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    // One command per line: without the limit a word naming another command would start it too.
    app.require_subcommand(0, 1);
    add_perft(app);
    add_moves(app);
    add_index(app);
    add_position(app);
    add_build(app);
    add_verify(app);
    add_probe(app);
    add_info(app);
    add_serve(app);
    add_bench(app);
    add_hub(app);
    add_command(app, "help", kUsage, [] {
        std::cout << kUsage;
        return kExitOk;
    });  // `egdb help` as `egdb --help`

    // Diagnostics name the command the line chose, once parsing has reached it.
    const auto prefix = [&app] {
        const std::vector<CLI::App*> chosen = app.get_subcommands();
        return chosen.empty() ? std::string("egdb: ") : "egdb " + chosen.front()->get_name() + ": ";
    };
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForVersion& e) {
        std::cout << e.what() << '\n';
        return kExitOk;
    } catch (const CLI::CallForHelp&) {
        std::cout << app.help();  // the help of the deepest command chosen
        return kExitOk;
    } catch (const CLI::RuntimeError& e) {
        return e.get_exit_code();  // the work's own exit code (see add_command)
    } catch (const CLI::ParseError& e) {
        std::cerr << prefix() << usage_message(app, e) << '\n' << app.help();
        return kExitBadInput;
    } catch (const std::exception& e) {
        std::cerr << prefix() << e.what() << '\n';
        return exit_code_of(egdb::kind_of(e));
    }
    if (app.get_subcommands().empty()) {
        std::cerr << kUsage;  // `egdb` alone
        return kExitBadInput;
    }
    return kExitOk;
}
