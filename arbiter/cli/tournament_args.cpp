// The flags that describe a tournament and the config they make.
#include "arbiter/cli/tournament_args.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <thread>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "arbiter/cli/commands.hpp"
#include "arbiter/tournament/formats.hpp"
#include "arbiter/tournament/preflight.hpp"
#include "core/bot_spec.hpp"
#include "core/confine/sandbox.hpp"
#include "core/user_error.hpp"
#include "rules/registry.hpp"

namespace arb::cli {

void add_common(CLI::App* cmd, CommonArgs& a, bool with_out) {
    cmd->add_option("--config", a.config_path, "JSON config (see configs/ and docs/tournaments.md)")->check(existing_input());
    cmd->add_option("--db", a.db, "SQLite results file (created if missing)")->required();
    cmd->add_option("--game", a.game, "Game name (arbiter games)");
    cmd->add_option("--bot", a.bots, "Bot spec: name=N cmd=\"...\" [dir=..] [arg=..] [env.K=V] (repeatable)");
    cmd->add_option("--set", a.sets, "Game option KEY=VALUE (repeatable)");
    cmd->add_option("--maps", a.maps, "Pool of maps: files, folders or globs (repeatable; games played on maps)");
    cmd->add_option("--fields", a.fields, "Pool of fields: files, folders or globs (repeatable; games played on fields)");
    cmd->add_option("--seed", a.seed, "Seed of the whole schedule")->check(unsigned_integer());
    cmd->add_option("--players", a.players, "Bots per match");
    cmd->add_option("-j,--jobs", a.jobs, "Matches played at once (default: number of cores)");
    if (with_out)
        cmd->add_option("--out", a.out,
                        "Folder for the matches' folders (default: <db stem>-files beside the database)");
    cmd->add_option("--memory-mib", a.memory_mib, "Memory limit per bot in MiB (0 = none)")->check(memory_mib_range());
    add_confinement_flags(cmd, a.confinement);
}

namespace {

// A game option's name as the game declares it, '_' and '-' taken as one. An older name (an
// alias) keeps its own spelling, and a spelling of an older name is written as that name: the
// options are part of a tournament's identity, so a tournament created when `turntime` or
// `food_rate` was the key resumes under the same config. Unknown keys are unchanged.
std::string game_spelling(const std::string& key, const std::vector<GameOptionSpec>& specs) {
    const auto dashed = [](std::string k) {
        std::replace(k.begin(), k.end(), '_', '-');
        return k;
    };
    const GameOptionSpec* spec = find_option_spec(specs, key);
    if (spec == nullptr) return key;
    for (const auto& alias : spec->aliases)
        if (dashed(alias) == dashed(key)) return alias;
    return spec->key;
}

void use_game_spelling(tournament::TournamentConfig& c, const std::vector<GameOptionSpec>& specs) {
    std::map<std::string, std::string> options, locations;
    std::map<const GameOptionSpec*, std::string> named;  // each option's name in this config
    for (const auto& [key, value] : c.options) {
        const std::string name = game_spelling(key, specs);
        const std::string where = c.option_locations.count(key) ? c.option_locations.at(key) : "";
        const GameOptionSpec* spec = find_option_spec(specs, key);
        if (options.count(name) || (spec != nullptr && named.count(spec)))
            throw UserError(fmt::format("{}{}game option '{}' is given twice", where, where.empty() ? "" : ": ",
                                        spec != nullptr ? spec->key : name));
        if (spec != nullptr) named[spec] = name;
        options[name] = value;
        if (!where.empty()) locations[name] = where;
    }
    c.options = std::move(options);
    c.option_locations = std::move(locations);
}

}  // namespace

tournament::TournamentConfig base_config(const CommonArgs& a) {
    tournament::TournamentConfig c;
    if (!a.config_path.empty()) c = tournament::read_tournament_config(a.config_path);
    if (!a.game.empty()) {
        c.game = a.game;
        c.game_location = "--game";
    }
    std::vector<GameOptionSpec> specs;
    for (const auto& g : all_games())
        if (g.name == c.game) specs = g.options;
    use_game_spelling(c, specs);
    // Paths in the file are the file's; those given as flags below stay the working directory's.
    if (!a.config_path.empty())
        tournament::resolve_relative_paths(c, std::filesystem::absolute(a.config_path).parent_path(), specs);
    if (c.game.empty()) throw UserError("name the game with --game or the config key 'game'");
    const GameDescriptor* game = nullptr;
    try {
        game = &find_game(c.game);
    } catch (const UserError& e) {
        throw UserError(c.game_location.empty() ? std::string(e.what()) : c.game_location + ": " + e.what());
    }
    // A pool on the command line replaces the config's; its paths are the working directory's.
    if (!a.maps.empty() && !a.fields.empty()) throw UserError("give --maps or --fields, not both");
    if (!a.maps.empty() || !a.fields.empty()) {
        c.map_sources = a.maps.empty() ? a.fields : a.maps;
        c.map_sources_key = a.maps.empty() ? "fields" : "maps";
        c.map_sources_where = "--" + c.map_sources_key;
        c.map_sources_base = std::filesystem::current_path().string();
    }
    for (const auto& spec : a.bots) c.bots.push_back(parse_bot_spec(tournament::expand_variables(spec)));
    for (const auto& kv : a.sets) {
        const auto eq = kv.find('=');
        if (eq == std::string::npos || eq == 0) throw UserError("--set wants KEY=VALUE, got '" + kv + "'");
        const std::string key = game_spelling(kv.substr(0, eq), specs);
        // --set overrides the config's value, whichever of the option's names either uses.
        if (const GameOptionSpec* spec = find_option_spec(specs, key)) {
            for (auto it = c.options.begin(); it != c.options.end();) {
                if (it->first != key && find_option_spec(specs, it->first) == spec) {
                    c.option_locations.erase(it->first);
                    it = c.options.erase(it);
                } else {
                    ++it;
                }
            }
        }
        c.options[key] = kv.substr(eq + 1);
        c.option_locations[key] = "--set";
    }
    tournament::load_map_pool(c, *game);
    if (a.seed) c.seed = *a.seed;
    if (a.players) c.players = *a.players;
    if (a.jobs) c.jobs = *a.jobs;
    if (!a.out.empty()) c.out_dir = a.out;
    if (a.memory_mib) c.memory_mib = *a.memory_mib;
    Limits limits;
    c.confine(limits);
    apply_confinement(a.confinement, limits);
    c.sandbox = limits.sandbox;
    c.seat_users = limits.seat_users;
    c.disk_mib = limits.disk_mib;
    c.folder_mib = limits.folder_mib;
    c.pass_env = limits.pass_env;
    c.allow_syscalls = limits.allow_syscalls;
    return c;
}

int jobs_of(const tournament::TournamentConfig& c) {
    return c.jobs > 0 ? c.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}


void add_tournament_flags(CLI::App* t, TournamentArgs& a) {
    t->add_option("--tournament", a.name, "Tournament name in the database (default: config 'name', file stem or game)");
    t->add_option("--pairing", a.format, "groups | round-robin | gauntlet");
    // Earlier spellings, kept working for scripts but no longer listed.
    t->add_option("--name", a.name)->group("");
    t->add_option("--format", a.format)->group("");
    t->add_option("--house-bot", a.house_bots, "House bot spec, fills groups (repeatable)");
    t->add_option("--challenger", a.challengers, "Gauntlet: bot name that plays everyone (repeatable)");
    t->add_option("--rounds", a.rounds, "Number of rounds");
    t->add_option("--time-budget", a.time_budget, "Seconds; no new round starts after it");
    t->add_option("--random-rounds", a.random_rounds, "groups: rounds grouped at random (default 10)");
    t->add_option("--seating", a.seating, "rotations | permutations");
    t->add_option("--all-seatings", a.all_seatings, "true: every seed in every seat arrangement");
}

tournament::TournamentConfig tournament_config_from(const TournamentArgs& a) {
    tournament::TournamentConfig c = base_config(a.common);
    if (!a.name.empty()) c.name = a.name;
    if (!a.format.empty()) {
        c.pairing_given = true;
        if (a.format == "groups") c.format = tournament::Format::groups;
        else if (a.format == "round-robin") c.format = tournament::Format::round_robin;
        else if (a.format == "gauntlet") c.format = tournament::Format::gauntlet;
        else throw UserError("--pairing must be groups, round-robin or gauntlet, not '" + a.format + "'");
    }
    for (const auto& spec : a.house_bots) c.house_bots.push_back(parse_bot_spec(tournament::expand_variables(spec)));
    for (const auto& ch : a.challengers) c.challengers.push_back(ch);
    if (a.rounds) c.rounds = *a.rounds;
    if (a.time_budget) c.time_budget_s = *a.time_budget;
    if (a.random_rounds) c.random_rounds = *a.random_rounds;
    if (!a.seating.empty()) {
        if (a.seating == "rotations") c.seating = tournament::Seating::rotations;
        else if (a.seating == "permutations") c.seating = tournament::Seating::permutations;
        else throw UserError("--seating must be rotations or permutations");
    }
    if (a.all_seatings) c.all_seatings = *a.all_seatings;
    if (c.name.empty()) c.name = c.game;
    return c;
}

// Pre-flight: a bot that cannot get through the game's set-up stops the tournament before it
// starts (one line per bot, exit 2), or with --allow-broken forfeits every match it is in.
std::set<std::string> preflight_bots(const TournamentArgs& a, const GameDescriptor& game,
                                     const tournament::TournamentConfig& c, const char* what) {
    if (a.no_preflight) return {};
    const auto start = std::chrono::steady_clock::now();
    const auto failures = tournament::preflight(game, c, jobs_of(c));
    spdlog::info("pre-flight: {} of {} bots got through the game's set-up",
                 tournament::participants_of(c).size() - failures.size(), tournament::participants_of(c).size());
    spdlog::debug("pre-flight took {:.2f} s", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    std::set<std::string> broken;
    for (const auto& f : failures) {
        if (a.allow_broken) spdlog::warn("bot '{}' failed the pre-flight ({}): its matches are forfeited", f.bot, f.reason);
        else std::fprintf(stderr, "arbiter: bot '%s' failed the pre-flight: %s\n", f.bot.c_str(), f.reason.c_str());
        broken.insert(f.bot);
    }
    if (!broken.empty() && !a.allow_broken) {
        std::fprintf(stderr, "arbiter: %s (%s--no-preflight skips the check)\n", what,
                     a.allow_broken_offered ? "--allow-broken plays it with their matches forfeited, " : "");
        throw ExitStatus{kUsageExitCode};
    }
    return broken;
}

}  // namespace arb::cli
