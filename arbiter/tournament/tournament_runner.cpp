#include "arbiter/tournament/tournament_runner.hpp"

#include "arbiter/tournament/live_matches.hpp"

#include <malloc.h>

#include <chrono>
#include <deque>
#include <exception>
#include <set>
#include <filesystem>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "core/user_error.hpp"
#include "arbiter/match/match_files.hpp"
#include "arbiter/match/match_runner.hpp"
#include "arbiter/tournament/play_and_store.hpp"
#include "arbiter/tournament/progress.hpp"
#include "arbiter/tournament/worker_pool.hpp"

namespace arb::tournament {
namespace {

constexpr int kPageCacheKib = 256;

// Mean pairwise score per bot, for the progress line's "leader" (cheap, no fit).
class PairScores {
public:
    void add(const MatchRecord& r) {
        for (const auto& p : r.pairs) {
            if (p.a < 0 || p.b < 0 || p.a >= static_cast<int>(r.participants.size()) ||
                p.b >= static_cast<int>(r.participants.size()))
                continue;
            auto& a = scores_[r.participants[p.a].bot];
            auto& b = scores_[r.participants[p.b].bot];
            a.first += p.score_a, a.second += 1;
            b.first += 1 - p.score_a, b.second += 1;
        }
    }
    std::string leader() const {
        std::string best;
        double best_score = -1;
        for (const auto& [bot, s] : scores_) {
            const double mean = s.first / s.second;
            if (mean > best_score) best = bot, best_score = mean;
        }
        return best.empty() ? "" : fmt::format("{} {:.0f}% of pairs", best, 100 * best_score);
    }

private:
    std::map<std::string, std::pair<double, double>> scores_;
};

}  // namespace

void add_faults(std::map<std::string, BotFaults>& faults, const MatchRecord& record) {
    for (const auto& p : record.participants) {
        auto& f = faults[p.bot];
        ++f.matches;
        switch (p.status) {
            case SeatStatus::ok: break;
            case SeatStatus::crashed: ++f.crashed; break;
            case SeatStatus::timeout: ++f.timeout; break;
            case SeatStatus::illegal: ++f.illegal; break;
            case SeatStatus::killed: ++f.killed; break;
            case SeatStatus::forfeited: ++f.forfeited; break;
        }
    }
}

namespace {

std::size_t failed_seat_count(const MatchRecord& record) {
    std::size_t n = 0;
    for (const auto& p : record.participants) n += p.status != SeatStatus::ok && p.status != SeatStatus::forfeited;
    return n;
}

}  // namespace

// Results come in any order: the kept matches are put in schedule order, and the last is dropped
// while the others hold enough failed seats without it.
void FailedSeats::add(const ScheduledMatch& match, const MatchRecord& record) {
    const std::size_t count = failed_seat_count(record);
    if (count == 0) return;
    seats += count;
    const auto at = std::upper_bound(first.begin(), first.end(), position_of(match), [](const SchedulePosition& p, const PlayedMatch& m) {
        return p < position_of(m.scheduled);
    });
    if (at == first.end() && !first.empty()) {
        std::size_t kept = 0;
        for (const auto& m : first) kept += failed_seat_count(m.record);
        if (kept >= kFailedSeatsKept) return;
    }
    first.insert(at, PlayedMatch{match, record});
    while (first.size() > 1) {
        std::size_t before_last = 0;
        for (std::size_t i = 0; i + 1 < first.size(); ++i) before_last += failed_seat_count(first[i].record);
        if (before_last < kFailedSeatsKept) break;
        first.pop_back();
    }
}

std::string ratings_table_text(const HistoryTally& tally) {
    if (tally.empty()) return "";
    const auto history = tally.history();
    if (history.results.empty()) return "";
    return rating::format_ratings_table(rating::rate(history.results, tournament_elo_options()));
}

TournamentRunner::TournamentRunner(TournamentConfig config, const GameDescriptor& game, rating::Store& store,
                                   MatchFunction play, RatingFit fit, RunnerOptions options)
    : config_(std::move(config)), game_(game), store_(store), play_(std::move(play)), fit_(std::move(fit)),
      options_(options) {
    for (const auto& b : participants_of(config_)) specs_.emplace(b.name, b);
    check_game_options(config_, game_.name, game_.options);
    game_options_ = GameOptions(game_.options, config_.options_with_map(config_.first_map()));
    // Every match leaves its folder under --out, else beside a database that is a file.
    if (!config_.out_dir.empty()) files_root_ = std::filesystem::absolute(config_.out_dir);
    else if (rating::is_file_database(store.path())) files_root_ = default_files_root(store.path());
    options_.jobs = std::max(1, options_.jobs);
}

MatchRequest TournamentRunner::request_for(const ScheduledMatch& m, bool with_files) const {
    MatchRequest r;
    r.game = config_.game;
    for (const auto& name : m.bots) r.bots.push_back(specs_.at(name));
    r.seed = m.seed;
    r.deal_set = m.deal_set;
    r.rotation = m.seating;
    // A pool's map is the schedule's (planned from the seed and stored), never chosen here.
    r.options = m.map.empty() ? game_options_ : GameOptions(game_.options, config_.options_with_map(m.map));
    r.limits.memory_mib = config_.memory_mib;
    config_.confine(r.limits);
    r.freeze_idle = config_.freeze_idle;
    if (with_files && !files_root_.empty())
        direct_files_into(r, game_, files_root_ / config_.name / match_folder_name(m.round, m.group, m.seating),
                          config_.out_dir.empty() ? "--db" : "--out");
    return r;
}

namespace {

// One run of the tournament: the planner, the worker pool, and the steps that plan rounds, hand
// out matches and store what comes back. What it keeps of the stored results is aggregate (the
// pairwise tally, fault counts and streaks, per-round counts of open matches), so its memory does
// not grow with the number of matches played; the results themselves are in the store.
class TournamentRun {
public:
    TournamentRun(const TournamentRunner& runner, const TournamentConfig& config, TournamentStore& store,
                  const RatingFit& fit, const RunnerOptions& options, const MatchFunction& play,
                  std::filesystem::path live_dir);
    TournamentOutcome run();

private:
    void warn_if_busy() const;
    std::vector<ScheduledMatch> load_stored();
    void plan_upfront();
    void schedule_loop();
    bool try_plan_next();
    bool more_to_plan() const;
    bool budget_over() const;
    bool rounds_before_complete(int round) const;
    void enqueue(const ScheduledMatch& match);
    void dispatch();
    void report_live(const ScheduledMatch& match, const MatchRecord& record);
    void plan_and_store(const std::vector<int>& indices);
    void add_stored(const ScheduledMatch& match, const MatchRecord& record);
    void take(Completion& completion);
    void request_stop();
    ProgressState progress_state() const;
    void fill_outcome();

    const TournamentRunner& runner_;
    const std::filesystem::path live_dir_;  // where running matches' live files go ("" = none)
    const TournamentConfig& config_;
    TournamentStore& store_;
    const RunnerOptions& options_;
    const std::string& name_;
    const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    std::unique_ptr<RoundPlanner> planner_;
    std::map<int, int> open_in_round_;  // scheduled matches without a result, by round (none: absent)
    FaultStreaks streaks_;
    int next_round_ = 0;
    PlayAndStore pool_;
    ProgressDisplay progress_;
    PairScores scores_;
    std::deque<Job> pending_;      // scheduled, waiting for their forfeit decision (schedule order)
    int faults_ = 0;               // seats with a fault in the stored results
    int total_matches_ = 0;        // of every round, with a fixed number of rounds (0 otherwise)
    std::exception_ptr fatal_;
    bool stopped_ = false;
    TournamentOutcome outcome_;
};

TournamentRun::TournamentRun(const TournamentRunner& runner, const TournamentConfig& config, TournamentStore& store,
                             const RatingFit& fit, const RunnerOptions& options, const MatchFunction& play,
                             std::filesystem::path live_dir)
    : runner_(runner), live_dir_(std::move(live_dir)), config_(config), store_(store), options_(options), name_(config.name),
      planner_(make_planner(config, fit)), streaks_(options.forfeits.max_faults),
      pool_(options.plan_only ? 0 : options.jobs, play, options.stop_requested, [this](Completion& c) { take(c); }),
      progress_(options.progress_out ? options.progress_out : stderr, options.progress_on_terminal,
                options.progress_log_interval_s) {
    outcome_.participants = planner_->participants();
    outcome_.history = HistoryTally(outcome_.participants);
    if (config_.rounds)
        for (int r = 0; r < *config_.rounds; ++r) total_matches_ += planner_->matches_in_round(r);
}

TournamentOutcome TournamentRun::run() {
    if (!options_.plan_only) warn_if_busy();
    // Results are written one by one and read back one batch at a time: a small page cache does,
    // and it keeps the arbiter's memory from growing with the file.
    store_.store().limit_page_cache(kPageCacheKib);
    store_.open_tournament(name_, config_.game, config_.identity_json());
    store_.claim(name_);
    if (!live_dir_.empty()) clear_live_files(live_dir_);  // a killed run's; the claim makes them ours
    struct Release {
        TournamentStore& s;
        const std::string& n;
        ~Release() {
            try {
                s.release(n);
            } catch (...) {
            }
        }
    } release{store_, name_};

    // Resume: the stored schedule's unplayed matches first, in schedule order.
    for (const ScheduledMatch& m : load_stored()) enqueue(m);
    plan_upfront();
    schedule_loop();
    pool_.close();
    if (options_.stop_requested && options_.stop_requested()) outcome_.interrupted = true;
    if (options_.progress_out) progress_.finish(progress_state());
    if (fatal_) std::rethrow_exception(fatal_);
    fill_outcome();
    return std::move(outcome_);
}

// Measured before any match of ours starts, so the tournament's own workers are never the load
// warned about; only what other programs use now, with the -j matches added, is compared to
// the cores.
void TournamentRun::warn_if_busy() const {
    const int cores = core_count();
    if (options_.jobs > cores) {
        spdlog::warn("-j {} is more than the {} cores: bots will share CPUs and their timing is not trustworthy "
                     "(each match records the load it ran under)",
                     options_.jobs, cores);
        return;
    }
    const double busy = busy_cores_now();
    if (load_threatens_timing(busy, options_.jobs, cores)) {
        spdlog::warn("the machine is already busy (other programs use {:.1f} of {} cores): with -j {} bots may time "
                     "out for reasons of their own; each match records the load it ran under",
                     busy, cores, options_.jobs);
    }
}

// The stored schedule's size and its results, read back one at a time into the aggregates.
// Returns the scheduled matches without a result, in schedule order.
std::vector<ScheduledMatch> TournamentRun::load_stored() {
    for (const auto& [index, count] : store_.round_sizes(name_)) {
        if (index != next_round_)
            throw std::runtime_error(fmt::format("tournament '{}': round {} missing in the store", name_, next_round_));
        ++next_round_;
        outcome_.scheduled += count;
    }
    std::vector<ScheduledMatch> unplayed = store_.unplayed(name_);
    for (const ScheduledMatch& m : unplayed) {
        ++open_in_round_[m.round];
        streaks_.open(m);
    }
    store_.for_each_result(name_, [&](const ScheduledMatch& m, const MatchRecord& record) { add_stored(m, record); });
    outcome_.already_played = outcome_.stored;
    if (next_round_ > 0 && !options_.plan_only)
        spdlog::info("tournament '{}': resuming, {} of {} scheduled matches already played", name_, outcome_.stored,
                     outcome_.scheduled);
    return unplayed;
}

// A fixed number of rounds: store every round that does not depend on results now.
void TournamentRun::plan_upfront() {
    if (!config_.rounds) return;
    std::vector<int> upfront;
    for (int r = next_round_; r < *config_.rounds && planner_->independent(r); ++r) upfront.push_back(r);
    next_round_ += static_cast<int>(upfront.size());
    if (!upfront.empty()) plan_and_store(upfront);
}

// Plans rounds as they may be planned, hands their matches to the pool and stores every result,
// until nothing is left to run or plan.
void TournamentRun::schedule_loop() {
    while (true) {
        if (!stopped_ && options_.stop_requested && options_.stop_requested()) {
            stopped_ = true;
            outcome_.interrupted = true;
            pool_.stop_taking();
        }
        dispatch();
        if (try_plan_next()) continue;
        if (pool_.store_next() == 0) {
            // Nothing left to run; stop unless a match waits or a round can still be planned.
            if (pool_.running() == 0 && pool_.queued() == 0 && (pending_.empty() || stopped_ || fatal_) &&
                !(more_to_plan() && rounds_before_complete(next_round_)))
                break;
            continue;
        }
        if (options_.progress_out) progress_.update(progress_state());
    }
}

// Hands the waiting matches to the pool in schedule order while their forfeit decision is known
// (so they are stored in schedule order too); a forfeited match goes in with its result. When
// nothing runs, the first waiting match is decided by definition (everything scheduled before it
// is stored or could not be played).
void TournamentRun::dispatch() {
    if (stopped_ || fatal_) return;
    while (!pending_.empty()) {
        const auto forfeiting = forfeiting_bots(options_.forfeits, pending_.front().match, streaks_);
        if (!forfeiting) return;
        Job job = std::move(pending_.front());
        pending_.pop_front();
        if (forfeiting->empty()) {
            pool_.play(std::move(job));
            continue;
        }
        Completion c;
        c.match = job.match;
        c.record = forfeit_record(options_.forfeits, job.request, *forfeiting);
        c.load = LoadNote{utc_timestamp_now(), 0, options_.jobs, core_count(), 0};
        pool_.finished(std::move(c));
    }
}

// Plans the next round when it may be planned: independent rounds one ahead of the workers,
// dependent rounds once every earlier round has its results.
bool TournamentRun::try_plan_next() {
    if (!more_to_plan()) return false;
    // Planning only, nothing runs meanwhile: an independent round also waits for the results
    // of the rounds before it, so that each plan hands out one round of work at a time.
    const bool ready = planner_->independent(next_round_) && !options_.plan_only
                           ? pool_.queued() + pending_.size() < static_cast<std::size_t>(options_.jobs)
                           : pool_.queued() == 0 && pending_.empty() && pool_.running() == 0 &&
                                 rounds_before_complete(next_round_);
    if (!ready) return false;
    plan_and_store({next_round_});
    ++next_round_;
    return true;
}

bool TournamentRun::more_to_plan() const {
    return !stopped_ && !fatal_ && (!config_.rounds || next_round_ < *config_.rounds) && !budget_over();
}

bool TournamentRun::budget_over() const {
    return config_.time_budget_s &&
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() >= *config_.time_budget_s;
}

bool TournamentRun::rounds_before_complete(int round) const {
    return open_in_round_.empty() || open_in_round_.begin()->first >= round;
}

void TournamentRun::enqueue(const ScheduledMatch& m) {
    if (options_.plan_only) outcome_.to_play.push_back(Job{m, runner_.request_for(m, false)});
    else pending_.push_back(Job{m, runner_.request_for(m)});
}

void TournamentRun::plan_and_store(const std::vector<int>& indices) {
    std::vector<Round> planned;
    for (int r : indices) {
        // A dependent round is planned once every round before it has all its results, and no
        // later round is planned yet: the stored results are exactly the rounds before it.
        History h = planner_->independent(r) ? History{planner_->participants(), {}, {}} : outcome_.history.history();
        if (h.results.players().empty())
            for (const auto& p : planner_->participants()) h.results.player_index(p);
        planned.push_back(planner_->plan(r, h));
    }
    store_.store_rounds(name_, planned);  // stored before any of their matches starts
    for (const Round& r : planned) {
        outcome_.scheduled += static_cast<int>(r.matches.size());
        for (const ScheduledMatch& m : r.matches) {
            ++open_in_round_[m.round];
            streaks_.open(m);
            enqueue(m);
        }
    }
}

// A stored result (found in the store or stored now) into the aggregates.
void TournamentRun::add_stored(const ScheduledMatch& match, const MatchRecord& record) {
    ++outcome_.stored;
    outcome_.history.add(match, record);
    outcome_.failed_seats.add(match, record);
    add_faults(outcome_.faults, record);
    streaks_.stored(match, record);
    scores_.add(record);
    for (const auto& p : record.participants) faults_ += p.status != SeatStatus::ok;
}

// Stores a finished match, or reports why it could not be played: a UserError stops the
// tournament, any other error leaves the match in the schedule for the next run.
void TournamentRun::take(Completion& c) {
    if (c.record) {
        store_.store_result(name_, c.match, *c.record, c.load);
        add_stored(c.match, *c.record);
        if (auto it = open_in_round_.find(c.match.round); it != open_in_round_.end() && --it->second == 0)
            open_in_round_.erase(it);
        ++outcome_.played_this_run;
        report_live(c.match, *c.record);
        c.record.reset();
        // A finished match leaves freed memory in the heaps of the worker threads (its table,
        // the game's state, the bots' replies); handing it back keeps the resident set from
        // creeping up with the number of matches.
        ::malloc_trim(0);
        if (options_.stop_after_matches && outcome_.played_this_run >= *options_.stop_after_matches) {
            stopped_ = true;
            pool_.stop_taking();
        }
        return;
    }
    try {
        std::rethrow_exception(c.error);
    } catch (const UserError& e) {
        if (!fatal_) spdlog::error("match {}: {}", c.match.key, e.what());
        if (!fatal_) fatal_ = c.error;
        pool_.stop_taking();
    } catch (const std::exception& e) {
        spdlog::error("match {} could not be played: {} (it stays in the schedule; run again to retry)", c.match.key,
                      e.what());
        ++outcome_.failed;
        streaks_.skip(c.match);
    }
}

// The finished-match line and, every rating_interval stored results, the ratings table.
void TournamentRun::report_live(const ScheduledMatch& match, const MatchRecord& record) {
    if (!options_.live_out) return;
    const int done = outcome_.stored;
    const auto total = progress_state().total;
    std::string text = finished_match_line(done, total, match, record);
    if (options_.rating_interval > 0 && done % options_.rating_interval == 0) {
        const std::string table = ratings_table_text(outcome_.history);
        if (!table.empty())
            text += fmt::format("Ratings after {}{} matches:\n{}", done, total ? fmt::format(" of {}", *total) : "",
                                table);
    }
    progress_.line(options_.live_out, text);
}

ProgressState TournamentRun::progress_state() const {
    ProgressState s;
    s.done = outcome_.stored;
    s.total = total_matches_;
    s.done_this_run = outcome_.played_this_run;
    s.failed = outcome_.failed;
    s.faults = faults_;
    s.leader = scores_.leader();
    if (config_.time_budget_s)
        s.budget_left_s =
            *config_.time_budget_s - std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    return s;
}

// The last step of a run: whether the tournament is complete.
void TournamentRun::fill_outcome() {
    const std::optional<int> limit = config_.rounds;
    outcome_.complete = outcome_.scheduled == outcome_.stored && (limit ? next_round_ >= *limit : true) &&
                        (!stopped_ || outcome_.interrupted);
    outcome_.budget_reached = budget_over();
    if (outcome_.budget_reached && !stopped_ && outcome_.scheduled == outcome_.stored)
        outcome_.complete = true;  // a time-budgeted tournament ends with its last whole round
    outcome_.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

}  // namespace

TournamentOutcome TournamentRunner::run() {
    if (files_root_.empty() || options_.plan_only) return TournamentRun(*this, config_, store_, fit_, options_, play_, {}).run();
    const std::filesystem::path live = live_folder(files_root_ / config_.name);
    const MatchFunction play = with_live_files(play_, live);
    return TournamentRun(*this, config_, store_, fit_, options_, play, live).run();
}

}  // namespace arb::tournament
