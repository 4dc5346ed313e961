#include "arbiter/ladder/ladder.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <regex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "arbiter/ladder/ladder_store.hpp"
#include "arbiter/tournament/play_and_store.hpp"
#include "arbiter/match/match_files.hpp"
#include "arbiter/tournament/formats.hpp"
#include "arbiter/tournament/history.hpp"
#include "arbiter/tournament/preflight.hpp"
#include "core/rng.hpp"
#include "core/user_error.hpp"

namespace arb::ladder {
namespace {

std::uint64_t name_hash(const std::string& name) {
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a: stable across platforms
    for (unsigned char c : name) h = (h ^ c) * 1099511628211ull;
    return h;
}

std::string round_prefix(const std::string& game, const std::string& bot) {
    return ladder_tournament(game) + "/" + bot + "/r";
}

// The round of one of the bot's ladder keys ("ladder/g/bot/r12/s3" -> 12), or -1.
int round_of(const std::string& key, const std::string& prefix) {
    if (key.rfind(prefix, 0) != 0) return -1;
    return std::atoi(key.c_str() + prefix.size());
}

const rating::RatingRow* row_of(const rating::RatingResult& fit, int player) {
    for (const auto& row : fit.rows)
        if (row.player == player) return &row;
    return nullptr;
}

constexpr int kAllRounds = 1 << 30;

// One ladder run of one new bot: the pool, the stored matches, and the steps of the run.
class LadderRun {
public:
    LadderRun(const LadderRequest& request, const GameDescriptor& game, rating::Store& store,
              const tournament::MatchFunction& play);
    LadderOutcome run();

private:
    void choose_previous();
    std::optional<std::string> preflight_failure() const;
    void play_rounds();
    std::optional<std::string> stop_reason(int round, const tournament::History& history) const;
    std::vector<int> choose_group(const tournament::History& history, int round) const;
    void play_round(const std::vector<int>& group, int round);
    MatchRequest match_request(const std::vector<int>& group, const std::vector<int>& seats, int round, int s) const;
    tournament::History history_before(int round) const;
    bool sprt_on() const { return sprt_ && outcome_.previous; }
    void warn_unreachable_bounds() const;
    rating::SprtSummary sprt_before(int round) const;
    rating::RatingResult fit_history(const tournament::History& history, int round,
                                     std::string* description = nullptr) const;
    int matches_before(int round, int* faulted) const;
    void rate_pool_and_snapshot();
    Verdict verdict() const;

    const LadderRequest& request_;
    const tournament::TournamentConfig& cfg_;
    const GameDescriptor& game_;
    rating::Store& store_;
    LadderStore ladder_store_;
    const tournament::MatchFunction& play_;
    std::vector<LadderBot> bots_;
    std::vector<std::string> participants_;
    std::string new_name_;
    int me_ = 0;                 // the new bot's index in bots_ and participants_
    std::vector<int> pool_;      // every other bot's index
    int group_size_ = 0;
    GameOptions options_;
    std::vector<std::string> maps_;  // the pool's maps for the ladder's group size, in the seed's order
    std::string tournament_;
    std::string prefix_;
    std::uint64_t bot_key_ = 0;
    std::map<std::string, MatchRecord> stored_;
    rating::EloOptions elo_options_;
    LadderOutcome outcome_;
    bool failed_preflight_ = false;
    std::optional<rating::SprtParams> sprt_;  // the ladder's SPRT with the seats of its rounds
};

LadderRun::LadderRun(const LadderRequest& request, const GameDescriptor& game, rating::Store& store,
                     const tournament::MatchFunction& play)
    : request_(request), cfg_(request.config), game_(game), store_(store), ladder_store_(store), play_(play),
      new_name_(request.new_bot.name),
      tournament_(ladder_tournament(game.name)), prefix_(round_prefix(game.name, request.new_bot.name)),
      bot_key_(name_hash(request.new_bot.name)) {
    for (const auto& b : cfg_.bots) ladder_store_.register_bot(game.name, b);
    ladder_store_.register_bot(game.name, request.new_bot);
    bots_ = ladder_store_.bots(game.name);
    for (const auto& b : bots_) participants_.push_back(b.name);
    me_ = static_cast<int>(std::find(participants_.begin(), participants_.end(), new_name_) - participants_.begin());
    for (int i = 0; i < static_cast<int>(bots_.size()); ++i)
        if (i != me_) pool_.push_back(i);
    const int wanted = cfg_.players > 0 ? cfg_.players : std::min(game.max_bots, 4);
    group_size_ = std::min(wanted, static_cast<int>(pool_.size()) + 1);
    // A pool's maps that seat the ladder's groups, in the seed's order; round r plays map r mod n.
    // Its groups have one size: a map of another count could never be played.
    for (const auto& m : tournament::pool_in_seed_order(cfg_.map_pool, cfg_.seed)) {
        if (m.players != 0 && m.players != group_size_)
            throw UserError(fmt::format("{} '{}' is for {} players; the ladder plays groups of {} ('players')",
                                        cfg_.map_option, tournament::map_name(m.path), m.players, group_size_));
        maps_.push_back(m.path);
    }
    options_ = GameOptions(game.options, cfg_.options_with_map(maps_.empty() ? "" : maps_.front()));
    stored_ = ladder_store_.matches(tournament_);
    elo_options_ = tournament::tournament_elo_options();
    elo_options_.intervals = rating::IntervalMethod::covariance;
    elo_options_.want_los = true;
    outcome_.game = game.name;
    outcome_.bot = new_name_;
    sprt_ = cfg_.ladder.sprt;
    if (sprt_) sprt_->seats = group_size_;
}

LadderOutcome LadderRun::run() {
    choose_previous();
    if (group_size_ < game_.min_bots) {
        outcome_.verdict = Verdict::baseline;
        outcome_.stop_reason = fmt::format("the pool has {} other bot(s); a match needs {}", pool_.size(), game_.min_bots);
    } else {
        warn_unreachable_bounds();
        if (const auto failure = preflight_failure()) {
            failed_preflight_ = true;
            outcome_.verdict = Verdict::broken;
            outcome_.stop_reason = "failed the pre-flight: " + *failure;
        } else {
            play_rounds();
            if (outcome_.interrupted) return outcome_;
        }
    }
    rate_pool_and_snapshot();
    if (sprt_on() && outcome_.verdict != Verdict::baseline) {
        outcome_.sprt_params = sprt_;
        outcome_.sprt = sprt_before(kAllRounds);
        outcome_.sprt_block = rating::format_sprt(*outcome_.sprt, sprt_, new_name_, *outcome_.previous,
                                                  fmt::format("{}, ladder rounds of {} seats", game_.name, group_size_));
    }
    if (outcome_.verdict != Verdict::baseline && !failed_preflight_) outcome_.verdict = verdict();
    ladder_store_.store_run(outcome_);
    return outcome_;
}

// The version the new bot is judged against: --previous, or the latest earlier registration of
// its family.
void LadderRun::choose_previous() {
    if (request_.previous) {
        if (*request_.previous == new_name_) throw UserError("--previous names the new bot itself");
        if (std::find(participants_.begin(), participants_.end(), *request_.previous) == participants_.end())
            throw UserError("--previous '" + *request_.previous + "' is not a ladder bot of game '" + game_.name + "'");
        outcome_.previous = request_.previous;
        return;
    }
    for (const auto& b : bots_)
        if (b.family == bots_[me_].family && b.seq < bots_[me_].seq) outcome_.previous = b.name;
}

// A game budget too small for the SPRT to decide even if one of the two wins every game is said
// before the first match, with the least budget that could decide. A round seats new and
// previous once in each of its group_size_ matches.
void LadderRun::warn_unreachable_bounds() const {
    if (!sprt_on()) return;
    constexpr int kCap = 1000000;  // rounds
    const int rounds = (cfg_.ladder.max_matches + group_size_ - 1) / group_size_;
    const rating::SprtReach reach = rating::sprt_reach(*sprt_, group_size_, kCap);
    const auto reachable = [&](const std::optional<int>& n) { return n && *n <= rounds; };
    if (reachable(reach.upper) || reachable(reach.lower)) return;
    const auto least = rating::least_deciding_matches(reach, group_size_);
    spdlog::warn("ladder {}: a game budget of {} matches cannot end the SPRT against {} ({}) whatever the results: "
                 "{}{}",
                 new_name_, cfg_.ladder.max_matches, *outcome_.previous, rating::to_string(*sprt_),
                 rating::reach_text(reach, group_size_, kCap),
                 least ? fmt::format("; --max-matches {} could", *least) : "");
}

// Why the new bot cannot get through the game's set-up, if it cannot; checked before its first
// ladder match only (a rerun resumes).
std::optional<std::string> LadderRun::preflight_failure() const {
    int faulted = 0;
    if (!request_.preflight || matches_before(kAllRounds, &faulted) > 0) return std::nullopt;
    tournament::TournamentConfig config = cfg_;
    config.bots = {request_.new_bot};
    config.house_bots.clear();
    config.players = group_size_;
    const auto failures = tournament::preflight(game_, config, 1);
    if (failures.empty()) return std::nullopt;
    spdlog::warn("bot '{}' failed the pre-flight: {}", new_name_, failures.front().reason);
    return failures.front().reason;
}

void LadderRun::play_rounds() {
    int round = 0;
    while (true) {
        if (request_.stop_requested && request_.stop_requested()) {
            outcome_.interrupted = true;
            return;
        }
        const tournament::History history = history_before(round);
        if (auto reason = stop_reason(round, history)) {
            outcome_.stop_reason = *reason;
            break;
        }
        play_round(choose_group(history, round), round);
        ++round;
        spdlog::info("ladder {}: {} round {} done ({} matches this run)", game_.name, new_name_, round,
                     outcome_.matches_this_run);
    }
    outcome_.rounds = round;
    int faulted = 0;
    outcome_.matches_total = matches_before(kAllRounds, &faulted);
    outcome_.faults = faulted;
}

// Why the run stops before `round`, if it does: the game budget is spent, the bot faulted in
// every match, or its rating interval is narrow enough.
std::optional<std::string> LadderRun::stop_reason(int round, const tournament::History& history) const {
    const tournament::LadderSettings& settings = cfg_.ladder;
    int faulted = 0;
    const int played = matches_before(round, &faulted);
    if (played >= settings.max_matches) return fmt::format("game budget ({} matches)", settings.max_matches);
    if (round >= 2 && played > 0 && faulted == played) return "faulted in every match";
    if (sprt_on()) {
        const rating::SprtSummary s = sprt_before(round);
        if (s.decision == rating::SprtDecision::none) return std::nullopt;
        return s.decision == rating::SprtDecision::accept_h1
                   ? fmt::format("SPRT: H1 accepted (LLR {:.2f} >= {:.2f})", s.llr, s.upper)
                   : fmt::format("SPRT: H0 accepted (LLR {:.2f} <= {:.2f})", s.llr, s.lower);
    }
    if (round >= settings.min_rounds && !history.results.empty()) {
        const auto fit = fit_history(history, round);
        if (const auto* row = row_of(fit, me_)) {
            const double half = (row->plus + row->minus) / 2;
            if (half <= settings.target_interval) return fmt::format("interval +/-{:.1f} <= {}", half, settings.target_interval);
        }
    }
    return std::nullopt;
}

// The group that shrinks Var(r_new - r_previous) (or Var(r_new)) the most.
std::vector<int> LadderRun::choose_group(const tournament::History& history, int round) const {
    const tournament::RatingModel model = tournament::fit_rating_model(history);
    std::vector<double> target(participants_.size(), 0.0);
    target[me_] = 1;
    if (outcome_.previous) {
        const auto prev = std::find(participants_.begin(), participants_.end(), *outcome_.previous) - participants_.begin();
        target[prev] = -1;
    }
    tournament::PairingOptions pairing;
    pairing.group_size = group_size_;
    pairing.games_per_pair = 1;  // one duplicate comparison per pair and round
    std::vector<int> group{me_};
    std::vector<int> pool = pool_;
    if (sprt_on()) {
        // The SPRT compares with the previous version: it sits in every group.
        const int prev = static_cast<int>(
            std::find(participants_.begin(), participants_.end(), *outcome_.previous) - participants_.begin());
        group.push_back(prev);
        pool.erase(std::find(pool.begin(), pool.end(), prev));
        pairing.group_size = group_size_ - 1;
    }
    if (pairing.group_size > 1)
        for (int o : tournament::best_opponents(model, me_, pool, target, history.meetings, pairing)) group.push_back(o);
    if (cfg_.vary_cyclic_order) {
        // Rotations fix who sits after whom; without a new order each round the new bot
        // would always play right before the same opponent (a measurable bias between
        // two copies of one deterministic bot).
        Rng order(derive_seed(cfg_.seed, {bot_key_, static_cast<std::uint64_t>(round), 2, 0}));
        order.shuffle(std::span<int>(group));
    }
    return group;
}

// The group in every cyclic rotation on one deal set; rotations already stored are skipped.
void LadderRun::play_round(const std::vector<int>& group, int round) {
    std::vector<tournament::KeyedRequest> requests;
    const auto arrangements = tournament::seat_arrangements(group_size_, tournament::Seating::rotations);
    for (int s = 0; s < group_size_; ++s) {
        const std::string key = fmt::format("{}{}/s{}", prefix_, round, s);
        if (stored_.count(key)) continue;
        requests.push_back({key, match_request(group, arrangements[s], round, s)});
    }
    outcome_.matches_this_run += tournament::play_and_store(store_, tournament_, requests, request_.jobs, play_,
                                                            request_.stop_requested, stored_);
}

MatchRequest LadderRun::match_request(const std::vector<int>& group, const std::vector<int>& seats, int round,
                                      int s) const {
    MatchRequest r;
    r.game = game_.name;
    for (int seat : seats) r.bots.push_back(bots_[group[seat]].spec);
    r.seed = derive_seed(cfg_.seed, {bot_key_, static_cast<std::uint64_t>(round), static_cast<std::uint64_t>(s)});
    r.deal_set = derive_seed(cfg_.seed, {bot_key_, static_cast<std::uint64_t>(round)});
    r.rotation = s;
    r.options = maps_.empty() ? options_
                              : GameOptions(game_.options, cfg_.options_with_map(maps_[static_cast<std::size_t>(round) % maps_.size()]));
    r.limits.memory_mib = cfg_.memory_mib;
    r.limits.sandbox = cfg_.sandbox;
    r.limits.seat_users = cfg_.seat_users;
    r.freeze_idle = cfg_.freeze_idle;
    // Its folder: <--out or <db folder>/<db stem>-files>/ladder/<game>/<bot>/r<round>-s<seating>.
    const std::filesystem::path root = !cfg_.out_dir.empty() ? std::filesystem::absolute(cfg_.out_dir)
                                       : rating::is_file_database(store_.path()) ? default_files_root(store_.path())
                                                                                 : std::filesystem::path();
    if (!root.empty())
        direct_files_into(r, game_, root / tournament_ / new_name_ / fmt::format("r{}-s{}", round, s),
                          cfg_.out_dir.empty() ? "--db" : "--out");
    return r;
}

tournament::History LadderRun::history_before(int round) const {
    // Rounds of this bot from `round` on are left out, so a resumed run plans the same.
    // One comparison per pair per round, on the rotations' score sums (planowanie.md 5.4):
    // per-match pairs of one deal set are not independent and would overstate the LOS.
    std::map<std::string, std::vector<const MatchRecord*>> groups;
    for (const auto& [key, record] : stored_) {
        const int r = round_of(key, prefix_);
        if (r >= round) continue;
        groups[key.substr(0, key.rfind("/s"))].push_back(&record);
    }
    return tournament::build_duplicate_history(participants_, groups);
}

// The SPRT of new against previous on the rounds before `round` that seated both, in round order;
// cut at the first round whose LLR reached a bound.
rating::SprtSummary LadderRun::sprt_before(int round) const {
    std::map<int, std::vector<const MatchRecord*>> rounds;
    for (const auto& [key, record] : stored_) {
        const int r = round_of(key, prefix_);
        if (r >= 0 && r < round) rounds[r].push_back(&record);
    }
    std::vector<rating::SprtObservation> observations;
    for (const auto& [r, records] : rounds) {
        const auto o = rating::observation_of(records, {new_name_}, {*outcome_.previous});
        if (o.comparisons() > 0) observations.push_back(o);
    }
    return rating::evaluate_sprt(*sprt_, observations);
}

// The new bot's stored matches in rounds before `round`; adds the faulted ones to *faulted.
int LadderRun::matches_before(int round, int* faulted) const {
    int count = 0;
    for (const auto& [key, record] : stored_) {
        const int r = round_of(key, prefix_);
        if (r < 0 || r >= round) continue;
        ++count;
        for (const auto& p : record.participants)
            if (p.bot == new_name_ && p.status != SeatStatus::ok) ++*faulted;
    }
    return count;
}

// The pool's ratings after the run, stored as a dated snapshot; the new bot's rating and its LOS
// over the previous version go into the outcome.
void LadderRun::rate_pool_and_snapshot() {
    const tournament::History all = history_before(kAllRounds);
    if (all.results.empty()) return;
    const auto fit = fit_history(all, kAllRounds, &outcome_.intervals);
    outcome_.ratings_table = rating::format_ratings_table(fit);
    rating::Snapshot snapshot;
    snapshot.label = "ladder " + game_.name;
    snapshot.game = game_.name;
    nlohmann::json params;
    params["advantage"] = fit.advantage;
    params["drawelo"] = fit.drawelo;
    params["prior"] = elo_options_.prior;
    params["intervals"] = request_.intervals == rating::IntervalSource::bootstrap ? "bootstrap" : "covariance";
    params["after"] = new_name_;
    snapshot.params_json = params.dump();
    for (const auto& row : fit.rows) {
        snapshot.rows.push_back(
            rating::SnapshotRow{row.name, row.rank, row.elo, row.plus, row.minus, row.games, row.score, row.draws});
    }
    outcome_.snapshot_id = store_.save_snapshot(snapshot);
    if (const auto* row = row_of(fit, me_)) {
        outcome_.elo = row->elo;
        outcome_.plus = row->plus;
        outcome_.minus = row->minus;
    }
    if (!outcome_.previous) return;
    const int prev = all.results.find_player(*outcome_.previous);
    if (const auto* row = row_of(fit, prev)) outcome_.previous_elo = row->elo;
    const std::size_t m = fit.player_count;
    if (prev >= 0 && fit.los.size() == m * m && static_cast<std::size_t>(me_) < m && static_cast<std::size_t>(prev) < m)
        outcome_.los = fit.los[me_ * m + prev];
}

// The fit of `history` (the rounds before `round`) with the interval and LOS the request asks
// for. The bootstrap resamples whole rounds: their rotations share the deal and every pair of
// a round shares its bots' luck; the groups are taken in history_before's order. A bootstrap
// over a few rounds comes out too narrow (with one round it has no spread at all), so the
// ladder takes the more cautious of the two: the wider interval, the LOS nearer to 1/2.
rating::RatingResult LadderRun::fit_history(const tournament::History& history, int round,
                                            std::string* description) const {
    rating::RatingResult fit = rating::rate(history.results, elo_options_);
    if (request_.intervals != rating::IntervalSource::bootstrap) return fit;
    std::map<std::string, std::vector<const MatchRecord*>> groups;
    for (const auto& [key, record] : stored_) {
        const int r = round_of(key, prefix_);
        if (r < round) groups[key.substr(0, key.rfind("/s"))].push_back(&record);
    }
    std::vector<std::int64_t> units;
    std::int64_t unit = 0;
    for (const auto& [key, matches] : groups) {
        const std::map<std::string, std::vector<const MatchRecord*>> one{{key, matches}};
        const auto games = tournament::build_duplicate_history(participants_, one).results.games().size();
        units.insert(units.end(), games, unit++);
    }
    const auto boot = rating::bootstrap_ratings(history.results, units, elo_options_, request_.bootstrap);
    const rating::RatingResult bayeselo = fit;
    rating::apply_bootstrap(fit, boot);
    for (std::size_t r = 0; r < fit.rows.size(); ++r) {
        fit.rows[r].plus = std::max(fit.rows[r].plus, bayeselo.rows[r].plus);
        fit.rows[r].minus = std::max(fit.rows[r].minus, bayeselo.rows[r].minus);
    }
    for (std::size_t k = 0; k < fit.los.size() && k < bayeselo.los.size(); ++k)
        if (std::abs(bayeselo.los[k] - 0.5) < std::abs(fit.los[k] - 0.5)) fit.los[k] = bayeselo.los[k];
    if (description)
        *description = fmt::format("bootstrap, {} resamples of {} ladder rounds (seed {}); bayeselo's where more "
                                   "cautious",
                                   boot.samples, boot.units, request_.bootstrap.seed);
    return fit;
}

Verdict LadderRun::verdict() const {
    const tournament::LadderSettings& settings = cfg_.ladder;
    if (outcome_.matches_total > 0 && outcome_.faults == outcome_.matches_total) return Verdict::broken;
    if (!outcome_.previous) return Verdict::baseline;
    if (outcome_.sprt) {
        if (outcome_.sprt->decision == rating::SprtDecision::accept_h1) return Verdict::better;
        if (outcome_.sprt->decision == rating::SprtDecision::accept_h0) return Verdict::worse;
        return Verdict::inconclusive;
    }
    if (outcome_.los >= settings.better_los) return Verdict::better;
    if (outcome_.los <= settings.worse_los) return Verdict::worse;
    return Verdict::inconclusive;
}

}  // namespace

const char* to_string(Verdict v) {
    switch (v) {
        case Verdict::better: return "better";
        case Verdict::worse: return "worse";
        case Verdict::inconclusive: return "inconclusive";
        case Verdict::baseline: return "baseline";
        case Verdict::broken: return "broken";
    }
    return "?";
}

int exit_code(Verdict v) {
    switch (v) {
        case Verdict::better: return kExitBetter;
        case Verdict::worse: return kExitWorse;
        case Verdict::inconclusive: return kExitInconclusive;
        case Verdict::baseline: return kExitBaseline;
        case Verdict::broken: return kExitBroken;
    }
    return 1;
}

std::string family_of(const std::string& name) {
    // A version is a trailing [-@_] followed by an optional 'v' and a digit-led tail.
    static const std::regex versioned(R"(^(.+?)[-@_][vV]?[0-9][0-9A-Za-z.\-_]*$)");
    std::smatch m;
    if (std::regex_match(name, m, versioned)) return m[1].str();
    return name;
}

std::string ladder_tournament(const std::string& game) { return "ladder/" + game; }

std::string LadderOutcome::to_json() const {
    nlohmann::ordered_json j;
    j["game"] = game;
    j["bot"] = bot;
    j["previous"] = previous ? nlohmann::ordered_json(*previous) : nlohmann::ordered_json(nullptr);
    j["verdict"] = to_string(verdict);
    j["exit_code"] = exit_code(verdict);
    j["los"] = los;
    j["elo"] = elo;
    j["plus"] = plus;
    j["minus"] = minus;
    j["previous_elo"] = previous_elo ? nlohmann::ordered_json(*previous_elo) : nlohmann::ordered_json(nullptr);
    j["matches_this_run"] = matches_this_run;
    j["matches_total"] = matches_total;
    j["rounds"] = rounds;
    j["faulted_matches"] = faults;
    j["stop_reason"] = stop_reason;
    j["snapshot_id"] = snapshot_id;
    if (sprt && sprt_params) {
        nlohmann::ordered_json t;
        t["elo0"] = sprt_params->elo0;
        t["elo1"] = sprt_params->elo1;
        t["alpha"] = sprt_params->alpha;
        t["beta"] = sprt_params->beta;
        t["model"] = rating::to_string(sprt->model);
        t["llr"] = sprt->llr;
        t["lower"] = sprt->lower;
        t["upper"] = sprt->upper;
        t["decision"] = sprt->decision == rating::SprtDecision::accept_h1   ? "H1"
                        : sprt->decision == rating::SprtDecision::accept_h0 ? "H0"
                                                                            : "none";
        t["deal_sets"] = sprt->observations;
        t["elo"] = sprt->elo;
        t["elo_error"] = sprt->elo_error;
        t["los"] = sprt->los;
        if (sprt->games_per_observation > 0 && !std::isnan(sprt->nelo)) {
            t["nelo"] = sprt->nelo;
            t["nelo_error"] = sprt->nelo_error;
        }
        j["sprt"] = t;
    }
    if (!intervals.empty()) j["intervals"] = intervals;
    return j.dump(2);
}

std::string LadderOutcome::to_text() const {
    std::string out = fmt::format("ladder {}: {}{}\n", game, bot, previous ? " vs previous " + *previous : " (no previous version)");
    out += fmt::format("  matches: {} this run, {} in all; {} rounds; stopped: {}\n", matches_this_run, matches_total, rounds,
                       stop_reason);
    out += fmt::format("  {}: {:.0f} +{:.0f}/-{:.0f}", bot, elo, plus, minus);
    if (previous && previous_elo) out += fmt::format("   {}: {:.0f}", *previous, *previous_elo);
    out += "\n";
    if (previous) out += fmt::format("  LOS({} > {}) = {:.3f}\n", bot, *previous, los);
    if (!intervals.empty()) out += fmt::format("  intervals and LOS: {}\n", intervals);
    if (faults > 0) out += fmt::format("  {} faulted in {} of its matches\n", bot, faults);
    if (!sprt_block.empty()) out += sprt_block;
    out += fmt::format("verdict: {} (exit {})\n", to_string(verdict), exit_code(verdict));
    if (!ratings_table.empty()) out += "\n" + ratings_table;
    return out;
}

LadderOutcome run_ladder(const LadderRequest& request, const GameDescriptor& game, rating::Store& store,
                         const tournament::MatchFunction& play) {
    return LadderRun(request, game, store, play).run();
}

}  // namespace arb::ladder
