#pragma once
// Each group of subcommands registers itself on the top-level CLI11 app. main.cpp only wires
// them together; the work lives in the files named beside each function.
#include <CLI/CLI.hpp>

namespace arb::cli {

// Thrown by a command that finished its work but must exit non-zero (a failed verify, a ladder
// regression). main() exits with `code` and prints nothing more.
struct ExitStatus {
    int code;
};

void add_game_commands(CLI::App& app);        // games, play, verify       (game_commands.cpp)
void add_rating_commands(CLI::App& app);      // rate, los                 (rating_commands.cpp)
void add_tournament_commands(CLI::App& app);  // tournament, ladder, report (tournament_commands.cpp)

}  // namespace arb::cli
