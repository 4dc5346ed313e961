#include "arbiter/tournament/tournament_runner.hpp"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <filesystem>
#include <mutex>
#include <thread>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "core/user_error.hpp"
#include "arbiter/match/match_runner.hpp"
#include "arbiter/tournament/progress.hpp"

namespace arb::tournament {
namespace {

struct Job {
    ScheduledMatch match;
    MatchRequest request;
};

struct Completion {
    ScheduledMatch match;
    std::optional<MatchRecord> record;
    std::exception_ptr error;
    LoadNote load;
};

int core_count() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

// N threads, each playing whole matches; the main thread alone touches the store.
class WorkerPool {
public:
    WorkerPool(int threads, const MatchFunction& play, std::function<bool()> stop_requested)
        : play_(play), jobs_(threads), stop_requested_(std::move(stop_requested)) {
        for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
    }
    ~WorkerPool() { close(); }

    void push(Job job) {
        {
            std::lock_guard lock(mutex_);
            queue_.push_back(std::move(job));
        }
        work_cv_.notify_one();
    }
    // No more matches are handed out; running ones finish.
    void stop_taking() {
        std::lock_guard lock(mutex_);
        stop_taking_ = true;
    }
    std::size_t queued() {
        std::lock_guard lock(mutex_);
        return stop_taking_ ? 0 : queue_.size();
    }
    int running() {
        std::lock_guard lock(mutex_);
        return running_;
    }
    // Waits until a completion is available or nothing is running or queued; returns all ready.
    // A stop request is polled a few times a second (it comes from a signal handler).
    std::vector<Completion> wait() {
        std::unique_lock lock(mutex_);
        auto ready = [&] { return !done_.empty() || (running_ == 0 && (queue_.empty() || stop_taking_)); };
        while (!ready()) {
            done_cv_.wait_for(lock, std::chrono::milliseconds(100), ready);
            if (!stop_taking_ && stop_requested_ && stop_requested_()) stop_taking_ = true;
        }
        std::vector<Completion> out(std::make_move_iterator(done_.begin()), std::make_move_iterator(done_.end()));
        done_.clear();
        return out;
    }
    void close() {
        {
            std::lock_guard lock(mutex_);
            closing_ = true;
        }
        work_cv_.notify_all();
        for (auto& t : threads_)
            if (t.joinable()) t.join();
    }

private:
    void work() {
        std::unique_lock lock(mutex_);
        while (true) {
            work_cv_.wait(lock, [&] { return closing_ || (!stop_taking_ && !queue_.empty()); });
            if (!stop_taking_ && stop_requested_ && stop_requested_()) {
                stop_taking_ = true;
                done_cv_.notify_all();
            }
            if (stop_taking_ || queue_.empty()) {
                if (closing_) return;
                continue;
            }
            Job job = std::move(queue_.front());
            queue_.pop_front();
            ++running_;
            Completion c;
            c.match = std::move(job.match);
            c.load = LoadNote{utc_timestamp_now(), running_, jobs_, core_count(), machine_load_now()};
            lock.unlock();
            try {
                c.record = play_(job.request);
            } catch (...) {
                c.error = std::current_exception();
            }
            lock.lock();
            --running_;
            done_.push_back(std::move(c));
            done_cv_.notify_all();
        }
    }

    const MatchFunction& play_;
    const int jobs_;
    const std::function<bool()> stop_requested_;
    std::mutex mutex_;
    std::condition_variable work_cv_, done_cv_;
    std::deque<Job> queue_;
    std::deque<Completion> done_;
    bool closing_ = false;
    bool stop_taking_ = false;
    int running_ = 0;
    std::vector<std::thread> threads_;
};

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

std::string stem_of(const ScheduledMatch& m) { return fmt::format("r{}-g{}-s{}", m.round, m.group, m.seating); }

}  // namespace

std::vector<ConcurrentResult> play_concurrently(const std::vector<MatchRequest>& requests, int jobs,
                                                const MatchFunction& play, const std::function<bool()>& stop_requested) {
    std::vector<ConcurrentResult> out(requests.size());
    std::mutex mutex;
    std::size_t next = 0;
    int running = 0;
    auto work = [&] {
        while (true) {
            std::size_t i;
            LoadNote note;
            {
                std::lock_guard lock(mutex);
                if (next >= requests.size()) return;
                if (stop_requested && stop_requested()) return;
                i = next++;
                ++running;
                note = LoadNote{utc_timestamp_now(), running, jobs, core_count(), machine_load_now()};
            }
            out[i].load = note;
            try {
                out[i].record = play(requests[i]);
            } catch (...) {
                out[i].error = std::current_exception();
            }
            std::lock_guard lock(mutex);
            --running;
        }
    };
    std::vector<std::thread> threads;
    const int n = std::max(1, std::min<int>(jobs, static_cast<int>(requests.size())));
    for (int t = 1; t < n; ++t) threads.emplace_back(work);
    work();
    for (auto& t : threads) t.join();
    return out;
}

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
            }
        }
    }
    return out;
}

TournamentRunner::TournamentRunner(TournamentConfig config, const GameDescriptor& game, rating::Store& store,
                                   MatchFunction play, RatingFit fit, RunnerOptions options)
    : config_(std::move(config)), game_(game), store_(store), play_(std::move(play)), fit_(std::move(fit)),
      options_(options) {
    for (const auto& b : participants_of(config_)) specs_.emplace(b.name, b);
    for (const auto& [key, value] : config_.options) {
        const bool known = std::any_of(game_.options.begin(), game_.options.end(),
                                       [&](const GameOptionSpec& s) { return s.key == key; });
        if (!known) {
            auto at = config_.option_locations.find(key);
            throw UserError(fmt::format("{}unknown option '{}' for game '{}'",
                                        at == config_.option_locations.end() ? "" : at->second + ": ", key, game_.name));
        }
    }
    game_options_ = GameOptions(game_.options, config_.options);
    options_.jobs = std::max(1, options_.jobs);
}

MatchRequest TournamentRunner::request_for(const ScheduledMatch& m) const {
    MatchRequest r;
    r.game = config_.game;
    for (const auto& name : m.bots) r.bots.push_back(specs_.at(name));
    r.seed = m.seed;
    r.deal_set = m.deal_set;
    r.rotation = m.seating;
    r.options = game_options_;
    r.limits.memory_mib = config_.memory_mib;
    r.freeze_idle = config_.freeze_idle;
    if (!config_.out_dir.empty()) {
        const std::filesystem::path out = config_.out_dir;
        std::filesystem::create_directories(out / "transcripts");
        r.transcript_path = out / "transcripts" / (stem_of(m) + ".transcript");
        r.log_dir = out / "logs" / stem_of(m);
        std::filesystem::create_directories(r.log_dir);
    }
    return r;
}

TournamentOutcome TournamentRunner::run() {
    const auto start = std::chrono::steady_clock::now();
    const std::string& name = config_.name;
    auto planner = make_planner(config_, fit_);
    TournamentOutcome outcome;
    outcome.participants = planner->participants();

    const int cores = core_count();
    if (options_.jobs > cores) {
        spdlog::warn("-j {} is more than the {} cores: bots will share CPUs and their timing is not trustworthy "
                     "(each match records the load it ran under)",
                     options_.jobs, cores);
    } else if (machine_load_now() * cores + options_.jobs > cores + 0.5) {
        spdlog::warn("the machine is already busy (load {:.2f} per core): with -j {} bots may time out for reasons "
                     "of their own; each match records the load it ran under",
                     machine_load_now(), options_.jobs);
    }

    store_.open_tournament(name, config_.game, config_.identity_json());
    store_.claim(name);
    struct Release {
        TournamentStore& s;
        const std::string& n;
        ~Release() {
            try {
                s.release(n);
            } catch (...) {
            }
        }
    } release{store_, name};

    std::map<int, Round> rounds = store_.stored_rounds(name);
    std::map<std::string, PlayedMatch> played;
    {
        auto results = store_.results(name);
        for (auto& [index, round] : rounds) {
            for (auto& m : round.matches) {
                auto it = results.find(m.key);
                if (it != results.end()) played.emplace(m.key, PlayedMatch{m, std::move(it->second)});
            }
        }
    }
    int next_round = 0;
    for (const auto& [index, round] : rounds) {
        if (index != next_round) throw std::runtime_error(fmt::format("tournament '{}': round {} missing in the store", name, next_round));
        ++next_round;
    }
    outcome.already_played = static_cast<int>(played.size());
    if (!rounds.empty())
        spdlog::info("tournament '{}': resuming, {} of {} scheduled matches already played", name, played.size(),
                     [&] {
                         std::size_t n = 0;
                         for (const auto& [i, r] : rounds) n += r.matches.size();
                         return n;
                     }());

    const std::optional<int> limit = config_.rounds;
    auto budget_over = [&] {
        return config_.time_budget_s &&
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >= *config_.time_budget_s;
    };
    auto round_complete = [&](int r) {
        for (const auto& m : rounds.at(r).matches)
            if (!played.count(m.key)) return false;
        return true;
    };
    auto history_before = [&](int r) {
        std::vector<const PlayedMatch*> earlier;
        for (const auto& [key, pm] : played)
            if (pm.scheduled.round < r) earlier.push_back(&pm);
        return build_history(planner->participants(), earlier);
    };

    WorkerPool pool(options_.jobs, play_, options_.stop_requested);
    auto enqueue = [&](const Round& round) {
        for (const auto& m : round.matches)
            if (!played.count(m.key)) pool.push(Job{m, request_for(m)});
    };
    auto plan_and_store = [&](std::vector<int> indices) {
        std::vector<Round> planned;
        for (int r : indices) {
            History h = planner->independent(r) ? History{planner->participants(), {}, {}} : history_before(r);
            if (h.results.players().empty())
                for (const auto& p : planner->participants()) h.results.player_index(p);
            planned.push_back(planner->plan(r, h));
        }
        store_.store_rounds(name, planned);  // stored before any of their matches starts
        for (auto& r : planned) {
            rounds[r.index] = r;
            enqueue(r);
        }
    };

    // Resume: the stored schedule's unplayed matches first, in schedule order.
    for (const auto& [index, round] : rounds) enqueue(round);
    // A fixed number of rounds: store every round that does not depend on results now.
    if (limit) {
        std::vector<int> upfront;
        for (int r = next_round; r < *limit && planner->independent(r); ++r) upfront.push_back(r);
        next_round += static_cast<int>(upfront.size());
        if (!upfront.empty()) plan_and_store(upfront);
    }

    ProgressDisplay progress(options_.progress_out ? options_.progress_out : stderr, options_.progress_on_terminal,
                             options_.progress_log_interval_s);
    PairScores scores;
    for (const auto& [key, pm] : played) scores.add(pm.record);
    auto state = [&] {
        ProgressState s;
        s.done = static_cast<int>(played.size());
        if (limit) s.total = *limit * planner->matches_per_round();
        s.done_this_run = outcome.played_this_run;
        s.failed = outcome.failed;
        s.leader = scores.leader();
        if (config_.time_budget_s)
            s.budget_left_s = *config_.time_budget_s -
                              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return s;
    };

    std::exception_ptr fatal;
    bool stopped = false;
    while (true) {
        if (!stopped && options_.stop_requested && options_.stop_requested()) {
            stopped = true;
            outcome.interrupted = true;
            pool.stop_taking();
        }
        // Plan the next round when it may be planned: independent rounds one ahead of the
        // workers, dependent rounds once every earlier round has its results.
        if (!stopped && !fatal && (!limit || next_round < *limit) && !budget_over()) {
            const bool ready = planner->independent(next_round)
                                   ? pool.queued() < static_cast<std::size_t>(options_.jobs)
                                   : pool.queued() == 0 && pool.running() == 0 && [&] {
                                         for (int r = 0; r < next_round; ++r)
                                             if (!round_complete(r)) return false;
                                         return true;
                                     }();
            if (ready) {
                plan_and_store({next_round});
                ++next_round;
                continue;
            }
        }
        std::vector<Completion> completions = pool.wait();
        if (completions.empty()) {
            if (pool.running() == 0 && pool.queued() == 0) {
                // Nothing left to run; stop unless a round can still be planned.
                const bool more = !stopped && !fatal && (!limit || next_round < *limit) && !budget_over() && [&] {
                    for (int r = 0; r < next_round; ++r)
                        if (!round_complete(r)) return false;
                    return true;
                }();
                if (!more) break;
            }
            continue;
        }
        for (auto& c : completions) {
            if (c.record) {
                store_.store_result(name, c.match, *c.record, c.load);
                scores.add(*c.record);
                played.emplace(c.match.key, PlayedMatch{c.match, std::move(*c.record)});
                ++outcome.played_this_run;
                if (options_.stop_after_matches && outcome.played_this_run >= *options_.stop_after_matches) {
                    stopped = true;
                    pool.stop_taking();
                }
            } else {
                try {
                    std::rethrow_exception(c.error);
                } catch (const UserError& e) {
                    if (!fatal) spdlog::error("match {}: {}", c.match.key, e.what());
                    if (!fatal) fatal = c.error;
                    pool.stop_taking();
                } catch (const std::exception& e) {
                    spdlog::error("match {} could not be played: {} (it stays in the schedule; run again to retry)",
                                  c.match.key, e.what());
                    ++outcome.failed;
                }
            }
        }
        if (options_.progress_out) progress.update(state());
    }
    pool.close();
    if (options_.stop_requested && options_.stop_requested()) outcome.interrupted = true;
    if (options_.progress_out) progress.finish(state());
    if (fatal) std::rethrow_exception(fatal);

    for (auto& [key, pm] : played) outcome.played.push_back(pm);
    std::sort(outcome.played.begin(), outcome.played.end(), [](const PlayedMatch& a, const PlayedMatch& b) {
        return std::tie(a.scheduled.round, a.scheduled.group, a.scheduled.seating) <
               std::tie(b.scheduled.round, b.scheduled.group, b.scheduled.seating);
    });
    for (const auto& [i, r] : rounds) outcome.scheduled += static_cast<int>(r.matches.size());
    outcome.complete = outcome.scheduled == static_cast<int>(outcome.played.size()) &&
                       (limit ? next_round >= *limit : true) && (!stopped || outcome.interrupted);
    outcome.budget_reached = budget_over();
    if (outcome.budget_reached && !stopped && outcome.scheduled == static_cast<int>(outcome.played.size()))
        outcome.complete = true;  // a time-budgeted tournament ends with its last whole round
    outcome.faults = count_faults(outcome.played);
    outcome.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return outcome;
}

}  // namespace arb::tournament
