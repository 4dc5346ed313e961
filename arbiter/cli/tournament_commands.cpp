// arbiter tournament | ladder | report
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <thread>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "arbiter/cli/commands.hpp"
#include "core/interrupt.hpp"
#include "core/user_error.hpp"
#include "arbiter/ladder/ladder.hpp"
#include "arbiter/match/match_runner.hpp"
#include "arbiter/report/html_report.hpp"
#include "arbiter/tournament/history.hpp"
#include "arbiter/tournament/tournament_runner.hpp"
#include "rating/bayeselo.hpp"
#include "rules/registry.hpp"

namespace arb::cli {
namespace {

using tournament::TournamentConfig;

// Flags shared by `tournament` and `ladder`; each given flag overrides the config file.
struct CommonArgs {
    std::string config_path;
    std::string db;
    std::string game;
    std::vector<std::string> bots;
    std::vector<std::string> sets;  // KEY=VALUE game options
    std::optional<std::uint64_t> seed;
    std::optional<int> players;
    std::optional<int> jobs;
    std::string out;
    std::optional<std::int64_t> memory_mib;
};

void add_common(CLI::App* cmd, CommonArgs& a) {
    cmd->add_option("--config", a.config_path, "JSON config (see configs/ and docs/tournaments.md)")->check(CLI::ExistingFile);
    cmd->add_option("--db", a.db, "SQLite results file (created if missing)")->required();
    cmd->add_option("--game", a.game, "Game name (arbiter games)");
    cmd->add_option("--bot", a.bots, "Bot spec: name=N cmd=\"...\" [dir=..] [arg=..] [env.K=V] (repeatable)");
    cmd->add_option("--set", a.sets, "Game option KEY=VALUE (repeatable)");
    cmd->add_option("--seed", a.seed, "Seed of the whole schedule")->check(unsigned_integer());
    cmd->add_option("--players", a.players, "Bots per match");
    cmd->add_option("-j,--jobs", a.jobs, "Matches played at once (default: number of cores)");
    cmd->add_option("--out", a.out, "Folder for transcripts and bot logs");
    cmd->add_option("--memory-mib", a.memory_mib, "Memory limit per bot in MiB (0 = none)")->check(memory_mib_range());
}

TournamentConfig base_config(const CommonArgs& a) {
    TournamentConfig c;
    if (!a.config_path.empty()) c = tournament::read_tournament_config(a.config_path);
    if (!a.game.empty()) c.game = a.game;
    if (c.game.empty()) throw UserError("name the game with --game or the config key 'game'");
    for (const auto& spec : a.bots) c.bots.push_back(parse_bot_spec(tournament::expand_variables(spec)));
    for (const auto& kv : a.sets) {
        const auto eq = kv.find('=');
        if (eq == std::string::npos || eq == 0) throw UserError("--set wants KEY=VALUE, got '" + kv + "'");
        c.options[kv.substr(0, eq)] = kv.substr(eq + 1);
        c.option_locations[kv.substr(0, eq)] = "--set";
    }
    if (a.seed) c.seed = *a.seed;
    if (a.players) c.players = *a.players;
    if (a.jobs) c.jobs = *a.jobs;
    if (!a.out.empty()) c.out_dir = a.out;
    if (a.memory_mib) c.memory_mib = *a.memory_mib;
    return c;
}

int jobs_of(const TournamentConfig& c) {
    return c.jobs > 0 ? c.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

struct TournamentArgs {
    CommonArgs common;
    std::string name;
    std::string format;
    std::vector<std::string> house_bots;
    std::vector<std::string> challengers;
    std::optional<int> rounds;
    std::optional<double> time_budget;
    std::optional<int> random_rounds;
    std::string seating;
    std::optional<bool> all_seatings;
    bool no_progress = false;
};

void run_tournament_command(const TournamentArgs& a) {
    TournamentConfig c = base_config(a.common);
    if (!a.name.empty()) c.name = a.name;
    if (!a.format.empty()) {
        if (a.format == "groups") c.format = tournament::Format::groups;
        else if (a.format == "round-robin") c.format = tournament::Format::round_robin;
        else if (a.format == "gauntlet") c.format = tournament::Format::gauntlet;
        else throw UserError("--format must be groups, round-robin or gauntlet");
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

    const GameDescriptor& game = find_game(c.game);
    tournament::validate(c, game.min_bots, game.max_bots);
    check_bots(tournament::participants_of(c));

    auto store = rating::Store::open(a.common.db, rating::OpenMode::create_or_open);
    tournament::RunnerOptions options;
    options.jobs = jobs_of(c);
    options.progress_out = a.no_progress ? nullptr : stderr;
    options.progress_on_terminal = isatty(fileno(stderr)) != 0;
    spdlog::info("tournament '{}': {} {}, {} bots, {}{}, -j {}", c.name, c.game, tournament::to_string(c.format),
                 tournament::participants_of(c).size(), c.rounds ? fmt::format("{} rounds", *c.rounds) : "",
                 c.time_budget_s ? fmt::format(" time budget {} s", *c.time_budget_s) : "", options.jobs);
    options.stop_requested = interrupt_requested;
    tournament::TournamentRunner runner(c, game, store, [&game](const MatchRequest& r) { return run_match(game, r); },
                                        tournament::fit_rating_model, options);
    const InterruptScope interrupts;  // Ctrl-C: finish and store the matches in progress, then stop
    const auto outcome = runner.run();

    std::cout << fmt::format("tournament {}: {} matches ({} played now, {} from earlier runs) in {:.1f} s{}\n", c.name,
                             outcome.played.size(), outcome.played_this_run, outcome.already_played, outcome.wall_s,
                             outcome.complete ? (outcome.budget_reached ? ", time budget reached" : "")
                             : outcome.interrupted ? ", INTERRUPTED (run the same command again to resume)"
                                                   : ", INCOMPLETE (run the same command again to resume)");
    std::vector<const tournament::PlayedMatch*> pointers;
    for (const auto& p : outcome.played) pointers.push_back(&p);
    const auto history = tournament::build_history(outcome.participants, pointers);
    if (!history.results.empty()) {
        auto elo = tournament::tournament_elo_options();
        std::cout << rating::format_ratings_table(rating::rate(history.results, elo));
    }
    bool any_fault = false;
    for (const auto& [bot, f] : outcome.faults) {
        if (f.faults() == 0) continue;
        if (!any_fault) std::cout << "faults (matches with the bot at fault):\n";
        any_fault = true;
        std::cout << fmt::format("  {:<20} {:>4} of {:>4}: {} crashed, {} timeout, {} illegal, {} killed{}\n", bot,
                                 f.faults(), f.matches, f.crashed, f.timeout, f.illegal, f.killed,
                                 f.faults() == f.matches ? "  <- failed every match" : "");
        if (f.faults() == f.matches) spdlog::warn("bot '{}' failed every one of its {} matches", bot, f.matches);
    }
    if (outcome.failed > 0) {
        std::cout << fmt::format("{} match(es) could not be played; run the same command again to retry them\n",
                                 outcome.failed);
        throw ExitStatus{1};
    }
    if (outcome.interrupted && !outcome.complete) throw ExitStatus{128 + interrupt_signal()};
}

struct LadderArgs {
    CommonArgs common;
    std::string add;
    std::string previous;
    std::string output = "text";
    std::optional<int> max_matches;
    std::optional<double> target_interval;
};

void run_ladder_command(const LadderArgs& a) {
    ladder::LadderRequest request;
    request.config = base_config(a.common);
    if (a.max_matches) request.config.ladder.max_matches = *a.max_matches;
    if (a.target_interval) request.config.ladder.target_interval = *a.target_interval;
    request.new_bot = parse_bot_spec(tournament::expand_variables(a.add));
    if (!a.previous.empty()) request.previous = a.previous;
    request.jobs = jobs_of(request.config);
    const GameDescriptor& game = find_game(request.config.game);
    if (request.config.players && (request.config.players < game.min_bots || request.config.players > game.max_bots))
        throw UserError(fmt::format("game '{}' takes {} to {} bots per match", game.name, game.min_bots, game.max_bots));
    std::vector<BotSpec> all = request.config.bots;
    all.push_back(request.new_bot);
    check_bots(all);
    auto store = rating::Store::open(a.common.db, rating::OpenMode::create_or_open);
    request.stop_requested = interrupt_requested;
    const InterruptScope interrupts;  // Ctrl-C: finish and store the matches in progress, then stop
    const auto outcome = ladder::run_ladder(request, game, store, [&game](const MatchRequest& r) { return run_match(game, r); });
    if (outcome.interrupted) {
        std::cout << fmt::format("ladder {}: INTERRUPTED after {} matches this run (stored; run the same command "
                                 "again to resume)\n",
                                 request.new_bot.name, outcome.matches_this_run);
        throw ExitStatus{128 + interrupt_signal()};
    }
    std::cout << (a.output == "json" ? outcome.to_json() + "\n" : outcome.to_text());
    const int code = ladder::exit_code(outcome.verdict);
    if (code != 0) throw ExitStatus{code};
}

struct ReportArgs {
    std::string db;
    std::string out;
    std::string game;
    std::string tournament;
    std::string chartjs;
};

void run_report_command(const ReportArgs& a) {
    auto store = rating::Store::open(a.db, rating::OpenMode::read_only);
    report::ReportOptions options;
    options.out_dir = a.out;
    if (!a.game.empty()) options.game = a.game;
    if (!a.tournament.empty()) options.tournament = a.tournament;
    if (!a.chartjs.empty()) options.chartjs = a.chartjs;
    const auto summary = report::write_html_report(store, options);
    std::cout << fmt::format("report: {} ({} game(s), {} matches{})\n", summary.page.string(), summary.games,
                             summary.matches, summary.charts ? "" : "; no Chart.js found, tables only");
}

}  // namespace

void add_tournament_commands(CLI::App& app) {
    auto t_args = std::make_shared<TournamentArgs>();
    auto* t = app.add_subcommand("tournament",
                                 "Play a tournament: seed-000 groups, round-robin or gauntlet; stored in SQLite, "
                                 "resumable (run the same command again)");
    add_common(t, t_args->common);
    t->add_option("--name", t_args->name, "Tournament name in the database (default: config file stem or game)");
    t->add_option("--format", t_args->format, "groups | round-robin | gauntlet");
    t->add_option("--house-bot", t_args->house_bots, "House bot spec, fills groups (repeatable)");
    t->add_option("--challenger", t_args->challengers, "Gauntlet: bot name that plays everyone (repeatable)");
    t->add_option("--rounds", t_args->rounds, "Number of rounds");
    t->add_option("--time-budget", t_args->time_budget, "Seconds; no new round starts after it");
    t->add_option("--random-rounds", t_args->random_rounds, "groups: rounds grouped at random (default 10)");
    t->add_option("--seating", t_args->seating, "rotations | permutations");
    t->add_option("--all-seatings", t_args->all_seatings, "true: every seed in every seat arrangement");
    t->add_flag("--no-progress", t_args->no_progress, "No progress line");
    t->callback([t_args] { run_tournament_command(*t_args); });

    auto l_args = std::make_shared<LadderArgs>();
    auto* l = app.add_subcommand("ladder",
                                 "Register a new bot version, play it against the ladder pool, store a snapshot, "
                                 "judge it against its previous version (exit 0 better, 3 inconclusive, 4 worse, "
                                 "5 no previous version, 6 failed every match)");
    add_common(l, l_args->common);
    l->add_option("--add", l_args->add, "The new version: name=N cmd=\"...\"")->required();
    l->add_option("--previous", l_args->previous, "Compare with this bot (default: latest of the same name family)");
    l->add_option("--format", l_args->output, "text | json")->check(CLI::IsMember({"text", "json"}));
    l->add_option("--max-matches", l_args->max_matches, "Game budget of this run");
    l->add_option("--target-interval", l_args->target_interval, "Stop when the 95% interval half-width is below (Elo)");
    l->callback([l_args] { run_ladder_command(*l_args); });

    auto r_args = std::make_shared<ReportArgs>();
    auto* r = app.add_subcommand("report", "Write a static HTML report (ratings, history, LOS, failures) from a database");
    r->add_option("--db", r_args->db, "SQLite results file")->required()->check(CLI::ExistingFile);
    r->add_option("--out", r_args->out, "Output folder (index.html)")->required();
    r->add_option("--game", r_args->game, "Only this game");
    r->add_option("--tournament", r_args->tournament, "Only this tournament's matches");
    r->add_option("--chartjs", r_args->chartjs, "Chart.js file to inline (default: Debian's libjs-chart.js)");
    r->callback([r_args] { run_report_command(*r_args); });
}

}  // namespace arb::cli
