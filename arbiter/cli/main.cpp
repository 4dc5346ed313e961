// arbiter: seeded, reproducible matches, tournaments and ladders for contest bots.
#include <csignal>
#include <cstdio>
#include <exception>

#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "arbiter/cli/commands.hpp"
#include "arbiter/core/user_error.hpp"

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

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : arb::kUsageExitCode;
    } catch (const arb::cli::ExitStatus& e) {
        return e.code;
    } catch (const arb::UserError& e) {
        std::fprintf(stderr, "arbiter: %s\n", e.what());
        return arb::kUsageExitCode;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "arbiter: internal error: %s (please report this as a bug)\n", e.what());
        return 1;
    }
    return 0;
}
