// The arbiter's command line: the commands wired together, parsed, and every error turned into
// one line and an exit code (main.cpp only calls run_command_line).
#include "arbiter/cli/command_line.hpp"

#include <algorithm>
#include <cctype>
#include <csignal>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "arbiter/cli/commands.hpp"
#include "core/did_you_mean.hpp"
#include "core/output_modes.hpp"
#include "core/user_error.hpp"
#include "rating/sqlite_db.hpp"

namespace {

// The command the user reached: the last subcommand parsed, with its path for messages.
const CLI::App* reached_command(const CLI::App& app, std::string& path) {
    const CLI::App* command = &app;
    for (auto subs = command->get_subcommands(); !subs.empty(); subs = command->get_subcommands()) {
        command = subs.front();
        path += " " + command->get_name();
    }
    return command;
}

// `arbiter play chess`: a word where a game (a subcommand of play or verify) was expected.
bool explain_unknown_game(const CLI::App& app) {
    std::string path;
    const CLI::App* command = reached_command(app, path);
    const std::vector<std::string> words = command->remaining();
    const auto games = command->get_subcommands([](const CLI::App* s) { return !s->get_name().empty(); });
    if (games.empty() || words.empty() || words.front().rfind("-", 0) == 0) return false;
    if (command->get_name() != "play" && command->get_name() != "verify") return false;
    std::vector<std::string> names;
    for (const CLI::App* g : games) names.push_back(g->get_name());
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    std::fprintf(stderr, "arbiter%s: unknown game '%s'%s; the games are %s (see arbiter games)\n", path.c_str(),
                 words.front().c_str(), arb::did_you_mean(words.front(), names).c_str(), list.c_str());
    return true;
}

// `arbiter tournamnet`: a word where a command was expected (CLI11 says only that one is required).
bool explain_unknown_command(const CLI::App& app) {
    if (!app.get_subcommands().empty()) return false;
    const std::vector<std::string> words = app.remaining();
    if (words.empty() || words.front().rfind("-", 0) == 0) return false;
    std::vector<std::string> names;
    for (const CLI::App* c : app.get_subcommands([](const CLI::App* s) { return !s->get_name().empty(); }))
        names.push_back(c->get_name());
    std::fprintf(stderr, "arbiter: unknown command '%s'%s (see arbiter --help)\n", words.front().c_str(),
                 arb::did_you_mean(words.front(), names).c_str());
    return true;
}

// -v/-q mean the same after a command as before it (`arbiter tournament -q ...`). A command that
// already has one of these names for itself keeps it.
void add_log_flags(CLI::App* command, bool& verbose, bool& quiet, bool& shared_outputs) {
    for (CLI::App* sub : command->get_subcommands([](const CLI::App* s) { return !s->get_name().empty(); })) {
        const auto free = [sub](const char* name) { return sub->get_option_no_throw(name) == nullptr; };
        std::string v = std::string(free("-v") ? "-v," : "") + (free("--verbose") ? "--verbose" : "");
        std::string q = std::string(free("-q") ? "-q," : "") + (free("--quiet") ? "--quiet" : "");
        if (!v.empty() && v.back() == ',') v.pop_back();
        if (!q.empty() && q.back() == ',') q.pop_back();
        if (!v.empty()) sub->add_flag(v, verbose, "Log more (debug level)")->group("");
        if (!q.empty()) sub->add_flag(q, quiet, "Log only errors")->group("");
        if (free("--shared-outputs")) sub->add_flag("--shared-outputs", shared_outputs, "Outputs with your umask")->group("");
        add_log_flags(sub, verbose, quiet, shared_outputs);
    }
}

// CLI11's help ends the option list with an extra blank line when a command has hidden options
// (the earlier spellings, -v/-q after the command): separate only the groups it prints.
class HelpFormatter : public CLI::Formatter {
public:
    std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override {
        if (mode == CLI::AppFormatMode::Sub) return make_expanded(app);
        return make_description(app) + make_usage(app, name) + make_positionals(app) + visible_groups(app) +
               make_subcommands(app, mode) + "\n" + make_footer(app);
    }

private:
    std::string visible_groups(const CLI::App* app) const {
        std::string out;
        for (const std::string& group : app->get_groups()) {
            if (group.empty()) continue;
            const auto opts = app->get_options([&group](const CLI::Option* opt) {
                return opt->get_group() == group && opt->nonpositional();
            });
            if (opts.empty()) continue;
            if (!out.empty()) out += "\n";
            out += make_group(group, false, opts);
        }
        return out;
    }
};

// CLI11 reports a misspelt flag only as "arguments were not expected". Name the first unknown
// flag, the command it was given to, and the closest flag that command has.
bool explain_unknown_flag(const CLI::App& app) {
    std::string path;
    for (const CLI::App* command = &app; command != nullptr;) {
        for (const std::string& word : command->remaining()) {
            if (word.rfind("--", 0) != 0) continue;
            const std::string flag = word.substr(2, word.find('=') - 2);
            std::vector<std::string> names;
            for (const CLI::Option* opt : command->get_options()) {
                if (opt->get_group().empty()) continue;  // earlier spellings are not suggested
                for (const std::string& n : opt->get_lnames()) names.push_back(n);
            }
            std::string hint = arb::closest_name(flag, names);
            std::fprintf(stderr, "arbiter%s: unknown option '--%s'%s (see arbiter%s --help)\n", path.c_str(),
                         flag.c_str(), hint.empty() ? "" : (" (did you mean '--" + hint + "'?)").c_str(), path.c_str());
            return true;
        }
        const auto subs = command->get_subcommands();
        command = subs.empty() ? nullptr : subs.front();
        if (command != nullptr) path += " " + command->get_name();
    }
    return false;
}

// Any other parse error in the one-line form of every arbiter error, naming the command; help
// and --version (exit 0) print as CLI11 prints them.
int report_parse_error(const CLI::App& app, const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::string path;
    reached_command(app, path);
    std::fprintf(stderr, "arbiter%s: %s (see arbiter%s --help)\n", path.c_str(), e.what(), path.c_str());
    return arb::kUsageExitCode;
}

// A KEY=VALUE word of an SPRT string: no blank in it (a bot spec "name=a cmd=..." has one).
bool is_setting_word(const std::string& word) {
    const auto eq = word.find('=');
    if (eq == std::string::npos || eq == 0 || word.find_first_of(" \t") != std::string::npos) return false;
    return std::all_of(word.begin(), word.begin() + eq, [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// fastchess's spelling works unchanged: `-sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized`
// is `--sprt`, and the KEY=VALUE words after it become its one argument, so the bots or any flag
// may follow it.
std::vector<std::string> joined_sprt_words(int argc, char** argv) {
    std::vector<std::string> out;
    for (int i = 0; i < argc; ++i) {
        const std::string word = argv[i];
        if (i == 0 || (word != "-sprt" && word != "--sprt")) {
            out.push_back(word);
            continue;
        }
        out.push_back("--sprt");
        std::string value;
        for (; i + 1 < argc && is_setting_word(argv[i + 1]); ++i) value += (value.empty() ? "" : " ") + std::string(argv[i + 1]);
        if (!value.empty()) out.push_back(value);
    }
    return out;
}

}  // namespace

int arb::cli::run_command_line(int argc, char** argv) {
    // A bot that closes its stdin must not kill the arbiter with SIGPIPE; writes report EPIPE.
    std::signal(SIGPIPE, SIG_IGN);
    spdlog::set_default_logger(spdlog::stderr_color_mt("arbiter"));
    spdlog::set_pattern("%^[%l]%$ %v");

    CLI::App app{"arbiter: plays bot-programming contest games between bot programs, with seeded\n"
                 "reproducible matches, time and memory limits, tournaments, ladders and ratings."};
    app.formatter(std::make_shared<HelpFormatter>());  // before the commands: they copy it
    app.require_subcommand(1);
    bool verbose = false, quiet = false, shared_outputs = false;
    app.add_flag("-v,--verbose", verbose, "Log more (debug level); also after the command");
    app.add_flag("-q,--quiet", quiet, "Log only errors; also after the command");
    app.add_flag("--shared-outputs", shared_outputs,
                 "Create databases, match folders, records, transcripts and logs with your umask (default: "
                 "readable by you alone, 0700/0600)");
    app.set_version_flag("--version", arb::cli::version_text(), "Print the version and exit");
    app.footer("Example:\n  arbiter play " + arb::cli::example_game().name +
               " --bot \"name=a cmd=./bot_a\" --bot \"name=b cmd=./bot_b\" --seed 3\n"
               "Run arbiter COMMAND --help for the options of a command.");
    app.parse_complete_callback([&] {
        spdlog::set_level(verbose ? spdlog::level::debug : quiet ? spdlog::level::err : spdlog::level::info);
        if (shared_outputs) arb::share_outputs();
    });
    arb::cli::add_game_commands(app);
    arb::cli::add_rating_commands(app);
    arb::cli::add_tournament_commands(app);
    arb::cli::add_cluster_commands(app);
    arb::cli::add_match_commands(app);
    arb::cli::add_head_to_head_command(app);
    arb::cli::add_view_command(app);
    arb::cli::add_serve_command(app);
    arb::cli::add_diff_command(app);
    add_log_flags(&app, verbose, quiet, shared_outputs);

    const std::vector<std::string> words = joined_sprt_words(argc, argv);
    std::vector<const char*> word_pointers;
    for (const auto& w : words) word_pointers.push_back(w.c_str());
    try {
        app.parse(static_cast<int>(word_pointers.size()), word_pointers.data());
    } catch (const CLI::ExtrasError& e) {
        if (explain_unknown_command(app) || explain_unknown_game(app) || explain_unknown_flag(app))
            return arb::kUsageExitCode;
        return report_parse_error(app, e);
    } catch (const CLI::RequiredError& e) {
        if (explain_unknown_command(app) || explain_unknown_game(app)) return arb::kUsageExitCode;
        return report_parse_error(app, e);
    } catch (const CLI::ParseError& e) {
        return report_parse_error(app, e);
    } catch (const arb::cli::ExitStatus& e) {
        return e.code;
    } catch (const arb::UserError& e) {
        std::fprintf(stderr, "arbiter: %s\n", e.what());
        return arb::kUsageExitCode;
    } catch (const arb::rating::SqliteError& e) {
        if (!e.caused_by_machine()) {
            std::fprintf(stderr, "arbiter: internal error: %s (please report this as a bug)\n", e.what());
            return 1;
        }
        std::fprintf(stderr, "arbiter: %s\n", e.user_message().c_str());
        return arb::kUsageExitCode;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "arbiter: internal error: %s (please report this as a bug)\n", e.what());
        return 1;
    }
    return 0;
}
