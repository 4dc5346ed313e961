#pragma once
// The flags that describe a tournament, shared by `tournament`, `ladder` and `plan`, and the
// config they make: the config file first, each given flag overriding it.
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "arbiter/cli/commands.hpp"
#include "arbiter/tournament/tournament_config.hpp"

namespace arb::cli {

struct CommonArgs {
    std::string config_path;
    std::string db;
    std::string game;
    std::vector<std::string> bots;
    std::vector<std::string> sets;  // KEY=VALUE game options
    std::vector<std::string> maps;    // --maps: a pool of maps (files, folders, globs)
    std::vector<std::string> fields;  // --fields: the same for a game played on fields
    std::optional<std::uint64_t> seed;
    std::optional<int> players;
    std::optional<int> jobs;
    std::string out;
    std::optional<std::int64_t> memory_mib;
    ConfinementArgs confinement;
};

struct TournamentArgs {
    CommonArgs common;
    std::string name;    // --tournament
    std::string format;  // --pairing
    std::vector<std::string> house_bots;
    std::vector<std::string> challengers;
    std::optional<int> rounds;
    std::optional<double> time_budget;
    std::optional<int> random_rounds;
    std::string seating;
    std::optional<bool> all_seatings;
    bool no_progress = false;
    int rating_interval = 0;
    std::optional<int> max_faults;
    bool allow_broken = false;
    bool allow_broken_offered = true;  // false where the command has no --allow-broken (plan)
    bool no_preflight = false;
};

// with_out = false: the command names its own --out (plan's jobs folder).
void add_common(CLI::App* cmd, CommonArgs& a, bool with_out = true);
// The tournament's own flags (--tournament, --pairing, --rounds, ...), without --no-progress.
void add_tournament_flags(CLI::App* cmd, TournamentArgs& a);

tournament::TournamentConfig base_config(const CommonArgs& a);
// The config the flags describe, with the name defaulted; not yet validated against the game.
tournament::TournamentConfig tournament_config_from(const TournamentArgs& a);
int jobs_of(const tournament::TournamentConfig& c);

// Pre-flight: every bot once through the game's set-up. One that fails stops the command before
// anything is played or written (a line per bot, then "arbiter: <what>", exit 2), or with
// --allow-broken is returned, for its matches to be forfeited. Nothing with --no-preflight.
std::set<std::string> preflight_bots(const TournamentArgs& a, const GameDescriptor& game,
                                     const tournament::TournamentConfig& c, const char* what);

}  // namespace arb::cli
