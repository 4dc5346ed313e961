// arbiter games | play GAME ... | verify GAME FILE
#include <algorithm>
#include <ctime>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "arbiter/cli/commands.hpp"
#include "arbiter/cli/result_table.hpp"
#include "core/confine/sandbox.hpp"
#include "core/user_error.hpp"
#include "arbiter/match/match_runner.hpp"
#include "rules/registry.hpp"

namespace arb::cli {
namespace {

struct PlayArgs {
    std::vector<std::string> bot_specs;
    std::uint64_t seed = 1;
    bool rotations = false;
    std::string transcript_dir;
    std::string out_dir;  // empty: a new folder under arbiter-out/
    std::string record_path;
    std::string replay_path;
    std::int64_t memory_mib = 400;
    ConfinementArgs confinement;
    bool freeze = false;
    std::map<std::string, std::string> game_options;
};

// Game option keys as command-line flags: dashes, as every other option.
std::string flag_name(std::string key) {
    std::replace(key.begin(), key.end(), '_', '-');
    return key;
}

// " (also --turntime)": an option's older names, for the help and `arbiter games`.
std::string also_named(const GameOptionSpec& spec) {
    std::string names;
    for (const auto& alias : spec.aliases)
        if (flag_name(alias) != flag_name(spec.key)) names += (names.empty() ? "" : ", ") + ("--" + flag_name(alias));
    return names.empty() ? "" : " (also " + names + ")";
}

// Every spelling an option's flag takes besides its own: its aliases, and each name with '_' for
// '-' (the original engines' spelling, as --food_rate).
std::vector<std::string> other_flag_names(const GameOptionSpec& spec) {
    std::vector<std::string> names;
    const auto add = [&](const std::string& name) {
        if (name != flag_name(spec.key) && std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    };
    std::vector<std::string> all = {spec.key};
    all.insert(all.end(), spec.aliases.begin(), spec.aliases.end());
    for (const auto& name : all) {
        std::string underscored = name;
        std::replace(underscored.begin(), underscored.end(), '-', '_');
        add(flag_name(name));
        add(underscored);
    }
    return names;
}

std::string play_example(const GameDescriptor& game) {
    std::string example = "Example:\n  arbiter play " + game.name;
    for (const auto& spec : game.options)
        if (spec.required) example += " --" + flag_name(spec.key) + " " + (spec.kind == OptionKind::path ? "FILE" : "VALUE");
    for (int b = 0; b < game.min_bots; ++b) {
        const char name = static_cast<char>('a' + b);
        example += fmt::format(" --bot \"name={} cmd=./bot_{}\"", name, name);
    }
    return example + " --seed 3 --replay " + game.viewer.example_replay;
}

std::string match_stem(const std::string& game, std::uint64_t seed, int rotation) {
    return fmt::format("{}-seed{}-r{}", game, seed, rotation);
}


// The folder of this run: --out, else a new one under arbiter-out/ named by game, seed and UTC
// time, so a second run never overwrites the first.
std::filesystem::path match_folder(const GameDescriptor& game, const PlayArgs& args) {
    namespace fs = std::filesystem;
    if (!args.out_dir.empty()) {
        ensure_folder(args.out_dir, "--out");
        return args.out_dir;
    }
    const fs::path folder = new_run_folder(fmt::format("{}-seed{}", game.name, args.seed));
    ensure_folder(folder, "--out");
    return folder;
}

// --replay names a file, except in a game that writes a folder of player logs: there it must
// name a folder (ends in '/', exists as one, or has no extension).
void check_replay_path(const GameDescriptor& game, const std::string& path) {
    if (path.empty() || !game.viewer.replay_is_folder) return;
    const std::filesystem::path p = path;
    if (path.back() == '/' || std::filesystem::is_directory(p) || !p.has_extension()) return;
    throw UserError(fmt::format("--replay: {} writes a folder (one log per player), not a file like '{}'; give a folder, "
                                "e.g. --replay {}-logs/",
                                game.name, path, p.stem().string()));
}

void run_play(const GameDescriptor& game, const PlayArgs& args) {
    MatchRequest base;
    base.game = game.name;
    for (const auto& spec : args.bot_specs) base.bots.push_back(parse_bot_spec(spec));
    base.seed = args.seed;
    base.options = GameOptions(game.options, args.game_options);
    base.limits.memory_mib = args.memory_mib;
    apply_confinement(args.confinement, base.limits);
    base.freeze_idle = args.freeze;
    check_bots(base.bots);

    check_replay_path(game, args.replay_path);

    const int count = args.rotations ? static_cast<int>(base.bots.size()) : 1;
    const std::filesystem::path folder = match_folder(game, args);
    std::vector<MatchRecord> records;
    for (int r = 0; r < count; ++r) {
        MatchRequest request = args.rotations ? rotated_request(base, r) : base;
        const std::string stem = match_stem(game.name, request.seed, r);
        const auto suffixed = [&](std::filesystem::path p) {  // one file per rotation
            if (count > 1) p.replace_filename(p.stem().string() + "-r" + std::to_string(r) + p.extension().string());
            return p;
        };
        // Each rotation's stderr logs in a folder of their own: seats would overwrite each other's.
        request.log_dir = folder / "logs" / (count > 1 ? stem : "");
        ensure_folder(request.log_dir, "--out");
        const std::filesystem::path transcript_dir =
            args.transcript_dir.empty() ? folder : std::filesystem::path(args.transcript_dir);
        ensure_folder(transcript_dir, "--transcript");
        request.transcript_path = transcript_dir / (stem + ".transcript");
        const std::string replay_file = game.viewer.replay_is_folder ? stem + "-" + game.replay_file
                                                                    : stem + "." + game.replay_file;
        request.replay_path = args.replay_path.empty() ? folder / replay_file : suffixed(args.replay_path);
        if (count > 1) spdlog::info("rotation {}/{}", r + 1, count);
        // The record names its files by absolute paths, so that it can be viewed and shown from
        // any folder; the lines below print them as the user gave them.
        const MatchRequest shown = request;
        request.log_dir = std::filesystem::absolute(request.log_dir);
        request.transcript_path = std::filesystem::absolute(request.transcript_path);
        request.replay_path = std::filesystem::absolute(request.replay_path);
        MatchRecord record = run_match(game, request);
        const std::filesystem::path record_path =
            args.record_path.empty() ? folder / (stem + ".json") : suffixed(args.record_path);
        std::ofstream(record_path) << nlohmann::json(record).dump(2) << "\n";
        print_match_result(std::cout, record);
        print_stderr_tails(std::cout, record);
        std::cout << "record: " << record_path.string() << "\n"
                  << "replay: " << shown.replay_path.string() << (game.viewer.replay_is_folder ? "/" : "") << "\n"
                  << "transcript: " << shown.transcript_path.string() << "\n"
                  << "logs: " << shown.log_dir.string() << "\n"
                  << "view: arbiter view " << (args.record_path.empty() && count == 1 ? folder : record_path).string() << "\n";
        records.push_back(std::move(record));
    }
    if (records.size() > 1) print_rotation_summary(std::cout, records);
}

// The options of `arbiter play GAME`, added when the command is named (its preparse callback):
// five games' flags, each checked by CLI11 against every flag before it, are otherwise a third of
// every start of the arbiter, whatever the command.
void add_play_options(CLI::App* sub, const GameDescriptor& game) {
    auto args = std::make_shared<PlayArgs>();
    sub->add_option("--bot", args->bot_specs,
                    "A bot: name=NAME cmd=\"COMMAND LINE\" [dir=DIR] [arg=ARG] [env.KEY=VALUE], or for a "
                    "bot server already running (HTTP games): name=NAME url=http://HOST:PORT/PATH; "
                    "repeat once per seat, in seat order")
        ->required();
    sub->add_option("--seed", args->seed, "Match seed: the same seed and bots give the same match")
        ->check(unsigned_integer())
        ->capture_default_str();
    sub->add_flag("--rotations", args->rotations,
                  "Play the same deals in every cyclic seat rotation (one match per seat)");
    sub->add_option("--transcript", args->transcript_dir,
                    "Write timestamped per-seat transcripts to DIR (default: in the folder)");
    sub->add_option("--out", args->out_dir,
                    "Folder for the record, replay, transcript and bot logs (default: a new folder "
                    "arbiter-out/GAME-seedN-TIME)");
    sub->add_option("--record", args->record_path, "Write the match record JSON here (default: in the folder)");
    sub->add_option("--replay", args->replay_path,
                    game.viewer.replay_is_folder ? "Write the game's player logs into this folder (default: in the folder)"
                                                : "Write the game's replay/log file here (default: in the folder)");
    // The name this game's replay had before every game called it --replay.
    if (game.replay_flag != "replay") sub->add_option("--" + game.replay_flag, args->replay_path)->group("");
    add_confinement_flags(sub, args->confinement);
    sub->add_option("--memory-mib", args->memory_mib, "Memory limit per bot in MiB (0 = none)")
        ->check(memory_mib_range())
        ->capture_default_str();
    sub->add_flag("--freeze", args->freeze, "Stop bots while it is not their turn (the freezer cgroup, else SIGSTOP)");
    for (const auto& spec : game.options) {
        const auto set = [args, key = spec.key](const std::string& v) { args->game_options[key] = v; };
        auto* opt = sub->add_option_function<std::string>(
            "--" + flag_name(spec.key), set,
            spec.help + (spec.default_value.empty() ? "" : " [default: " + spec.default_value + "]") + also_named(spec));
        // A flag takes no value (one may still be given: --flag=false); its help shows none.
        if (spec.kind == OptionKind::flag) opt->expected(0, 1)->default_str("true")->option_text(" ");
        // Older names (--turntime) and the underscored spelling (--food_rate) still work, unlisted.
        for (const auto& name : other_flag_names(spec)) {
            auto* alias = sub->add_option_function<std::string>("--" + name, set)->group("");
            if (spec.kind == OptionKind::flag) alias->expected(0, 1)->default_str("true");
        }
    }
    sub->footer(play_example(game));
    sub->callback([&game, args] { run_play(game, *args); });
}

}  // namespace

void add_game_commands(CLI::App& app) {
    auto* games = app.add_subcommand("games", "List the games and their options");
    games->footer("Example:\n  arbiter games");
    games->callback([] {
        for (const auto& g : all_games()) {
            std::cout << g.name << " (" << g.min_bots;
            if (g.max_bots != g.min_bots) std::cout << "-" << g.max_bots;
            std::cout << " bots): " << g.summary << "\n";
            for (const auto& o : g.options) {
                std::cout << fmt::format("    --{:<18} {}{}{}\n", flag_name(o.key), o.help,
                                         o.default_value.empty() ? "" : " [default: " + o.default_value + "]", also_named(o));
            }
        }
    });

    auto* play = app.add_subcommand("play", "Play one match (or all seat rotations of one deal set)");
    play->require_subcommand(1);
    play->footer("Example:\n  arbiter play " + example_game().name +
                 " --bot \"name=a cmd=./bot_a\" --bot \"name=b cmd=./bot_b\" --rotations\n"
                 "Run arbiter play GAME --help for a game's options.");
    for (const auto& game : all_games()) {
        auto* sub = play->add_subcommand(game.name, game.summary);
        sub->preparse_callback([sub, &game, added = false](std::size_t) mutable {
            if (!std::exchange(added, true)) add_play_options(sub, game);
        });
    }

    auto* verify = app.add_subcommand("verify", "Check a recorded game (replay or log) against our engine");
    verify->require_subcommand(1);
    verify->footer("Example:\n  arbiter verify " + example_game().name + " " + example_game().viewer.example_replay);
    for (const auto& game : all_games()) {
        if (!game.verify) continue;
        auto path = std::make_shared<std::string>();
        auto* sub = verify->add_subcommand(game.name, "Verify a " + game.name + " replay/log");
        // A game's record may be a folder of player logs.
        sub->add_option("file", *path, game.viewer.replay_is_folder ? "The recorded game's folder" : "The recorded game")
            ->required()
            ->check(existing_input(game.viewer.replay_is_folder));
        sub->footer("Example:\n  arbiter verify " + game.name + " " + game.viewer.example_replay);
        sub->callback([&game, path] {
            const VerifyOutcome outcome = game.verify(*path);
            if (outcome.ok) {
                std::cout << "OK " << outcome.steps << "\n";
                return;
            }
            std::cout << "DIFF " << outcome.first_difference << "\n";
            throw ExitStatus{1};
        });
    }
}

}  // namespace arb::cli
