// arbiter diff OLD NEW: where a new version of a bot first plays otherwise than the old one, on the
// same seeds, seats and opponents (arbiter/diff), and which results changed.
#include <ctime>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "arbiter/cli/commands.hpp"
#include "arbiter/cli/diff_ladder.hpp"
#include "arbiter/diff/diff.hpp"
#include "arbiter/match/match_files.hpp"
#include "arbiter/tournament/tournament_config.hpp"
#include "arbiter/tournament/worker_pool.hpp"
#include "arbiter/view/match_view.hpp"
#include "arbiter/view/viewer_page.hpp"
#include "core/bot_spec.hpp"
#include "core/user_error.hpp"
#include "rules/registry.hpp"

namespace arb::cli {
namespace {

namespace fs = std::filesystem;

struct DiffArgs {
    std::string old_spec, new_spec;
    std::string game;
    std::vector<std::string> opponents;
    std::optional<int> games;
    std::optional<int> players;
    std::uint64_t seed = 1;
    std::optional<int> jobs;
    std::vector<std::string> sets;
    std::string out;
    std::string ladder_db;
    bool viewers = false;
    std::int64_t memory_mib = 400;
    ConfinementArgs confinement;
};

// --out, else a new arbiter-out/diff-GAME-TIME/ (UTC), never one an earlier run wrote.
fs::path out_folder(const DiffArgs& args, const std::string& game) {
    if (!args.out.empty()) return fs::absolute(args.out);
    return fs::absolute(new_run_folder("diff-" + game));
}

// A ladder's two versions on its own matches; OLD and NEW, if given, are registered names.
diff::DiffPlan prepare_from_ladder(const DiffArgs& args, diff::DiffPlan& plan, std::string& opponent_line) {
    if (!args.opponents.empty() || args.players || !args.sets.empty())
        throw UserError("--ladder-db plays the ladder's own matches: --bot, --players and --set do not apply");
    opponent_line = plan_from_ladder({args.ladder_db, args.old_spec, args.new_spec, args.games}, plan);
    plan.limits.memory_mib = args.memory_mib;
    apply_confinement(args.confinement, plan.limits);
    plan.jobs = args.jobs.value_or(tournament::core_count());
    if (plan.jobs < 1) throw UserError("-j must be at least 1");
    plan.out = out_folder(args, plan.game->name);
    ensure_folder(plan.out, "--out");
    return plan;
}

// The plan, checked; `opponent_line` is what to say of the opponents before playing.
diff::DiffPlan prepare(const DiffArgs& args, std::string& opponent_line) {
    diff::DiffPlan plan;
    plan.game = &find_game(args.game);
    const GameDescriptor& game = *plan.game;
    if (!args.ladder_db.empty()) return prepare_from_ladder(args, plan, opponent_line);
    if (args.old_spec.empty() || args.new_spec.empty()) throw UserError("give OLD and NEW (bot specs), or --ladder-db");
    plan.old_bot = parse_bot_spec(tournament::expand_variables(args.old_spec));
    plan.new_bot = parse_bot_spec(tournament::expand_variables(args.new_spec));
    if (plan.old_bot.name == plan.new_bot.name)
        throw UserError("the two versions are both named '" + plan.old_bot.name + "'; give one another name=");
    for (const auto& spec : args.opponents) plan.opponents.push_back(parse_bot_spec(tournament::expand_variables(spec)));
    // Without --bot, OLD plays itself (and NEW plays OLD); --players 1 plays the version alone
    // where the game lets one bot play. A game that seats fewer bots than it holds fills the
    // other seats itself (house bots).
    const bool alone = plan.opponents.empty() && args.players.value_or(2) == 1 && game.min_bots <= 1;
    if (alone) {
        opponent_line = fmt::format("opponents: none, the version plays {} alone", game.name);
    } else if (plan.opponents.empty()) {
        plan.opponents.push_back(plan.old_bot);
        opponent_line = fmt::format("opponents: {} itself (give --bot for others)", plan.old_bot.name);
    }
    plan.seats = args.players.value_or(std::max(game.min_bots, 1 + static_cast<int>(plan.opponents.size())));
    if (plan.seats < game.min_bots || plan.seats > game.max_bots)
        throw UserError(fmt::format("{} plays {} to {} bots, not {} (the version and its opponents; --players sets it)",
                                    game.name, game.min_bots, game.max_bots, plan.seats));
    plan.games = args.games.value_or(2 * plan.seats);
    if (plan.games < 1) throw UserError(fmt::format("--games must be at least 1, not {}", plan.games));
    plan.options = options_from_sets(game, args.sets);
    plan.seed = args.seed;
    plan.limits.memory_mib = args.memory_mib;
    apply_confinement(args.confinement, plan.limits);
    plan.jobs = args.jobs.value_or(tournament::core_count());
    if (plan.jobs < 1) throw UserError("-j must be at least 1");
    std::vector<BotSpec> all = {plan.old_bot, plan.new_bot};
    for (std::size_t i = 0; i < plan.opponents.size() && !args.opponents.empty(); ++i) {
        BotSpec b = plan.opponents[i];
        b.name = fmt::format("{}#opponent{}", b.name, i);  // names are made apart per match (diff::seating)
        all.push_back(b);
    }
    check_bots(all);
    plan.out = out_folder(args, game.name);
    ensure_folder(plan.out, "--out");
    return plan;
}

// Each differing pair's two viewer pages, and the page with both side by side at the first
// difference. Returns the side-by-side pages written.
std::vector<fs::path> write_viewers(const diff::DiffPlan& plan, const diff::DiffReport& report) {
    std::vector<fs::path> pages;
    for (const auto& pair : report.pairs) {
        if (pair.difference.kind != diff::FirstDifference::Kind::reply) continue;
        try {
            for (const fs::path& folder : {pair.old_folder, pair.new_folder})
                write_file_atomically(folder / "viewer.html", view::viewer_page(view::load_match_view(folder)));
        } catch (const UserError& e) {
            std::cerr << "arbiter diff: no viewer for g" << pair.game << ": " << e.what() << "\n";
            continue;
        }
        // Step K is the viewer's frame K (#frame=K); a game without marks opens at its start.
        const int frame = pair.marked ? std::max(0, pair.difference.step) : 0;
        const std::string title = fmt::format("{} vs {}: g{}, seed {}, seat {}, {} {}", plan.old_bot.name,
                                              plan.new_bot.name, pair.game, pair.seed, pair.seat,
                                              pair.marked ? "first difference at step" : "first difference at exchange",
                                              pair.difference.step);
        const fs::path page = plan.out / fmt::format("diff-g{}.html", pair.game);
        const auto relative = [&](const fs::path& folder) {
            return (folder.lexically_relative(plan.out) / "viewer.html").generic_string();
        };
        write_file_atomically(page, diff::side_by_side_page(title, relative(pair.old_folder), relative(pair.new_folder), frame));
        pages.push_back(page);
    }
    return pages;
}

void run_diff(const DiffArgs& args) {
    std::string opponent_line;
    const diff::DiffPlan plan = prepare(args, opponent_line);
    if (!opponent_line.empty()) std::cout << opponent_line << std::endl;
    spdlog::info("diff {} -> {}: {}, {} games of {} seats {}, -j {}, in {}", plan.old_bot.name, plan.new_bot.name,
                 plan.game->name, plan.games, plan.seats,
                 plan.fixed.empty() ? fmt::format("from seed {}", plan.seed) : std::string("as the ladder played them"),
                 plan.jobs, plan.out.string());
    const diff::DiffReport report = diff::play_and_compare(plan, tournament::real_matches(*plan.game));
    for (const auto& line : diff::report_lines(plan, report)) std::cout << line << "\n";
    std::cout << "matches: " << (plan.out / "old").string() << "/ and " << (plan.out / "new").string() << "/\n";
    if (args.viewers) {
        const auto pages = write_viewers(plan, report);
        for (const auto& page : pages) std::cout << "viewers: " << page.string() << "\n";
        if (pages.empty()) std::cout << "viewers: none (no match differs)\n";
        if (!report.marked && !pages.empty())
            std::cout << "viewers: opened at the first frame (" << plan.game->name << " marks no steps)\n";
    }
}

}  // namespace

void add_diff_command(CLI::App& app) {
    auto args = std::make_shared<DiffArgs>();
    auto* cmd = app.add_subcommand(
        "diff",
        "Where a new version of a bot first plays otherwise than the old one: both played on the same seeds, seats "
        "and opponents, their matches compared step by step");
    cmd->add_option("OLD", args->old_spec,
                    "The old version: name=N cmd=\"...\" (the bot spec of --bot); with --ladder-db a registered name");
    cmd->add_option("NEW", args->new_spec, "The new version, named otherwise; with --ladder-db a registered name");
    cmd->add_option("--ladder-db", args->ladder_db,
                    "Replay a ladder's verdict: NEW (default: the latest registered bot) and OLD (default: its family's "
                    "version before it) on NEW's ladder matches in DB, with their seeds, seats and opponents (--games: "
                    "the first N, default 40)");
    cmd->add_option("--game", args->game, "Game name (arbiter games)")->required();
    cmd->add_option("--bot", args->opponents,
                    "An opponent (repeatable; cycled over the other seats). Default: OLD itself");
    cmd->add_option("--games", args->games, "Games per version (default: twice the seats)");
    cmd->add_option("--players", args->players, "Bots per match (default: the version and its opponents; 1 plays the version alone where the game "
                    "lets one bot play)");
    cmd->add_option("--seed", args->seed, "Seed of game 0; game i is played with seed + i (default 1)")
        ->check(unsigned_integer());
    cmd->add_option("-j,--jobs", args->jobs, "Matches played at once (default: number of cores)");
    cmd->add_option("--set", args->sets, "Game option KEY=VALUE (repeatable)");
    cmd->add_option("--out", args->out, "Folder for the matches: old/ and new/ (default: arbiter-out/diff-GAME-TIME/)");
    cmd->add_flag("--viewers", args->viewers,
                  "For each match that differs, write diff-gK.html: the two matches' viewers side by side at the "
                  "first difference, stepping together");
    cmd->add_option("--memory-mib", args->memory_mib, "Memory limit per bot in MiB (0 = none)")->check(memory_mib_range());
    add_confinement_flags(cmd, args->confinement);
    cmd->footer(
        "Game i (seed + i) is played by OLD and by NEW in seat i mod SEATS, so that every seat is covered, with the\n"
        "same opponents in the other seats (without --bot: OLD itself; the given ones repeated to fill the seats; a\n"
        "game that holds more seats fills the rest with its house bots). Each match leaves its folder (record,\n"
        "replay, transcript, logs) as old/gI and new/gI under --out. The two transcripts of a game are compared step\n"
        "by step (the referee's step marks, the viewer's frames): the first step where a bot replied other lines is\n"
        "printed with both replies and the version's result in both matches, the matches whose result changed first,\n"
        "each with the `arbiter show NEW_FOLDER --seat N --step K` that prints that step; then 'N of M matches\n"
        "differ; K changed result: +better -worse', or 'no differences'. A game that marks no steps is compared by\n"
        "exchange: the n-th request to a seat. OLD plays game 0 a second time (old-again/g0); if it plays otherwise,\n"
        "the diff says so (a bot or the game is not deterministic). Exit 0 when it ran, 2 for a usage error.\n"
        "--viewers: diff-gI.html holds both viewers (iframes of old/gI/viewer.html and new/gI/viewer.html), opened at\n"
        "the first difference; stepping one steps the other by messages between the pages (postMessage), which\n"
        "browsers allow between pages opened from files, where they forbid reading another frame's address.\n\n"
        "Examples:\n"
        "  arbiter diff \"name=old cmd=./old_bot\" \"name=new cmd=./new_bot\" --game " + example_game().name +
        " --games 8 --viewers\n"
        "  arbiter diff --ladder-db ladder.sqlite --game " + example_game().name + "   # the ladder's last verdict");
    cmd->callback([args] { run_diff(*args); });
}

}  // namespace arb::cli
