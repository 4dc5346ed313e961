#pragma once
// What every game provides to the arbiter: a descriptor with its options, its seat layout and
// its referee. The match runner, the CLI and tournaments work with any game through this.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/bot_spec.hpp"
#include "core/match_record.hpp"
#include "core/table_settings.hpp"
#include "core/seat.hpp"

namespace arb {

enum class OptionKind { integer, number, text, path, flag };

// Option names follow one vocabulary in every game (docs/adding-a-game.md): dashed words, and
// the same name for the same concept: `turn-ms` (the limit for one reply), `startup-ms` (for the
// first one), `total-time-ms` (a seat's budget for the whole match), `turns`, `map`. A name a
// game had before stays an alias: given as a CLI flag, in a config file, in a stored record.
struct GameOptionSpec {
    std::string key;            // also the CLI flag: --key VALUE, and the config file key
    OptionKind kind = OptionKind::text;
    std::string default_value;  // "" = no default (optional unless required)
    std::string help;
    bool required = false;
    std::vector<std::string> aliases = {};  // older names, accepted wherever the key is
};

// The spec a given name stands for: its key or an alias, '_' and '-' taken as one. nullptr when
// no spec has that name.
const GameOptionSpec* find_option_spec(const std::vector<GameOptionSpec>& specs, const std::string& name);

// Option values as given (CLI flags or config), checked against the game's specs.
class GameOptions {
public:
    GameOptions() = default;
    // Checks keys and types against specs, fills defaults; a name given by an alias is stored
    // under its key. Throws UserError naming the key (with a did-you-mean for unknown keys; also
    // when one option is given under two names with different values).
    GameOptions(const std::vector<GameOptionSpec>& specs, std::map<std::string, std::string> given);

    bool has(const std::string& key) const;  // given or defaulted to a non-empty value
    const std::string& text(const std::string& key) const;
    std::int64_t integer(const std::string& key) const;
    double number(const std::string& key) const;
    bool flag(const std::string& key) const;
    std::filesystem::path path(const std::string& key) const;
    const std::map<std::string, std::string>& values() const { return values_; }
    std::string to_json() const;  // {"key": "value", ...}, for the match record

private:
    std::map<std::string, std::string> values_;
    std::map<std::string, OptionKind> kinds_;
};

struct MatchRequest {
    std::string game;
    std::vector<BotSpec> bots;                // participants, in seat order
    std::uint64_t seed = 1;
    std::optional<std::uint64_t> deal_set;    // shared deals across matches (defaults to seed)
    int rotation = 0;                         // which cyclic rotation of a deal set this is
    GameOptions options;
    Limits limits;
    bool freeze_idle = false;
    std::filesystem::path transcript_path;    // empty = no transcript
    std::filesystem::path replay_path;        // empty = the game writes no replay/log
    std::filesystem::path log_dir;            // bots' stderr logs; empty = drained only
    std::filesystem::path record_path;        // the match record, written when the match ends; empty = none
    std::filesystem::path live_replay_path;   // the replay so far, as it plays (rules/live_replay.hpp); empty = none

    std::uint64_t deal_seed() const { return deal_set.value_or(seed); }
};

// One process (or connection) the game needs.
struct SeatPlan {
    int bot = 0;                              // which participant runs it
    std::string label;                        // "p0", "team1-dog", ...
    std::vector<std::string> extra_args;
    TimeControl time;
    ChannelKind channel = ChannelKind::stdio;
    std::map<std::string, std::string> env;   // added to the bot's environment (e.g. a seat secret)
    std::uint16_t listen_port = 0;            // tcp_client: the port (0 = free; core/table/process_table.hpp)
};

// What the referee decides. The match runner makes the record from it once (bot names, seats,
// usage and the processes' ends come from the request and the table, never from the referee).
struct RefereeResult {
    std::vector<ParticipantOutcome> participants;  // one per bot, in bot order
    std::vector<PairResult> pairs;
    std::string end_reason;
    int turns = 0;
};

struct VerifyOutcome {
    bool ok = false;
    int steps = 0;                 // turns/steps checked
    std::string first_difference;  // "turn 17: field 'food' differs: ..." when !ok
};

// One stdio seat per bot, in bot order, labelled "p0", "p1", ..., all on the same clock: the
// layout of the games whose bots each play one seat (Planowanie, Ants).
std::vector<SeatPlan> one_seat_per_bot(const MatchRequest& request, const TimeControl& time);

// A replay or log the viewer opens without a record to say its game.
struct ReplayText {
    std::filesystem::path path;
    std::string text;                      // its contents, read within kMaxReplayBytes
    const nlohmann::json* json = nullptr;  // parsed, when the text is a JSON object
};
// The largest replay or log any game writes: what the viewer reads of a file at most.
inline constexpr std::size_t kMaxReplayBytes = std::size_t{64} << 20;

// How `arbiter view` shows a game's matches. The viewer names no game: it asks each game's.
struct GameViewer {
    std::string_view script;                   // the page's renderer (JavaScript), compiled in
    std::string kind;                          // "an Ants replay": for the view's help and messages
    std::string example_replay = "game.txt";   // the --replay name that help and examples show
    bool replay_is_folder = false;             // a folder of logs, read with its record (Koehandel)
    // Whether a file is this game's replay or log (a look at its shape; `read` checks the rest).
    std::function<bool(const ReplayText&)> recognises;
    // The page's "replay" data from it. Throws UserError naming the file and what is wrong.
    std::function<nlohmann::json(const ReplayText&)> read;
    // For a replay that is a folder: its data, replayed with the record's seed and options.
    std::function<nlohmann::json(const MatchRecord&, const std::filesystem::path&)> read_folder;
    // A running match's replay so far, as its referee offers it (rules/live_replay.hpp), for the
    // live page. Unset: `read` of that text (a game whose live text is a replay as it writes one).
    std::function<nlohmann::json(const ReplayText&)> read_live;
    // For a replay that is a folder written as the match plays: its data up to frame `step`, the
    // last one the folder is known to hold whole (what follows it may be half written).
    std::function<nlohmann::json(const MatchRecord&, const std::filesystem::path&, int step)> read_live_folder;
};

// A game played on a map or field file: the option that names the file, the word for a pool of
// them (the config key and flag of tournaments and ladders: "maps", "fields"), and how many bots
// a file seats, read from it (nullopt: any count the game takes). A file that cannot be read or
// is not the game's throws UserError naming it.
struct MapFiles {
    std::string option;    // "map"
    std::string pool_key;  // "maps"
    std::function<std::optional<int>(const std::filesystem::path&)> players;
};

struct GameDescriptor {
    std::string name;      // "planowanie"
    std::string summary;   // one line for `arbiter games`
    int min_bots = 2;
    int max_bots = 2;
    std::vector<GameOptionSpec> options;
    std::string replay_flag = "replay";  // CLI flag naming the replay/log file ("log" for SamurAI)
    // The replay's file name in a tournament match's folder (Koehandel's log is a folder).
    std::string replay_file = "replay.txt";

    // Seats and clocks for a request. Validates the options (map exists, ...): throws UserError.
    std::function<std::vector<SeatPlan>(const MatchRequest&)> plan;
    // Plays the match over the table. Bot faults are results, never exceptions.
    std::function<RefereeResult(const MatchRequest&, Table&)> referee;
    // Optional: checks a recorded game (the original engine's or ours) against our engine.
    std::function<VerifyOutcome(const std::filesystem::path&)> verify;
    // How its matches are shown (arbiter/view).
    GameViewer viewer;
    // Set by a game played on map or field files: tournaments and ladders then take a pool.
    std::optional<MapFiles> map_files;
};

}  // namespace arb
