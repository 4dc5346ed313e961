// arbiter: seeded, reproducible matches, tournaments and ladders for contest bots.
#include <csignal>
#include <cstdio>
#include <exception>

#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "arbiter/cli/commands.hpp"
#include "core/did_you_mean.hpp"
#include "core/user_error.hpp"
#include "rating/sqlite_db.hpp"

namespace {

// CLI11 reports a misspelt flag only as "arguments were not expected". Name the first unknown
// flag, the command it was given to, and the closest flag that command has.
bool explain_unknown_flag(const CLI::App& app) {
    const CLI::App* command = &app;
    std::string path;
    for (auto subs = command->get_subcommands(); !subs.empty(); subs = command->get_subcommands()) {
        command = subs.front();
        path += " " + command->get_name();
    }
    for (const std::string& word : command->remaining()) {
        if (word.rfind("--", 0) != 0) continue;
        const std::string flag = word.substr(2, word.find('=') - 2);
        std::vector<std::string> names;
        for (const CLI::Option* opt : command->get_options()) {
            for (const std::string& n : opt->get_lnames()) names.push_back(n);
        }
        std::string hint = arb::closest_name(flag, names);
        std::fprintf(stderr, "arbiter%s: unknown option '--%s'%s (see arbiter%s --help)\n", path.c_str(),
                     flag.c_str(), hint.empty() ? "" : (" (did you mean '--" + hint + "'?)").c_str(), path.c_str());
        return true;
    }
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    // A bot that closes its stdin must not kill the arbiter with SIGPIPE; writes report EPIPE.
    std::signal(SIGPIPE, SIG_IGN);
    spdlog::set_default_logger(spdlog::stderr_color_mt("arbiter"));
    spdlog::set_pattern("%^[%l]%$ %v");

    CLI::App app{"arbiter: plays bot-programming contest games between bot programs, with seeded\n"
                 "reproducible matches, time and memory limits, tournaments, ladders and ratings."};
    app.require_subcommand(1);
    bool verbose = false, quiet = false;
    app.add_flag("-v,--verbose", verbose, "Log more (debug level)");
    app.add_flag("-q,--quiet", quiet, "Log only errors");
    app.parse_complete_callback([&] {
        spdlog::set_level(verbose ? spdlog::level::debug : quiet ? spdlog::level::err : spdlog::level::info);
    });
    arb::cli::add_game_commands(app);
    arb::cli::add_rating_commands(app);
    arb::cli::add_tournament_commands(app);
    arb::cli::add_cluster_commands(app);
    arb::cli::add_match_command(app);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ExtrasError& e) {
        if (explain_unknown_flag(app)) return arb::kUsageExitCode;
        return app.exit(e) == 0 ? 0 : arb::kUsageExitCode;
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : arb::kUsageExitCode;
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
