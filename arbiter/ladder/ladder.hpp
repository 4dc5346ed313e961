#pragma once
// The nightly ladder: register a new version of a bot, play it against the
// pool until its rating interval is narrow enough or the game budget runs out, store a dated
// rating snapshot, and judge it against the previous version of the same bot by the
// likelihood of superiority (LOS), or with an SPRT (ladder setting "sprt", --sprt) by a sequential
// test of new against previous that ends the run at a bound: with an SPRT the previous version
// sits in every round's group, and each round (one deal set in all rotations) is one observation.
//
// Each ladder round puts the new bot with the pool bots that shrink Var(r_new - r_previous)
// the most (planowanie.md 5.3, the same 4x4 block formula as tournaments) and plays the group
// in all cyclic rotations on one deal set. Rounds are planned from stored results only, and
// results are keyed, so a killed ladder run resumes exactly when the command is run again.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "arbiter/tournament/tournament_config.hpp"
#include "arbiter/tournament/tournament_runner.hpp"
#include "rating/sprt.hpp"
#include "rating/bootstrap.hpp"
#include "rating/store.hpp"
#include "rules/game.hpp"

namespace arb::ladder {

enum class Verdict { better, worse, inconclusive, baseline, broken };
const char* to_string(Verdict verdict);

// Exit codes of `arbiter ladder` (documented in docs/tournaments.md): a CI job can fail on
// `worse` (4) and decide for itself about `inconclusive` (3).
int exit_code(Verdict verdict);
inline constexpr int kExitBetter = 0;
inline constexpr int kExitInconclusive = 3;
inline constexpr int kExitWorse = 4;
inline constexpr int kExitBaseline = 5;  // no previous version to compare with
inline constexpr int kExitBroken = 6;    // the new version faulted in every match, or failed the pre-flight

struct LadderRequest {
    tournament::TournamentConfig config;     // game, seed, players, pool (bots), options, ladder settings
    BotSpec new_bot;
    std::optional<std::string> previous;     // default: latest registered bot of the same family
    int jobs = 1;
    // Before its first ladder match the new bot goes through the tournament's pre-flight; a bot
    // that fails it is judged broken at once, without playing.
    bool preflight = false;
    // Polled between matches: once true, no new match starts; the run returns with
    // `interrupted` after storing the matches in progress, without a verdict or snapshot.
    std::function<bool()> stop_requested;
    // The interval of the stop rule and the LOS of the verdict: bayeselo's covariance, or the
    // bootstrap over ladder rounds (a round's rotations share the deal and the bots' luck).
    rating::IntervalSource intervals = rating::IntervalSource::bayeselo;
    rating::BootstrapOptions bootstrap;
};

struct LadderOutcome {
    std::string game;
    std::string bot;
    std::optional<std::string> previous;
    Verdict verdict = Verdict::inconclusive;
    double los = 0.5;                  // P(new > previous); 0.5 without a previous version
    double elo = 0, plus = 0, minus = 0;
    std::optional<double> previous_elo;
    int matches_this_run = 0;
    int matches_total = 0;             // of the new bot, over all its ladder runs
    int rounds = 0;
    int faults = 0;                    // the new bot's faulted matches
    bool interrupted = false;          // stop_requested ended the run; rerun to resume
    std::string stop_reason;           // "interval 43.2 <= 50", "game budget", ...
    std::int64_t snapshot_id = 0;
    std::string ratings_table;         // bayeselo-style table of the pool after the run
    // With an SPRT (config.ladder.sprt) and a previous version: the test of new against previous
    // over the rounds (deal sets) both played in, and its printed block.
    std::optional<rating::SprtParams> sprt_params;
    std::optional<rating::SprtSummary> sprt;
    std::string sprt_block;
    std::string intervals;             // "" for bayeselo's; else how the bootstrap ran

    std::string to_json() const;
    std::string to_text() const;
};

// The family of a versioned bot name: the name without a trailing version ("foo-1.3",
// "foo@v2", "foo_v7" -> "foo"). Names without a version are their own family.
std::string family_of(const std::string& name);

LadderOutcome run_ladder(const LadderRequest& request, const GameDescriptor& game, rating::Store& store,
                         const tournament::MatchFunction& play);

// The tournament name ladder matches are stored under.
std::string ladder_tournament(const std::string& game);

}  // namespace arb::ladder
