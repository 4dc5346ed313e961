#pragma once
// Plays a tournament: plans rounds, stores each round's schedule before any of its matches
// starts, runs matches on N worker threads, stores every result in one transaction keyed by
// its schedule key, and resumes exactly: a second run of the same config plays only the
// scheduled matches without a result, then continues planning from stored results.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "arbiter/tournament/forfeits.hpp"
#include "arbiter/tournament/history.hpp"
#include "arbiter/tournament/tournament_config.hpp"
#include "arbiter/tournament/tournament_store.hpp"
#include "arbiter/tournament/worker_pool.hpp"
#include "rules/game.hpp"

namespace arb::tournament {

struct RunnerOptions {
    int jobs = 1;
    std::FILE* progress_out = stderr;   // nullptr = no progress display
    bool progress_on_terminal = false;  // redraw one line instead of printing log lines
    double progress_log_interval_s = 10.0;
    // A line per finished match ("Finished match 7/32 r0/g1/s2: ...") and the ratings tables;
    // nullptr = none.
    std::FILE* live_out = nullptr;
    int rating_interval = 0;  // the ratings table after every N stored results (0 = never)
    ForfeitRule forfeits;     // --max-faults and the bots let in broken (--allow-broken)
    // Tests: stop handing out matches after this many were played in this run (a "kill").
    std::optional<int> stop_after_matches;
    // Polled while matches run: once true, no new match starts and the run ends after the
    // matches in progress are stored (Ctrl-C; arb::interrupt_requested in the CLI).
    std::function<bool()> stop_requested;
    // Plan only: store the rounds that can be scheduled now (the same rules as a run, but every
    // round waits for the results of the rounds before it) and return the scheduled matches
    // without a result in TournamentOutcome::to_play instead of playing them.
    bool plan_only = false;
};

struct BotFaults {
    int matches = 0;
    int crashed = 0, timeout = 0, illegal = 0, killed = 0, forfeited = 0;
    int faults() const { return crashed + timeout + illegal + killed + forfeited; }
};

// The seats that failed in the stored results (forfeits not counted: they never ran): how many,
// and the first matches in schedule order with one, as many as hold kFailedSeatsKept of them.
inline constexpr std::size_t kFailedSeatsKept = 20;
struct FailedSeats {
    std::size_t seats = 0;
    std::vector<PlayedMatch> first;
    void add(const ScheduledMatch& match, const MatchRecord& record);
};

// What a run leaves: counts and aggregates, never every result (a long tournament has many; the
// store has them all, TournamentStore::played reads them back).
struct TournamentOutcome {
    std::vector<std::string> participants;
    int stored = 0;                          // stored results of the schedule (earlier runs included)
    HistoryTally history;                    // the pairwise games of every stored result
    FailedSeats failed_seats;
    int scheduled = 0;                       // matches in the stored schedule
    int played_this_run = 0;
    int already_played = 0;                  // found in the store at start
    int failed = 0;                          // could not be played (exception), still unplayed
    bool complete = false;                   // every planned round played (and no more to plan)
    bool budget_reached = false;             // the time budget stopped the planning of rounds
    bool interrupted = false;                // stop_requested ended the run early
    std::map<std::string, BotFaults> faults; // by bot
    double wall_s = 0;
    std::vector<Job> to_play;                // plan_only: every scheduled match without a result
};

class TournamentRunner {
public:
    // `config` must be validated; `game` supplies the option specs.
    TournamentRunner(TournamentConfig config, const GameDescriptor& game, rating::Store& store, MatchFunction play,
                     RatingFit fit, RunnerOptions options);
    TournamentOutcome run();

    // The request for one scheduled match (bots in seat order, seeds, limits, and its files in
    // <files root>/<tournament>/r<round>-g<group>-s<seating>/, see arbiter/match/match_files.hpp).
    // with_files = false: no file paths (and no folders made), for a match job.
    MatchRequest request_for(const ScheduledMatch& match, bool with_files = true) const;

private:
    TournamentConfig config_;
    const GameDescriptor& game_;
    TournamentStore store_;
    MatchFunction play_;
    RatingFit fit_;
    RunnerOptions options_;
    std::map<std::string, BotSpec> specs_;
    GameOptions game_options_;
    std::filesystem::path files_root_;  // --out, or <db folder>/<db stem>-files; "" = no files
};

// Adds a record's seats to per-bot fault counts.
void add_faults(std::map<std::string, BotFaults>& faults, const MatchRecord& record);

// The ratings table printed at the end of a tournament (and every --rating-interval matches);
// "" before any result.
std::string ratings_table_text(const HistoryTally& history);

}  // namespace arb::tournament
