#pragma once
// A tournament as the user writes it: a JSON file (comments allowed) or the same fields from
// the command line. Unknown keys and wrong types are UserErrors naming the key and the line.
//
//   {
//     "name": "planowanie-itpw",          // tournament id in the database (default: file stem)
//     "game": "planowanie",
//     "pairing": "groups",                // groups (seed 000) | round-robin | gauntlet ("format" too)
//     "seed": 2009,
//     "rounds": 100,                      // and/or "time_budget": seconds (whole rounds)
//     "players": 4,                       // per match (groups: group size)
//     "random_rounds": 10,                // groups: rounds grouped at random first
//     "vary_cyclic_order": true,          // groups: reshuffle who sits after whom each round
//     "seating": "rotations",             // rotations | permutations
//     "all_seatings": true,               // every seed in every seat arrangement
//     "bots": ["name=a cmd=\"...\"", ...],
//     "house_bots": [...],                // fill groups up to a multiple of the group size
//     "challengers": ["a"],               // gauntlet: these play everyone else
//     "options": {"deals": 13},           // game options
//     "maps": ["maps/", "x/*_04p_*.map"],  // a pool of maps ("fields" for SamurAI): files,
//                                         // folders, globs; a list or one of them (map_pool.hpp)
//     "memory_mib": 400, "freeze_idle": false,
//     "out": "arbiter-out/itpw",          // transcripts and bot logs ("" = none)
//                                         // (relative paths: from the config file's folder)
//     "jobs": 2,
//     "ladder": {"target_interval": 50, "max_matches": 160, "min_rounds": 2,
//                "better_los": 0.95, "worse_los": 0.05,
//                "sprt": "elo0=0 elo1=5 alpha=0.05 beta=0.05"}   // arbiter ladder only
//   }
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/bot_spec.hpp"
#include "core/confine/sandbox.hpp"
#include "arbiter/tournament/map_pool.hpp"
#include "rules/game.hpp"
#include "rating/sprt.hpp"

namespace arb::tournament {

enum class Format { groups, round_robin, gauntlet };
enum class Seating { rotations, permutations };

const char* to_string(Format format);
const char* to_string(Seating seating);

// The nightly ladder's stopping rule and verdict thresholds (config key "ladder").
// Ranges of the config's numbers (and of the flags that override them): wider than any real
// tournament, narrow enough that nothing wraps.
constexpr std::int64_t kMaxRounds = 1000000;
constexpr std::int64_t kMaxPlayers = 64;
constexpr std::int64_t kMaxMemoryMib = 1 << 20;  // 1 TiB
constexpr std::int64_t kMaxJobs = 1024;
constexpr std::int64_t kMaxLadderMatches = 1000000000;

struct LadderSettings {
    double target_interval = 50;  // Elo: stop when the new bot's 95% interval half-width is below
    int max_matches = 160;        // game budget of one ladder run
    int min_rounds = 2;           // never judge on fewer rounds
    double better_los = 0.95;     // LOS(new > previous) at or above: better
    double worse_los = 0.05;      // at or below: worse
    // "sprt": "elo0=0 elo1=5 alpha=0.05 beta=0.05": judge the new version against the previous
    // one by this SPRT instead (the interval rule and the LOS thresholds are then not used).
    std::optional<rating::SprtParams> sprt;
};

struct TournamentConfig {
    std::string name;
    std::string game;
    Format format = Format::groups;
    std::uint64_t seed = 1;
    std::optional<int> rounds;
    std::optional<double> time_budget_s;
    int players = 0;                 // 0 = the format's default (groups: 4, else game minimum)
    int random_rounds = 10;
    bool vary_cyclic_order = true;
    Seating seating = Seating::rotations;
    bool all_seatings = true;
    std::vector<BotSpec> bots;
    std::vector<BotSpec> house_bots;
    std::vector<std::string> challengers;
    std::map<std::string, std::string> options;
    std::int64_t memory_mib = 400;
    bool freeze_idle = false;
    std::string out_dir;
    int jobs = 0;                    // 0 = number of cores; not part of the tournament's identity
    SandboxMode sandbox = SandboxMode::automatic;  // bot confinement; not part of the identity either
    bool seat_users = false;  // each bot as a user id of its own (root only); not part of the identity
    std::int64_t disk_mib = 256;               // bounds on a bot's writes; confinement settings below are
    std::int64_t folder_mib = 1024;
    std::vector<std::string> pass_env;         // not part of the identity either
    std::vector<std::string> allow_syscalls;
    std::map<std::string, std::string> option_locations;  // option key -> "FILE:LINE" for messages
    std::string game_location;  // "FILE:LINE" of the config key 'game', when it came from a file
    bool pairing_given = false;  // by the config or --pairing: not replaced by one that works
    // The map (field) pool as written: its sources, the key ("maps", "fields"), where they were
    // given ("FILE:LINE", "--maps") and the folder relative ones are taken from.
    std::vector<std::string> map_sources;
    std::string map_sources_key;
    std::string map_sources_where;
    std::string map_sources_base;
    std::vector<PoolMap> map_pool;  // the files, sorted by path (load_map_pool); part of the identity
    std::string map_option;         // the game option a pool map is given as ("map", "field")
    bool groups_by_map = false;     // set by validate: the maps' player counts size the groups
    LadderSettings ladder;

    // Puts the confinement settings (sandbox, seat users, disk, environment, syscalls) on `limits`.
    void confine(Limits& limits) const {
        limits.sandbox = sandbox;
        limits.seat_users = seat_users;
        limits.disk_mib = disk_mib;
        limits.folder_mib = folder_mib;
        limits.pass_env = pass_env;
        limits.allow_syscalls = allow_syscalls;
    }

    // The game options with `map` as the pool's option ("" = the options as they are).
    std::map<std::string, std::string> options_with_map(const std::string& map) const {
        auto o = options;
        if (!map.empty()) o[map_option] = map;
        return o;
    }
    // A map of the pool that seats `players` bots (0: the first), "" without a pool.
    std::string first_map(int players = 0) const {
        for (const auto& m : map_pool)
            if (players == 0 || m.players == 0 || m.players == players) return m.path;
        return "";
    }

    // The fields that define the schedule and results, as canonical JSON. A resumed run must
    // match the stored one exactly (jobs, time budget and out dir may change between runs).
    std::string identity_json() const;
};

// Reads a config file. `base_name` fills `name` when the file has none (the file's stem).
// Errors: "FILE:LINE: unknown key 'roundz' (did you mean 'rounds'?)",
// "FILE:LINE: 'rounds' must be an integer from 1 to 1000000".
TournamentConfig read_tournament_config(const std::filesystem::path& file);
// Same, from text (file_label is used in messages).
TournamentConfig parse_tournament_config(const std::string& text, const std::string& file_label);

// Replaces ${NAME} in a bot spec or a path option of a config: environment variables, and
// ARBITER_BOTS and ARBITER_DATA when the environment has none: the sample bots' folder and the
// games' data folder (install_layout.hpp).
std::string expand_variables(const std::string& text);

// Makes the relative paths of a config file relative to `base`, the file's folder, instead of the
// working directory: bots' dir= (a program relative to its dir= stays so), programs with a '/'
// of bots without dir=, game options of kind path (after expand_variables), and out. Absolute paths are left alone.
void resolve_relative_paths(TournamentConfig& config, const std::filesystem::path& base,
                            const std::vector<GameOptionSpec>& specs);

// Checks the game options against the game's: an unknown key is named with its place (FILE:LINE
// or --set) and the nearest key the game has; a value of the wrong kind likewise.
void check_game_options(const TournamentConfig& config, const std::string& game,
                        const std::vector<GameOptionSpec>& specs);

// Reads the files of the config's map pool (sources as given) through the game's descriptor into
// map_pool. UserError for a game without maps, the wrong key ('maps' for fields), a pool given
// together with the option it replaces, and the pool's own errors (map_pool.hpp).
void load_map_pool(TournamentConfig& config, const GameDescriptor& game);

// Checks the config against the game (player counts, option keys, challengers) and fills
// defaults. Throws UserError naming the problem.
void validate(TournamentConfig& config, int game_min_bots, int game_max_bots);

}  // namespace arb::tournament
