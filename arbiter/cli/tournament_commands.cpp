// arbiter tournament | ladder | report
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>
#include <memory>
#include <thread>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "arbiter/cli/commands.hpp"
#include "arbiter/cli/result_table.hpp"
#include "arbiter/cli/tournament_args.hpp"
#include "core/interrupt.hpp"
#include "core/user_error.hpp"
#include "arbiter/ladder/ladder.hpp"
#include "arbiter/match/match_files.hpp"
#include "arbiter/match/match_runner.hpp"
#include "arbiter/report/html_report.hpp"
#include "arbiter/view/match_view.hpp"
#include "arbiter/view/viewer_page.hpp"
#include "arbiter/tournament/history.hpp"
#include "arbiter/tournament/preflight.hpp"
#include "arbiter/tournament/tournament_runner.hpp"
#include "arbiter/tournament/tournament_store.hpp"
#include "rating/bayeselo.hpp"
#include "rating/sprt.hpp"
#include "rating/bootstrap.hpp"
#include "rules/registry.hpp"

namespace arb::cli {
namespace {

using tournament::TournamentConfig;

void print_faults(const tournament::TournamentOutcome& outcome, const tournament::ForfeitRule& rule) {
    bool any_fault = false;
    for (const auto& [bot, f] : outcome.faults) {
        if (f.faults() == 0) continue;
        if (!any_fault) std::cout << "faults (matches with the bot at fault):\n";
        any_fault = true;
        std::cout << fmt::format("  {:<20} {:>4} of {:>4}: {} crashed, {} timeout, {} illegal, {} killed, {} forfeited{}\n",
                                 bot, f.faults(), f.matches, f.crashed, f.timeout, f.illegal, f.killed, f.forfeited,
                                 f.faults() == f.matches ? "  <- failed every match" : "");
        if (f.forfeited > 0)
            std::cout << fmt::format("  {:<20} forfeited {} match(es) without starting: {}\n", "", f.forfeited,
                                     rule.broken.count(bot)
                                         ? std::string("failed the pre-flight (--allow-broken)")
                                         : fmt::format("{} consecutive faults (--max-faults)", rule.max_faults.value_or(0)));
        if (f.faults() == f.matches) spdlog::warn("bot '{}' failed every one of its {} matches", bot, f.matches);
    }
}

// Where the results and the per-match files went, and the command that makes the report.
void print_where(const TournamentArgs& a, const TournamentConfig& c) {
    namespace fs = std::filesystem;
    const fs::path db = a.common.db;
    std::cout << fmt::format("results: {} (tournament '{}')\n", db.string(), c.name);
    const fs::path beside = db.parent_path() / (db.stem().string() + "-files") / c.name;
    for (const fs::path& folder : {c.out_dir.empty() ? fs::path() : fs::path(c.out_dir) / c.name, beside,
                                   c.out_dir.empty() ? fs::path() : fs::path(c.out_dir)}) {
        if (!folder.empty() && fs::is_directory(folder)) {
            std::cout << fmt::format("match files: {}\n", folder.string());
            break;
        }
    }
    const fs::path report = db.parent_path() / (db.stem().string() + "-report");
    std::cout << fmt::format("report: arbiter report --db {} --tournament {} --out {}\n", db.string(), c.name,
                             report.string());
}

void run_tournament_command(const TournamentArgs& a) {
    TournamentConfig c = tournament_config_from(a);
    const GameDescriptor& game = find_game(c.game);
    tournament::validate(c, game.min_bots, game.max_bots);
    tournament::check_game_options(c, game.name, game.options);
    check_bots(tournament::participants_of(c));
    // The checks that cost nothing (database, config, resume) before the pre-flight starts bots.
    auto store = rating::Store::open(a.common.db, rating::OpenMode::create_or_open);
    tournament::TournamentStore(store).check_resumable(c.name, c.identity_json());

    tournament::RunnerOptions options;
    options.forfeits.broken = preflight_bots(a, game, c, "the tournament did not start");
    options.forfeits.max_faults = a.max_faults;
    options.jobs = jobs_of(c);
    options.progress_out = a.no_progress ? nullptr : stderr;
    options.progress_on_terminal = isatty(fileno(stderr)) != 0;
    // -q (log only errors) also silences the live lines; results and the summary stay.
    options.live_out = spdlog::should_log(spdlog::level::info) ? stdout : nullptr;
    options.rating_interval = a.rating_interval;
    spdlog::info("tournament '{}': {} {}, {} bots, {}{}{}, -j {}", c.name, c.game, tournament::to_string(c.format),
                 tournament::participants_of(c).size(), c.rounds ? fmt::format("{} rounds", *c.rounds) : "",
                 c.time_budget_s ? fmt::format(" time budget {} s", *c.time_budget_s) : "",
                 c.map_pool.empty() ? "" : fmt::format(", a pool of {} {}", c.map_pool.size(), c.map_sources_key),
                 options.jobs);
    options.stop_requested = interrupt_requested;
    tournament::TournamentRunner runner(c, game, store, tournament::real_matches(game),
                                        tournament::fit_rating_model, options);
    const InterruptScope interrupts;  // Ctrl-C: finish and store the matches in progress, then stop
    const auto outcome = runner.run();

    std::cout << fmt::format("tournament {}: {} matches ({} played now, {} from earlier runs) in {:.1f} s{}\n", c.name,
                             outcome.stored, outcome.played_this_run, outcome.already_played, outcome.wall_s,
                             outcome.complete ? (outcome.budget_reached ? ", time budget reached" : "")
                             : outcome.interrupted ? ", INTERRUPTED (run the same command again to resume)"
                                                   : ", INCOMPLETE (run the same command again to resume)");
    std::cout << tournament::ratings_table_text(outcome.history);
    print_faults(outcome, options.forfeits);
    std::vector<KeyedRecord> keyed;
    for (const auto& p : outcome.failed_seats.first) keyed.push_back({p.scheduled.key, &p.record});
    print_failed_seats(std::cout, keyed, tournament::kFailedSeatsKept, outcome.failed_seats.seats);
    print_where(a, c);
    if (outcome.failed > 0) {
        std::cout << fmt::format("{} match(es) could not be played; run the same command again to retry them\n",
                                 outcome.failed);
        throw ExitStatus{1};
    }
    if (outcome.interrupted && !outcome.complete) throw ExitStatus{128 + interrupt_signal()};
}

// --intervals and --bootstrap-samples, checked with a one-line error.
rating::IntervalSource interval_source(const std::string& intervals, const rating::BootstrapOptions& bootstrap) {
    if (bootstrap.samples < 1 || bootstrap.samples > 1000000)
        throw UserError(fmt::format("--bootstrap-samples must be from 1 to 1000000, not {}", bootstrap.samples));
    return rating::parse_interval_source(intervals);
}

struct LadderArgs {
    CommonArgs common;
    std::string add;
    std::string previous;
    std::string output = "text";
    std::optional<int> max_matches;
    std::optional<double> target_interval;
    std::vector<std::string> sprt;
    std::string intervals = "bayeselo";
    rating::BootstrapOptions bootstrap;
    bool no_preflight = false;
};

void run_ladder_command(const LadderArgs& a) {
    ladder::LadderRequest request;
    request.config = base_config(a.common);
    if (a.max_matches) request.config.ladder.max_matches = *a.max_matches;
    if (a.target_interval) request.config.ladder.target_interval = *a.target_interval;
    if (!a.sprt.empty()) {
        std::string joined;
        for (const auto& word : a.sprt) joined += word + " ";
        request.config.ladder.sprt = rating::parse_sprt(joined);
    }
    request.new_bot = parse_bot_spec(tournament::expand_variables(a.add));
    if (!a.previous.empty()) request.previous = a.previous;
    request.intervals = interval_source(a.intervals, a.bootstrap);
    request.bootstrap = a.bootstrap;
    request.jobs = jobs_of(request.config);
    request.preflight = !a.no_preflight;
    const GameDescriptor& game = find_game(request.config.game);
    tournament::check_game_options(request.config, game.name, game.options);
    if (request.config.players && (request.config.players < game.min_bots || request.config.players > game.max_bots))
        throw UserError(fmt::format("game '{}' takes {} to {} bots per match", game.name, game.min_bots, game.max_bots));
    // A ladder's groups have one size: a pool of one player count sets it, and every map must seat
    // it (checked here too, before anything is registered).
    const std::vector<int> counts = tournament::player_counts(request.config.map_pool);
    if (request.config.players == 0 && counts.size() == 1) request.config.players = counts.front();
    for (const auto& m : request.config.map_pool)
        if (m.players != 0 && m.players != (request.config.players ? request.config.players : counts.front()))
            throw UserError(fmt::format("{} '{}' is for {} players; a ladder plays groups of one size: give 'players' and "
                                        "maps that seat it", request.config.map_option, tournament::map_name(m.path),
                                        m.players));
    std::vector<BotSpec> all = request.config.bots;
    all.push_back(request.new_bot);
    check_bots(all);
    auto store = rating::Store::open(a.common.db, rating::OpenMode::create_or_open);
    request.stop_requested = interrupt_requested;
    const InterruptScope interrupts;  // Ctrl-C: finish and store the matches in progress, then stop
    const auto outcome = ladder::run_ladder(request, game, store, tournament::real_matches(game));
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

void add_interval_options(CLI::App* sub, std::string& intervals, rating::BootstrapOptions& bootstrap,
                          const std::string& help) {
    sub->add_option("--intervals", intervals, help)->capture_default_str();
    sub->add_option("--bootstrap-samples", bootstrap.samples, "Resamples for --intervals bootstrap")
        ->capture_default_str();
    sub->add_option("--bootstrap-seed", bootstrap.seed, "Seed of the bootstrap's resampling")->capture_default_str();
}

struct ReportArgs {
    std::string db;
    std::string out;
    std::string game;
    std::string tournament;
    std::string chartjs;
    std::string intervals = "bayeselo";
    rating::BootstrapOptions bootstrap;
    bool viewers = false;
};

void run_report_command(const ReportArgs& a) {
    report::ReportOptions options;
    options.intervals = interval_source(a.intervals, a.bootstrap);  // before the store: a typo touches nothing
    auto store = rating::Store::open(a.db, rating::OpenMode::read_only);
    options.out_dir = a.out;
    options.files_root = default_files_root(a.db);
    if (!a.game.empty()) options.game = a.game;
    if (!a.tournament.empty()) options.tournament = a.tournament;
    if (!a.chartjs.empty()) options.chartjs = a.chartjs;
    options.bootstrap = a.bootstrap;
    options.map_name = map_file_of;
    if (a.viewers)
        options.viewers = [](const std::filesystem::path& folder) {
            write_file_atomically(folder / "viewer.html", view::viewer_page(view::load_match_view(folder)));
        };
    const auto summary = report::write_html_report(store, options);
    std::cout << fmt::format("report: {} ({} game(s), {} matches{})\n", summary.page.string(), summary.games,
                             summary.matches, summary.charts ? "" : "; no Chart.js found, tables only");
    if (a.viewers)
        std::cout << fmt::format("viewers: {} match pages written{}\n", summary.viewers_written,
                                 summary.viewers_failed == 0
                                     ? ""
                                     : fmt::format("; {} matches not shown (the first: {})", summary.viewers_failed,
                                                   summary.first_viewer_failure));
}

}  // namespace

void add_tournament_commands(CLI::App& app) {
    auto t_args = std::make_shared<TournamentArgs>();
    auto* t = app.add_subcommand("tournament",
                                 "Play a tournament: seed-000 groups, round-robin or gauntlet; stored in SQLite, "
                                 "resumable (run the same command again)");
    add_common(t, t_args->common);
    add_tournament_flags(t, *t_args);
    t->add_flag("--no-progress", t_args->no_progress, "No progress line");
    t->add_option("--rating-interval", t_args->rating_interval,
                  "Print the ratings table every N finished matches (0 = only at the end)")
        ->check(CLI::Range(0, 1000000));
    t->add_option("--max-faults", t_args->max_faults,
                  "After N consecutive faults of a bot, forfeit its later matches without starting it")
        ->check(CLI::Range(1, 1000000));
    t->add_flag("--allow-broken", t_args->allow_broken,
                "Play even when bots fail the pre-flight; their matches are forfeited");
    t->add_flag("--no-preflight", t_args->no_preflight, "Do not start every bot once before the schedule");
    t->footer("Relative paths in a config file (bots' dir= and programs, map files, out) are taken from the\n"
              "config file's folder.\nExample:\n"
              "  arbiter tournament --config configs/demo.json --db demo.sqlite -j 2");
    t->callback([t_args] { run_tournament_command(*t_args); });

    auto l_args = std::make_shared<LadderArgs>();
    auto* l = app.add_subcommand("ladder",
                                 "Register a new bot version, play it against the ladder pool, store a snapshot, "
                                 "judge it against its previous version (exit 0 better, 3 inconclusive, 4 worse, "
                                 "5 no previous version, 6 failed every match or the pre-flight)");
    add_common(l, l_args->common);
    l->add_option("--add", l_args->add, "The new version: name=N cmd=\"...\"")->required();
    l->add_option("--previous", l_args->previous, "Compare with this bot (default: latest of the same name family)");
    l->add_option("--format", l_args->output, "text | json")->check(CLI::IsMember({"text", "json"}));
    l->add_option("--max-matches", l_args->max_matches, "Game budget of this run");
    l->add_option("--target-interval", l_args->target_interval, "Stop when the 95% interval half-width is below (Elo)");
    l->add_flag("--no-preflight", l_args->no_preflight,
                "Skip the pre-flight (the new version started once and taken through the game's set-up before its "
                "first match; failing it is the verdict broken)");
    l->footer("Example:\n  arbiter ladder --config configs/nightly-ladder.json --db ladder.sqlite "
              "--add \"name=mybot-v2 cmd=./mybot\"");
    l->add_option("--sprt", l_args->sprt,
                  "Judge against the previous version by an SPRT, stopping at a bound: elo0=E0 elo1=E1 alpha=A beta=B "
                  "model=normalized|logistic|bayesian (fastchess's string, also as -sprt; default model normalized)")
        ->expected(1, 5);
    add_interval_options(l, l_args->intervals, l_args->bootstrap,
                         "Interval and LOS the stop and the verdict use: bayeselo (covariance) or bootstrap (over "
                         "ladder rounds, honest for games of more than two)");
    l->callback([l_args] { run_ladder_command(*l_args); });

    auto r_args = std::make_shared<ReportArgs>();
    auto* r = app.add_subcommand(
        "report", "Write a static HTML report (settings, ratings, LOS, head-to-head, time and memory, failures, every "
                  "match with links to its files) from a database");
    r->add_option("--db", r_args->db, "SQLite results file")->required()->check(existing_input());
    r->add_option("--out", r_args->out, "Output folder (index.html)")->required();
    r->add_option("--game", r_args->game, "Only this game");
    r->add_option("--tournament", r_args->tournament, "Only this tournament's matches");
    r->add_option("--chartjs", r_args->chartjs, "Chart.js file to inline (default: Debian's libjs-chart.js)");
    r->add_flag("--viewers", r_args->viewers,
                "Also write each match's replay viewer (viewer.html in its folder, as arbiter view does); the "
                "match list links to it");
    r->footer("Example:\n  arbiter report --db demo.sqlite --out demo-report");
    add_interval_options(r, r_args->intervals, r_args->bootstrap,
                         "Rating intervals and LOS: bayeselo or bootstrap (over matches, honest for games of more "
                         "than two)");
    r->callback([r_args] { run_report_command(*r_args); });
}

}  // namespace arb::cli
