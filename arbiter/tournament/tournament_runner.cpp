#include "arbiter/tournament/tournament_runner.hpp"

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
#include "arbiter/tournament/progress.hpp"
#include "arbiter/tournament/worker_pool.hpp"

namespace arb::tournament {
namespace {

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

std::map<std::string, BotFaults> count_faults(const std::vector<PlayedMatch>& played) {
    std::map<std::string, BotFaults> out;
    for (const auto& m : played) {
        for (const auto& p : m.record.participants) {
            auto& f = out[p.bot];
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
    return out;
}

namespace {

std::string ratings_table_of(const std::vector<std::string>& participants, std::vector<const PlayedMatch*> played) {
    const auto history = build_history(participants, std::move(played));
    if (history.results.empty()) return "";
    return rating::format_ratings_table(rating::rate(history.results, tournament_elo_options()));
}

}  // namespace

std::string ratings_table_text(const std::vector<std::string>& participants, const std::vector<PlayedMatch>& played) {
    std::vector<const PlayedMatch*> pointers;
    pointers.reserve(played.size());
    for (const auto& p : played) pointers.push_back(&p);
    return ratings_table_of(participants, std::move(pointers));
}

TournamentRunner::TournamentRunner(TournamentConfig config, const GameDescriptor& game, rating::Store& store,
                                   MatchFunction play, RatingFit fit, RunnerOptions options)
    : config_(std::move(config)), game_(game), store_(store), play_(std::move(play)), fit_(std::move(fit)),
      options_(options) {
    for (const auto& b : participants_of(config_)) specs_.emplace(b.name, b);
    check_game_options(config_, game_.name, game_.options);
    game_options_ = GameOptions(game_.options, config_.options);
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
    r.options = game_options_;
    r.limits.memory_mib = config_.memory_mib;
    config_.confine(r.limits);
    r.freeze_idle = config_.freeze_idle;
    if (with_files && !files_root_.empty())
        direct_files_into(r, game_, files_root_ / config_.name / match_folder_name(m.round, m.group, m.seating),
                          config_.out_dir.empty() ? "--db" : "--out");
    return r;
}

namespace {

// One run of the tournament: the planner, the stored schedule and results, the worker pool, and
// the steps that plan rounds, hand out matches and store what comes back.
class TournamentRun {
public:
    TournamentRun(const TournamentRunner& runner, const TournamentConfig& config, TournamentStore& store,
                  const RatingFit& fit, const RunnerOptions& options, const MatchFunction& play);
    TournamentOutcome run();

private:
    void warn_if_busy() const;
    void load_stored();
    void plan_upfront();
    void schedule_loop();
    bool try_plan_next();
    bool more_to_plan() const;
    bool budget_over() const;
    bool rounds_before_complete(int round) const;
    History history_before(int round) const;
    void enqueue(const Round& round);
    void dispatch();
    void report_live(const ScheduledMatch& match, const MatchRecord& record);
    void plan_and_store(const std::vector<int>& indices);
    void take(Completion& completion);
    void request_stop();
    ProgressState progress_state() const;
    void fill_outcome();

    const TournamentRunner& runner_;
    const TournamentConfig& config_;
    TournamentStore& store_;
    const RunnerOptions& options_;
    const std::string& name_;
    const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    std::unique_ptr<RoundPlanner> planner_;
    std::map<int, Round> rounds_;
    std::map<std::string, PlayedMatch> played_;
    int next_round_ = 0;
    WorkerPool pool_;
    ProgressDisplay progress_;
    PairScores scores_;
    std::deque<Job> pending_;      // scheduled, waiting for their forfeit decision (schedule order)
    std::set<std::string> skipped_;  // could not be played in this run
    int faults_ = 0;               // seats with a fault in the stored results
    std::exception_ptr fatal_;
    bool stopped_ = false;
    TournamentOutcome outcome_;
};

TournamentRun::TournamentRun(const TournamentRunner& runner, const TournamentConfig& config, TournamentStore& store,
                             const RatingFit& fit, const RunnerOptions& options, const MatchFunction& play)
    : runner_(runner), config_(config), store_(store), options_(options), name_(config.name),
      planner_(make_planner(config, fit)), pool_(options.plan_only ? 0 : options.jobs, play, options.stop_requested),
      progress_(options.progress_out ? options.progress_out : stderr, options.progress_on_terminal,
                options.progress_log_interval_s) {
    outcome_.participants = planner_->participants();
}

TournamentOutcome TournamentRun::run() {
    if (!options_.plan_only) warn_if_busy();
    store_.open_tournament(name_, config_.game, config_.identity_json());
    store_.claim(name_);
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

    load_stored();
    // Resume: the stored schedule's unplayed matches first, in schedule order.
    for (const auto& [index, round] : rounds_) enqueue(round);
    plan_upfront();
    for (const auto& [key, pm] : played_) {
        scores_.add(pm.record);
        for (const auto& p : pm.record.participants) faults_ += p.status != SeatStatus::ok;
    }
    schedule_loop();
    pool_.close();
    if (options_.stop_requested && options_.stop_requested()) outcome_.interrupted = true;
    if (options_.progress_out) progress_.finish(progress_state());
    if (fatal_) std::rethrow_exception(fatal_);
    fill_outcome();
    return std::move(outcome_);  // the results are not copied: a long tournament holds many
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

// The stored schedule and the results already stored for it.
void TournamentRun::load_stored() {
    rounds_ = store_.stored_rounds(name_);
    auto results = store_.results(name_);
    std::size_t scheduled = 0;
    for (auto& [index, round] : rounds_) {
        if (index != next_round_)
            throw std::runtime_error(fmt::format("tournament '{}': round {} missing in the store", name_, next_round_));
        ++next_round_;
        scheduled += round.matches.size();
        for (auto& m : round.matches) {
            auto it = results.find(m.key);
            if (it != results.end()) played_.emplace(m.key, PlayedMatch{m, std::move(it->second)});
        }
    }
    outcome_.already_played = static_cast<int>(played_.size());
    if (!rounds_.empty() && !options_.plan_only)
        spdlog::info("tournament '{}': resuming, {} of {} scheduled matches already played", name_, played_.size(),
                     scheduled);
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
        std::vector<Completion> completions = pool_.wait();
        if (completions.empty()) {
            // Nothing left to run; stop unless a match waits or a round can still be planned.
            if (pool_.running() == 0 && pool_.queued() == 0 && (pending_.empty() || stopped_ || fatal_) &&
                !(more_to_plan() && rounds_before_complete(next_round_)))
                break;
            continue;
        }
        for (auto& c : completions) take(c);
        if (options_.progress_out) progress_.update(progress_state());
    }
}

// Hands the waiting matches whose forfeit decision is known to the pool, in schedule order;
// a forfeited match is stored at once. When nothing runs, the first waiting match is decided
// by definition (everything scheduled before it is stored or could not be played).
void TournamentRun::dispatch() {
    if (stopped_ || fatal_) return;
    for (auto it = pending_.begin(); it != pending_.end();) {
        const auto forfeiting = forfeiting_bots(options_.forfeits, it->match, rounds_, played_, skipped_);
        if (!forfeiting) {
            ++it;
            continue;
        }
        Job job = std::move(*it);
        it = pending_.erase(it);
        if (forfeiting->empty()) {
            pool_.push(std::move(job));
            continue;
        }
        Completion c;
        c.match = job.match;
        c.record = forfeit_record(options_.forfeits, job.request, *forfeiting);
        c.load = LoadNote{utc_timestamp_now(), 0, options_.jobs, core_count(), 0};
        take(c);
        if (stopped_) return;
        it = pending_.begin();  // a new result may decide matches passed over
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
    for (int r = 0; r < round; ++r)
        for (const auto& m : rounds_.at(r).matches)
            if (!played_.count(m.key)) return false;
    return true;
}

History TournamentRun::history_before(int round) const {
    std::vector<const PlayedMatch*> earlier;
    for (const auto& [key, pm] : played_)
        if (pm.scheduled.round < round) earlier.push_back(&pm);
    return build_history(planner_->participants(), earlier);
}

void TournamentRun::enqueue(const Round& round) {
    for (const auto& m : round.matches) {
        if (played_.count(m.key)) continue;
        if (options_.plan_only) outcome_.to_play.push_back(Job{m, runner_.request_for(m, false)});
        else pending_.push_back(Job{m, runner_.request_for(m)});
    }
}

void TournamentRun::plan_and_store(const std::vector<int>& indices) {
    std::vector<Round> planned;
    for (int r : indices) {
        History h = planner_->independent(r) ? History{planner_->participants(), {}, {}} : history_before(r);
        if (h.results.players().empty())
            for (const auto& p : planner_->participants()) h.results.player_index(p);
        planned.push_back(planner_->plan(r, h));
    }
    store_.store_rounds(name_, planned);  // stored before any of their matches starts
    for (auto& r : planned) {
        rounds_[r.index] = r;
        enqueue(r);
    }
}

// Stores a finished match, or reports why it could not be played: a UserError stops the
// tournament, any other error leaves the match in the schedule for the next run.
void TournamentRun::take(Completion& c) {
    if (c.record) {
        store_.store_result(name_, c.match, *c.record, c.load);
        scores_.add(*c.record);
        for (const auto& p : c.record->participants) faults_ += p.status != SeatStatus::ok;
        const auto& stored = played_.emplace(c.match.key, PlayedMatch{c.match, std::move(*c.record)}).first->second;
        ++outcome_.played_this_run;
        report_live(stored.scheduled, stored.record);
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
        skipped_.insert(c.match.key);
    }
}

// The finished-match line and, every rating_interval stored results, the ratings table.
void TournamentRun::report_live(const ScheduledMatch& match, const MatchRecord& record) {
    if (!options_.live_out) return;
    const int done = static_cast<int>(played_.size());
    const auto total = progress_state().total;
    std::string text = finished_match_line(done, total, match, record);
    if (options_.rating_interval > 0 && done % options_.rating_interval == 0) {
        std::vector<const PlayedMatch*> all;
        all.reserve(played_.size());
        for (const auto& [key, pm] : played_) all.push_back(&pm);
        const std::string table = ratings_table_of(outcome_.participants, std::move(all));
        if (!table.empty())
            text += fmt::format("Ratings after {}{} matches:\n{}", done, total ? fmt::format(" of {}", *total) : "",
                                table);
    }
    progress_.line(options_.live_out, text);
}

ProgressState TournamentRun::progress_state() const {
    ProgressState s;
    s.done = static_cast<int>(played_.size());
    if (config_.rounds) s.total = *config_.rounds * planner_->matches_per_round();
    s.done_this_run = outcome_.played_this_run;
    s.failed = outcome_.failed;
    s.faults = faults_;
    s.leader = scores_.leader();
    if (config_.time_budget_s)
        s.budget_left_s =
            *config_.time_budget_s - std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    return s;
}

// The last step of a run: the results move into the outcome.
void TournamentRun::fill_outcome() {
    outcome_.played.reserve(played_.size());
    for (auto& [key, pm] : played_) outcome_.played.push_back(std::move(pm));
    played_.clear();
    std::sort(outcome_.played.begin(), outcome_.played.end(), [](const PlayedMatch& a, const PlayedMatch& b) {
        return std::tie(a.scheduled.round, a.scheduled.group, a.scheduled.seating) <
               std::tie(b.scheduled.round, b.scheduled.group, b.scheduled.seating);
    });
    for (const auto& [i, r] : rounds_) outcome_.scheduled += static_cast<int>(r.matches.size());
    const std::optional<int> limit = config_.rounds;
    outcome_.complete = outcome_.scheduled == static_cast<int>(outcome_.played.size()) &&
                        (limit ? next_round_ >= *limit : true) && (!stopped_ || outcome_.interrupted);
    outcome_.budget_reached = budget_over();
    if (outcome_.budget_reached && !stopped_ && outcome_.scheduled == static_cast<int>(outcome_.played.size()))
        outcome_.complete = true;  // a time-budgeted tournament ends with its last whole round
    outcome_.faults = count_faults(outcome_.played);
    outcome_.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

}  // namespace

TournamentOutcome TournamentRunner::run() {
    return TournamentRun(*this, config_, store_, fit_, options_, play_).run();
}

}  // namespace arb::tournament
