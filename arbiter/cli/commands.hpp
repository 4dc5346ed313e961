#pragma once
// Each group of subcommands registers itself on the top-level CLI11 app. main.cpp only wires
// them together; the work lives in the files named beside each function.
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/did_you_mean.hpp"
#include "core/table/process_table.hpp"
#include "rules/registry.hpp"

namespace arb::cli {

// Thrown by a command that finished its work but must exit non-zero (a failed verify, a ladder
// regression). main() exits with `code` and prints nothing more.
struct ExitStatus {
    int code;
};

// CLI11 reads "-1" into an unsigned option as 2^64 - 1: seeds must be refused a sign instead.
inline CLI::Validator unsigned_integer() {
    return CLI::Validator(
        [](std::string& text) {
            return text.empty() || text.find_first_not_of("0123456789") != std::string::npos
                       ? std::string("must be a non-negative integer, not '" + text + "'")
                       : std::string();
        },
        "", "unsigned");
}

// An existing file (or, with `folder_too`, a folder) to read: else "no such file X: the reason
// (did you mean 'Y'?)", in place of CLI11's check, which names neither.
inline CLI::Validator existing_input(bool folder_too = false) {
    return CLI::Validator(
        [folder_too](std::string& text) -> std::string {
            std::error_code ec;
            if (folder_too && std::filesystem::is_directory(text, ec)) return "";
            const std::string reason = unreadable_reason(text);
            return reason.empty() ? "" : "cannot read " + text + ": " + reason;
        },
        folder_too ? "PATH" : "FILE", "existing input");
}

// A new folder arbiter-out/NAME-TIME (UTC; -2, -3, ... when taken), so that a run never writes
// into one an earlier run wrote. Not made yet.
std::filesystem::path new_run_folder(const std::string& name);

// --set KEY=VALUE arguments as given; UserError for one without '='.
std::map<std::string, std::string> given_sets(const std::vector<std::string>& sets);
// The game's options from --set KEY=VALUE arguments; UserError "--set: ..." for a bad one.
GameOptions options_from_sets(const GameDescriptor& game, const std::vector<std::string>& sets);

// How bots are confined, as given on a command line; empty or unset = the config's or the default.
struct ConfinementArgs {
    std::string sandbox;
    bool seat_users = false;
    std::optional<std::int64_t> disk_mib;
    std::optional<std::int64_t> folder_mib;
    std::vector<std::string> pass_env;
    std::vector<std::string> allow_syscalls;
};

// --sandbox, --seat-users, --disk-mib, --pass-env and --allow-syscalls, worded alike in every
// command that starts bots (confinement_flags.cpp).
void add_confinement_flags(CLI::App* cmd, ConfinementArgs& args);
// Sets what was given onto the limits (UserError for a bad sandbox name or syscall name).
void apply_confinement(const ConfinementArgs& args, Limits& limits);

// The game the help's examples show: the first in the registry, so that no command names one.
inline const GameDescriptor& example_game() { return all_games().front(); }

// Memory limits in MiB: 0 (none) to 1 TiB, so that nothing wraps when converted to bytes.
inline CLI::Validator memory_mib_range() {
    return CLI::Validator(
        [](std::string& text) {
            std::int64_t value = -1;
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
            const bool ok = ec == std::errc() && end == text.data() + text.size() && value >= 0 && value <= (1 << 20);
            return ok ? std::string() : "must be an integer from 0 to 1048576 (MiB), not '" + text + "'";
        },
        "", "memory MiB");
}

void add_game_commands(CLI::App& app);        // games, play, verify       (game_commands.cpp)
void add_rating_commands(CLI::App& app);      // rate, los                 (rating_commands.cpp)
void add_tournament_commands(CLI::App& app);  // tournament, ladder, report (tournament_commands.cpp)
void add_cluster_commands(CLI::App& app);     // plan, run-job, ingest      (cluster_commands.cpp)
void add_match_commands(CLI::App& app);       // matches, show             (match_commands.cpp)

// "arbiter 0.1.0 (git DESCRIBE)" for --version (version.cpp, built into the executable).
std::string version_text();
void add_head_to_head_command(CLI::App& app);        // match A B                 (head_to_head_command.cpp)
void add_view_command(CLI::App& app);                // view                      (view_command.cpp)
void add_serve_command(CLI::App& app);               // serve                     (serve_command.cpp)
void add_diff_command(CLI::App& app);                // diff OLD NEW              (diff_command.cpp)

}  // namespace arb::cli
