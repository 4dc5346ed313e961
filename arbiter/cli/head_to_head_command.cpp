// arbiter match A B: a quick head-to-head of two bots on deal sets played in all seat rotations,
// judged by an SPRT (rating/sprt.hpp) or, without one, by the likelihood of superiority.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "arbiter/cli/commands.hpp"
#include "arbiter/ladder/ladder.hpp"
#include "arbiter/match/match_files.hpp"
#include "arbiter/match/match_runner.hpp"
#include "arbiter/tournament/play_and_store.hpp"
#include "arbiter/tournament/preflight.hpp"
#include "arbiter/tournament/tournament_config.hpp"
#include "arbiter/tournament/worker_pool.hpp"
#include "core/bot_spec.hpp"
#include "core/interrupt.hpp"
#include "core/rng.hpp"
#include "core/confine/sandbox.hpp"
#include "core/user_error.hpp"
#include "rating/sprt.hpp"
#include "rating/store.hpp"
#include "rules/registry.hpp"

namespace arb::cli {
namespace {

struct MatchArgs {
    std::string a, b;
    std::string game;
    int games = 0;
    std::vector<std::string> sprt;
    std::vector<std::string> sets;
    std::uint64_t seed = 1;
    std::optional<int> players;
    std::optional<int> jobs;
    std::string db;
    std::string out;
    std::int64_t memory_mib = 400;
    ConfinementArgs confinement;
    bool no_progress = false;
    bool no_preflight = false;
};

// Without --sprt the verdict is read from the LOS, with the ladder's default thresholds.
constexpr double kBetterLos = 0.95, kWorseLos = 0.05;

// Everything one head-to-head needs, checked.
struct HeadToHead {
    BotSpec a, b;
    const GameDescriptor* game = nullptr;
    GameOptions options;
    std::map<std::string, std::string> given_options;  // as --set gave them
    int seats = 2;
    int deal_sets = 0;
    std::uint64_t seed = 1;
    std::optional<rating::SprtParams> sprt;
    std::string tournament;
    Limits limits;
    int jobs = 1;
    std::filesystem::path files_root;  // each match's folder is <files_root>/<tournament>/d<set>-s<rotation>
    std::string files_flag;            // the option the folder comes from, for errors
};

HeadToHead prepare(const MatchArgs& args) {
    HeadToHead h;
    if (!args.sprt.empty()) {
        std::string joined;
        for (const auto& word : args.sprt) joined += word + " ";
        h.sprt = rating::parse_sprt(joined);
    }
    h.a = parse_bot_spec(tournament::expand_variables(args.a));
    h.b = parse_bot_spec(tournament::expand_variables(args.b));
    if (h.a.name == h.b.name) throw UserError("the two bots are both named '" + h.a.name + "'; give one another name=");
    h.game = &find_game(args.game);
    h.seats = args.players.value_or(2);
    if (h.seats < h.game->min_bots || h.seats > h.game->max_bots || h.seats % 2 != 0)
        throw UserError(fmt::format("--players must be even and from {} to {} for game '{}', not {}", h.game->min_bots,
                                    h.game->max_bots, h.game->name, h.seats));
    if (h.sprt) h.sprt->seats = h.seats;
    if (args.games < 1) throw UserError(fmt::format("--games must be at least 1, not {}", args.games));
    h.options = options_from_sets(*h.game, args.sets);
    h.given_options = given_sets(args.sets);
    h.deal_sets = (args.games + h.seats - 1) / h.seats;
    h.seed = args.seed;
    h.tournament = fmt::format("match-{}-{}-{}", h.a.name, h.b.name, h.seed);
    h.limits.memory_mib = args.memory_mib;
    apply_confinement(args.confinement, h.limits);
    h.jobs = args.jobs.value_or(tournament::core_count());
    if (h.jobs < 1) throw UserError("-j must be at least 1");
    check_bots({h.a, h.b});
    // Match folders as a tournament leaves them: under --out, else beside a --db file.
    if (!args.out.empty()) {
        h.files_root = std::filesystem::absolute(args.out);
        h.files_flag = "--out";
    } else if (!args.db.empty() && rating::is_file_database(args.db)) {
        h.files_root = default_files_root(args.db);
        h.files_flag = "--db";
    }
    return h;
}

// Results are stored by seat name, so the second copy of a bot sits as "<name>#2", and so on.
std::string copy_name(const std::string& name, int copy) {
    return copy == 0 ? name : fmt::format("{}#{}", name, copy + 1);
}

std::vector<std::string> names_of(const HeadToHead& h, const BotSpec& bot) {
    std::vector<std::string> out;
    for (int copy = 0; copy < h.seats / 2; ++copy) out.push_back(copy_name(bot.name, copy));
    return out;
}

// Seat order of rotation s: A and B alternate (A, B, A, B, ...) and rotation s shifts everyone s
// seats on, so over all rotations each bot sits in every seat, and plays every deal of the set,
// equally often.
MatchRequest request_for(const HeadToHead& h, int set, int s) {
    MatchRequest r;
    r.game = h.game->name;
    for (int seat = 0; seat < h.seats; ++seat) {
        BotSpec bot = (seat + s) % 2 == 0 ? h.a : h.b;
        bot.name = copy_name(bot.name, seat / 2);
        r.bots.push_back(std::move(bot));
    }
    r.seed = derive_seed(h.seed, {static_cast<std::uint64_t>(set), static_cast<std::uint64_t>(s)});
    r.deal_set = derive_seed(h.seed, {static_cast<std::uint64_t>(set)});
    r.rotation = s;
    r.options = h.options;
    r.limits = h.limits;
    if (!h.files_root.empty())
        direct_files_into(r, *h.game, h.files_root / h.tournament / fmt::format("d{}-s{}", set, s), h.files_flag);
    return r;
}

std::string key_of(const HeadToHead& h, int set, int s) { return fmt::format("{}/d{}/s{}", h.tournament, set, s); }

// The stored matches of this head-to-head; a database holding the name for another game or other
// bots is refused rather than mixed in.
std::map<std::string, MatchRecord> stored_matches(const HeadToHead& h, rating::Store& store) {
    std::map<std::string, MatchRecord> out;
    rating::MatchFilter filter;
    filter.tournament = h.tournament;
    for (auto& m : store.matches(filter)) {
        bool ours = m.record.game == h.game->name && static_cast<int>(m.record.participants.size()) == h.seats;
        const auto a = names_of(h, h.a), b = names_of(h, h.b);
        for (const auto& p : m.record.participants)
            ours = ours && (std::count(a.begin(), a.end(), p.bot) + std::count(b.begin(), b.end(), p.bot) > 0);
        if (!ours)
            throw UserError(fmt::format("the database already holds '{}' with another game, seat count or bots; "
                                        "use another --seed or --db",
                                        h.tournament));
        if (m.schedule_key) out.emplace(*m.schedule_key, std::move(m.record));
    }
    return out;
}

// The observations of the complete deal sets from the first on, up to the first incomplete one.
std::vector<rating::SprtObservation> observations(const HeadToHead& h, const std::map<std::string, MatchRecord>& stored) {
    std::vector<rating::SprtObservation> out;
    for (int set = 0; set < h.deal_sets; ++set) {
        std::vector<const MatchRecord*> records;
        for (int s = 0; s < h.seats; ++s) {
            const auto it = stored.find(key_of(h, set, s));
            if (it == stored.end()) return out;
            records.push_back(&it->second);
        }
        out.push_back(rating::observation_of(records, names_of(h, h.a), names_of(h, h.b)));
    }
    return out;
}

rating::SprtSummary judge(const HeadToHead& h, const std::vector<rating::SprtObservation>& obs) {
    return rating::evaluate_sprt(h.sprt.value_or(rating::SprtParams{}), obs, h.sprt.has_value());
}

class Progress {
public:
    explicit Progress(bool enabled) : enabled_(enabled), terminal_(isatty(fileno(stderr)) != 0) {}
    void show(const HeadToHead& h, int sets_done, const rating::SprtSummary& s, bool final) {
        if (!enabled_) return;
        const auto now = std::chrono::steady_clock::now();
        if (!terminal_ && !final && now - last_ < std::chrono::seconds(10)) return;
        last_ = now;
        std::string line = fmt::format("match {} vs {}: {}/{} deal sets, {} scores {:.1f}%", h.a.name, h.b.name,
                                       sets_done, h.deal_sets, h.a.name, 100 * s.score);
        if (h.sprt) line += fmt::format(", LLR {:.2f} ({:.2f}, {:.2f})", s.llr, s.lower, s.upper);
        std::fprintf(stderr, terminal_ ? "\r%s\033[K%s" : "%s%s", line.c_str(), terminal_ && !final ? "" : "\n");
        std::fflush(stderr);
    }

private:
    bool enabled_, terminal_;
    std::chrono::steady_clock::time_point last_{};
};

// Plays the missing matches, a few deal sets at a time, until the SPRT decides or every deal set
// is played. Returns false when interrupted.
bool play(const HeadToHead& h, rating::Store& store, std::map<std::string, MatchRecord>& stored, Progress& progress) {
    const tournament::MatchFunction play_one = tournament::real_matches(*h.game);
    const int batch = std::max(1, (h.jobs + h.seats - 1) / h.seats);
    int checked = 0;  // deal sets whose prefixes are known to stay between the bounds
    for (int next = 0; next < h.deal_sets;) {
        const auto obs = observations(h, stored);
        const int n = static_cast<int>(obs.size());
        if (h.sprt) {
            const rating::SprtSummary summary =
                rating::evaluate_sprt_prefix(*h.sprt, obs, rating::sprt_stop_index(*h.sprt, obs, checked + 1));
            progress.show(h, n, summary, false);
            if (summary.decision != rating::SprtDecision::none) return true;
            checked = n;
        } else {
            progress.show(h, n, judge(h, obs), false);
        }
        if (interrupt_requested()) return false;
        std::vector<tournament::KeyedRequest> requests;
        for (; next < h.deal_sets && static_cast<int>(requests.size()) < batch * h.seats; ++next) {
            for (int s = 0; s < h.seats; ++s) {
                if (stored.count(key_of(h, next, s))) continue;
                requests.push_back({key_of(h, next, s), request_for(h, next, s)});
            }
        }
        tournament::play_and_store(store, h.tournament, requests, h.jobs, play_one, interrupt_requested, stored);
    }
    return !interrupt_requested() || static_cast<int>(observations(h, stored).size()) == h.deal_sets;
}

// Both bots must get through the game's set-up (the tournament's pre-flight) before a deal set
// is played: a bot that cannot start is reported with its reason, and nothing is played.
void preflight_both(const HeadToHead& h) {
    tournament::TournamentConfig c;
    c.name = h.tournament;
    c.game = h.game->name;
    c.seed = h.seed;
    c.players = h.seats;
    c.bots = {h.a, h.b};
    c.options = h.given_options;
    c.memory_mib = h.limits.memory_mib;
    c.sandbox = h.limits.sandbox;
    c.seat_users = h.limits.seat_users;
    c.disk_mib = h.limits.disk_mib;
    c.folder_mib = h.limits.folder_mib;
    c.pass_env = h.limits.pass_env;
    c.allow_syscalls = h.limits.allow_syscalls;
    const auto failures = tournament::preflight(*h.game, c, h.jobs);
    for (const auto& f : failures)
        std::fprintf(stderr, "arbiter: bot '%s' failed the pre-flight: %s\n", f.bot.c_str(), f.reason.c_str());
    if (failures.empty()) return;
    std::fprintf(stderr, "arbiter: the match did not start (--no-preflight skips the check)\n");
    throw ExitStatus{kUsageExitCode};
}

ladder::Verdict verdict_of(const HeadToHead& h, const rating::SprtSummary& s) {
    if (h.sprt) {
        if (s.decision == rating::SprtDecision::accept_h1) return ladder::Verdict::better;
        if (s.decision == rating::SprtDecision::accept_h0) return ladder::Verdict::worse;
        return ladder::Verdict::inconclusive;
    }
    if (s.observations > 0 && s.los >= kBetterLos) return ladder::Verdict::better;
    if (s.observations > 0 && s.los <= kWorseLos) return ladder::Verdict::worse;
    return ladder::Verdict::inconclusive;
}

// A budget too small for the SPRT to decide even if one bot wins every game is said before the
// first match, with the least budget that could decide.
void warn_unreachable_bounds(const HeadToHead& h) {
    if (!h.sprt) return;
    const int comparisons = h.seats / 2 * (h.seats / 2) * h.seats;  // A-B pairs over one deal set's rotations
    constexpr int kCap = 1000000;  // deal sets
    const rating::SprtReach reach = rating::sprt_reach(*h.sprt, comparisons, kCap);
    const auto reachable = [&](const std::optional<int>& n) { return n && *n <= h.deal_sets; };
    if (reachable(reach.upper) || reachable(reach.lower)) return;
    const auto least = rating::least_deciding_matches(reach, h.seats);
    spdlog::warn("match {} vs {}: --games {} cannot end the SPRT ({}) whatever the results: {}{}", h.a.name, h.b.name,
                 h.deal_sets * h.seats, rating::to_string(*h.sprt), rating::reach_text(reach, h.seats, kCap),
                 least ? fmt::format("; --games {} could", *least) : "");
}

void run_match_command(const MatchArgs& args) {
    const HeadToHead h = prepare(args);
    warn_unreachable_bounds(h);
    auto store = rating::Store::open(args.db.empty() ? ":memory:" : args.db, rating::OpenMode::create_or_open);
    auto stored = stored_matches(h, store);
    if (!args.no_preflight && static_cast<int>(stored.size()) < h.deal_sets * h.seats) preflight_both(h);
    spdlog::info("match {} vs {}: {}, {} seats, up to {} deal sets of {} rotations, seed {}{}, -j {}", h.a.name, h.b.name,
                 h.game->name, h.seats, h.deal_sets, h.seats, h.seed, h.sprt ? ", SPRT " + rating::to_string(*h.sprt) : "",
                 h.jobs);
    Progress progress(!args.no_progress);
    const InterruptScope interrupts;  // Ctrl-C: finish and store the matches in progress, then stop
    const bool finished = play(h, store, stored, progress);
    const auto obs = observations(h, stored);
    const rating::SprtSummary summary = judge(h, obs);
    progress.show(h, static_cast<int>(obs.size()), summary, true);
    if (!finished) {
        std::cout << fmt::format("match {} vs {}: INTERRUPTED after {} deal sets{}\n", h.a.name, h.b.name, obs.size(),
                                 args.db.empty() ? "" : " (stored; run the same command again to resume)");
        throw ExitStatus{128 + interrupt_signal()};
    }
    const std::string context = fmt::format("{}, {} seats, {} games per deal set", h.game->name, h.seats, h.seats);
    std::cout << rating::format_sprt(summary, h.sprt, h.a.name, h.b.name, context);
    const ladder::Verdict verdict = verdict_of(h, summary);
    const std::string why = h.sprt ? (summary.decision == rating::SprtDecision::accept_h1   ? "H1 accepted"
                                      : summary.decision == rating::SprtDecision::accept_h0 ? "H0 accepted"
                                                                                            : "no SPRT bound reached")
                                   : fmt::format("LOS {:.3f}", summary.los);
    std::cout << fmt::format("match {} vs {}: {} ({}) after {} deal sets ({} games); exit {}\n", h.a.name, h.b.name,
                             ladder::to_string(verdict), why, summary.observations, summary.observations * h.seats,
                             ladder::exit_code(verdict));
    if (!h.files_root.empty())
        std::cout << fmt::format("match files: {}/{}\n", (h.files_root / h.tournament).string(),
                                 args.db.empty() ? std::string()
                                                 : fmt::format(" (arbiter matches --db {} --tournament {})", args.db,
                                                               h.tournament));
    if (ladder::exit_code(verdict) != 0) throw ExitStatus{ladder::exit_code(verdict)};
}

}  // namespace

void add_head_to_head_command(CLI::App& app) {
    auto args = std::make_shared<MatchArgs>();
    auto* m = app.add_subcommand(
        "match",
        "Head-to-head of two bots: deal sets played in all seat rotations until an SPRT decides or --games run out "
        "(exit 0 better, 3 inconclusive, 4 worse)");
    m->add_option("A", args->a, "The bot under test: name=N cmd=\"...\" (the bot spec of --bot)")->required();
    m->add_option("B", args->b, "The bot it is measured against")->required();
    m->add_option("--game", args->game, "Game name (arbiter games)")->required();
    m->add_option("--games", args->games, "Most games to play (rounded up to whole deal sets)")->required();
    m->add_option("--sprt", args->sprt,
                  "Stop at a bound: elo0=E0 elo1=E1 alpha=A beta=B model=normalized|logistic|bayesian (fastchess's "
                  "string; defaults 0 5 0.05 0.05 normalized: elo in nElo)")
        ->expected(1, 5);
    m->add_option("--set", args->sets, "Game option KEY=VALUE (repeatable)");
    m->add_option("--seed", args->seed, "Seed of the deal sets (default 1)")->check(unsigned_integer());
    m->add_option("--players", args->players, "Seats per match, even: A and B alternate (default 2)");
    m->add_option("-j,--jobs", args->jobs, "Matches played at once (default: number of cores)");
    m->add_option("--db", args->db, "SQLite results file: store the matches, and resume a rerun (default: none)");
    m->add_option("--out", args->out,
                  "Folder for each match's record, replay, transcript and stderr logs (default: beside --db, none "
                  "without it)");
    m->add_option("--memory-mib", args->memory_mib, "Memory limit per bot in MiB (0 = none)")->check(memory_mib_range());
    add_confinement_flags(m, args->confinement);
    m->add_flag("--no-progress", args->no_progress, "No progress line");
    m->add_flag("--no-preflight", args->no_preflight,
                "Skip the pre-flight (each bot started once and taken through the game's set-up first)");
    m->footer(
        "Each deal set is played once per rotation of the seats, with A and B alternating (A, B, A, B, ...): a game of\n"
        "two seats plays every deal twice, sides swapped; --players 4 (a four-seat game) seats two copies of each bot\n"
        "(the second as <name>#2) and plays four rotations. One deal set is one observation: A's mean pairwise score\n"
        "against B over its games. --sprt (or fastchess's -sprt) takes the KEY=VALUE words that follow it.\n"
        "With --sprt the run stops when the log-likelihood ratio of H1 (A is elo1 stronger) against H0 (A is elo0\n"
        "stronger) leaves (ln(beta/(1-alpha)), ln((1-beta)/alpha)): better (exit 0) when H1 is accepted, worse (4)\n"
        "when H0 is (A is at most about elo0 stronger: with elo0=0, worse or equal), inconclusive (3) when --games\n"
        "ran out first. Without --sprt all games are played and the\n"
        "verdict is read from the LOS (better at 0.95 or more, worse at 0.05 or less). With --db the matches are\n"
        "stored as tournament match-<A>-<B>-<seed>, and the same command run again resumes. Each match leaves\n"
        "its folder d<set>-s<rotation> (record.json, replay, transcript, logs/) under --out, or beside the --db file.\n\n"
        "Example:\n"
        "  arbiter match \"name=new cmd=./new_bot\" \"name=old cmd=./old_bot\" --game " + example_game().name +
        " --games 400 \\\n"
        "      -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 model=normalized");
    m->callback([args] { run_match_command(*args); });
}

}  // namespace arb::cli
