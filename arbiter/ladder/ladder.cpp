#include "arbiter/ladder/ladder.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <regex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "core/rng.hpp"
#include "core/user_error.hpp"
#include "arbiter/tournament/formats.hpp"
#include "arbiter/tournament/history.hpp"

namespace arb::ladder {
namespace {


const std::vector<std::string>& migrations() {
    static const std::vector<std::string> m = {
        // v1
        "CREATE TABLE ladder_bot ("
        "  game TEXT NOT NULL,"
        "  name TEXT NOT NULL,"
        "  spec TEXT NOT NULL,"
        "  family TEXT NOT NULL,"
        "  registered_at TEXT NOT NULL,"
        "  seq INTEGER NOT NULL,"
        "  PRIMARY KEY (game, name));"
        "CREATE TABLE ladder_run ("
        "  id INTEGER PRIMARY KEY,"
        "  game TEXT NOT NULL,"
        "  bot TEXT NOT NULL,"
        "  previous TEXT,"
        "  finished_at TEXT NOT NULL,"
        "  verdict TEXT NOT NULL,"
        "  los REAL,"
        "  matches INTEGER NOT NULL,"
        "  snapshot_id INTEGER,"
        "  outcome_json TEXT NOT NULL);",
    };
    return m;
}

struct LadderBot {
    std::string name;
    BotSpec spec;
    std::string family;
    std::int64_t seq = 0;
};

std::uint64_t name_hash(const std::string& name) {
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a: stable across platforms
    for (unsigned char c : name) h = (h ^ c) * 1099511628211ull;
    return h;
}

void register_bot(rating::Store& store, const std::string& game, const BotSpec& bot) {
    const std::string spec = to_spec_string(bot);
    store.transaction([&] {
        auto q = store.prepare("SELECT spec FROM ladder_bot WHERE game = ?1 AND name = ?2");
        q.bind(1, game).bind(2, bot.name);
        if (q.step()) {
            if (q.column_text(0) != spec) {
                throw UserError("ladder bot '" + bot.name + "' is already registered with another command (" +
                                q.column_text(0) + "); give a new version a new name");
            }
            return;
        }
        auto seq = store.prepare("SELECT COALESCE(MAX(seq), 0) + 1 FROM ladder_bot WHERE game = ?1");
        seq.bind(1, game);
        seq.step();
        const std::int64_t next = seq.column_int64(0);
        auto insert = store.prepare(
            "INSERT INTO ladder_bot(game, name, spec, family, registered_at, seq) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
        insert.bind(1, game).bind(2, bot.name).bind(3, spec).bind(4, family_of(bot.name));
        insert.bind(5, utc_timestamp_now()).bind(6, next);
        insert.run();
        spdlog::info("ladder {}: registered '{}'", game, bot.name);
    });
}

std::vector<LadderBot> ladder_bots(rating::Store& store, const std::string& game) {
    std::vector<LadderBot> out;
    auto q = store.prepare("SELECT name, spec, family, seq FROM ladder_bot WHERE game = ?1 ORDER BY seq");
    q.bind(1, game);
    while (q.step()) out.push_back({q.column_text(0), parse_bot_spec(q.column_text(1)), q.column_text(2), q.column_int64(3)});
    return out;
}

std::string round_prefix(const std::string& game, const std::string& bot) {
    return ladder_tournament(game) + "/" + bot + "/r";
}

// The round of one of the bot's ladder keys ("ladder/g/bot/r12/s3" -> 12), or -1.
int round_of(const std::string& key, const std::string& prefix) {
    if (key.rfind(prefix, 0) != 0) return -1;
    return std::atoi(key.c_str() + prefix.size());
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
    if (faults > 0) out += fmt::format("  {} faulted in {} of its matches\n", bot, faults);
    out += fmt::format("verdict: {} (exit {})\n", to_string(verdict), exit_code(verdict));
    if (!ratings_table.empty()) out += "\n" + ratings_table;
    return out;
}

LadderOutcome run_ladder(const LadderRequest& request, const GameDescriptor& game, rating::Store& store,
                         const tournament::MatchFunction& play) {
    const tournament::TournamentConfig& cfg = request.config;
    const tournament::LadderSettings& settings = cfg.ladder;
    store.ensure_component_schema("ladder", migrations());
    for (const auto& b : cfg.bots) register_bot(store, game.name, b);
    register_bot(store, game.name, request.new_bot);

    const auto bots = ladder_bots(store, game.name);
    const std::string& new_name = request.new_bot.name;
    const auto me = std::find_if(bots.begin(), bots.end(), [&](const LadderBot& b) { return b.name == new_name; });

    LadderOutcome outcome;
    outcome.game = game.name;
    outcome.bot = new_name;
    if (request.previous) {
        if (*request.previous == new_name) throw UserError("--previous names the new bot itself");
        if (std::none_of(bots.begin(), bots.end(), [&](const LadderBot& b) { return b.name == *request.previous; }))
            throw UserError("--previous '" + *request.previous + "' is not a ladder bot of game '" + game.name + "'");
        outcome.previous = request.previous;
    } else {
        for (const auto& b : bots)
            if (b.family == me->family && b.seq < me->seq) outcome.previous = b.name;
    }

    std::vector<std::string> participants;
    for (const auto& b : bots) participants.push_back(b.name);
    const int n = static_cast<int>(participants.size());
    const int me_index = static_cast<int>(me - bots.begin());
    std::vector<int> pool;
    for (int i = 0; i < n; ++i)
        if (i != me_index) pool.push_back(i);
    const int wanted = cfg.players > 0 ? cfg.players : std::min(game.max_bots, 4);
    const int group_size = std::min(wanted, static_cast<int>(pool.size()) + 1);

    const GameOptions options(game.options, cfg.options);
    const std::string tournament = ladder_tournament(game.name);
    const std::string prefix = round_prefix(game.name, new_name);

    // Every stored ladder match of this game, by key (a canonical order for the fits).
    std::map<std::string, MatchRecord> stored;
    {
        rating::MatchFilter filter;
        filter.tournament = tournament;
        for (auto& m : store.matches(filter))
            if (m.schedule_key) stored.emplace(*m.schedule_key, std::move(m.record));
    }
    auto history_before = [&](int round) {
        // Rounds of this bot from `round` on are left out, so a resumed run plans the same.
        // One comparison per pair per round, on the rotations' score sums (planowanie.md 5.4):
        // per-match pairs of one deal set are not independent and would overstate the LOS.
        std::map<std::string, std::vector<const MatchRecord*>> groups;
        for (const auto& [key, record] : stored) {
            const int r = round_of(key, prefix);
            if (r >= round) continue;
            groups[key.substr(0, key.rfind("/s"))].push_back(&record);
        }
        return tournament::build_duplicate_history(participants, groups);
    };
    rating::EloOptions elo_options = tournament::tournament_elo_options();
    elo_options.intervals = rating::IntervalMethod::covariance;
    elo_options.want_los = true;
    auto row_of = [](const rating::RatingResult& fit, int player) -> const rating::RatingRow* {
        for (const auto& row : fit.rows)
            if (row.player == player) return &row;
        return nullptr;
    };
    auto my_matches = [&](int before_round, int* faulted) {
        int count = 0;
        for (const auto& [key, record] : stored) {
            const int r = round_of(key, prefix);
            if (r < 0 || r >= before_round) continue;
            ++count;
            for (const auto& p : record.participants)
                if (p.bot == new_name && p.status != SeatStatus::ok) ++*faulted;
        }
        return count;
    };

    if (group_size < game.min_bots) {
        outcome.verdict = Verdict::baseline;
        outcome.stop_reason = fmt::format("the pool has {} other bot(s); a match needs {}", pool.size(), game.min_bots);
    } else {
        const std::uint64_t bot_key = name_hash(new_name);
        int round = 0;
        while (true) {
            if (request.stop_requested && request.stop_requested()) {
                outcome.interrupted = true;
                return outcome;
            }
            int faulted = 0;
            const int played = my_matches(round, &faulted);
            if (played >= settings.max_matches) {
                outcome.stop_reason = fmt::format("game budget ({} matches)", settings.max_matches);
                break;
            }
            if (round >= 2 && played > 0 && faulted == played) {
                outcome.stop_reason = "faulted in every match";
                break;
            }
            tournament::History history = history_before(round);
            if (round >= settings.min_rounds && !history.results.empty()) {
                const auto fit = rating::rate(history.results, elo_options);
                if (const auto* row = row_of(fit, me_index)) {
                    const double half = (row->plus + row->minus) / 2;
                    if (half <= settings.target_interval) {
                        outcome.stop_reason = fmt::format("interval +/-{:.1f} <= {}", half, settings.target_interval);
                        break;
                    }
                }
            }
            // The group that shrinks Var(r_new - r_previous) (or Var(r_new)) the most.
            const tournament::RatingModel model = tournament::fit_rating_model(history);
            std::vector<double> target(n, 0.0);
            target[me_index] = 1;
            if (outcome.previous) {
                const int prev = static_cast<int>(std::find(participants.begin(), participants.end(), *outcome.previous) -
                                                  participants.begin());
                target[prev] = -1;
            }
            tournament::PairingOptions pairing;
            pairing.group_size = group_size;
            pairing.games_per_pair = 1;  // one duplicate comparison per pair and round
            std::vector<int> group{me_index};
            for (int o : tournament::best_opponents(model, me_index, pool, target, history.meetings, pairing))
                group.push_back(o);
            if (cfg.vary_cyclic_order) {
                // Rotations fix who sits after whom; without a new order each round the new bot
                // would always play right before the same opponent (a measurable bias between
                // two copies of one deterministic bot).
                Rng order(derive_seed(cfg.seed, {bot_key, static_cast<std::uint64_t>(round), 2, 0}));
                order.shuffle(std::span<int>(group));
            }

            std::vector<MatchRequest> requests;
            std::vector<std::string> keys;
            const auto arrangements = tournament::seat_arrangements(group_size, tournament::Seating::rotations);
            for (int s = 0; s < group_size; ++s) {
                const std::string key = fmt::format("{}{}/s{}", prefix, round, s);
                if (stored.count(key)) continue;
                MatchRequest r;
                r.game = game.name;
                for (int seat : arrangements[s]) r.bots.push_back(bots[group[seat]].spec);
                r.seed = derive_seed(cfg.seed, {bot_key, static_cast<std::uint64_t>(round), static_cast<std::uint64_t>(s)});
                r.deal_set = derive_seed(cfg.seed, {bot_key, static_cast<std::uint64_t>(round)});
                r.rotation = s;
                r.options = options;
                r.limits.memory_mib = cfg.memory_mib;
                r.freeze_idle = cfg.freeze_idle;
                if (!cfg.out_dir.empty()) {
                    const std::filesystem::path out = std::filesystem::path(cfg.out_dir) / new_name;
                    std::filesystem::create_directories(out / "transcripts");
                    const std::string stem = fmt::format("r{}-s{}", round, s);
                    r.transcript_path = out / "transcripts" / (stem + ".transcript");
                    r.log_dir = out / "logs" / stem;
                    std::filesystem::create_directories(r.log_dir);
                }
                requests.push_back(std::move(r));
                keys.push_back(key);
            }
            const auto results = tournament::play_concurrently(requests, request.jobs, play, request.stop_requested);
            for (std::size_t i = 0; i < results.size(); ++i) {
                if (results[i].error) std::rethrow_exception(results[i].error);
                if (!results[i].record) continue;  // not started: a stop was requested
                store.insert_match(*results[i].record, tournament, keys[i]);
                stored.emplace(keys[i], *results[i].record);
                ++outcome.matches_this_run;
            }
            ++round;
            spdlog::info("ladder {}: {} round {} done ({} matches this run)", game.name, new_name, round,
                         outcome.matches_this_run);
        }
        outcome.rounds = round;
        int faulted = 0;
        outcome.matches_total = my_matches(1 << 30, &faulted);
        outcome.faults = faulted;
    }

    // The pool's ratings after the run, a dated snapshot, and the verdict.
    const tournament::History all = history_before(1 << 30);
    if (!all.results.empty()) {
        const auto fit = rating::rate(all.results, elo_options);
        outcome.ratings_table = rating::format_ratings_table(fit);
        rating::Snapshot snapshot;
        snapshot.label = "ladder " + game.name;
        snapshot.game = game.name;
        nlohmann::json params;
        params["advantage"] = fit.advantage;
        params["drawelo"] = fit.drawelo;
        params["prior"] = elo_options.prior;
        params["intervals"] = "covariance";
        params["after"] = new_name;
        snapshot.params_json = params.dump();
        for (const auto& row : fit.rows) {
            snapshot.rows.push_back(rating::SnapshotRow{row.name, row.rank, row.elo, row.plus, row.minus, row.games,
                                                        row.score, row.draws});
        }
        outcome.snapshot_id = store.save_snapshot(snapshot);
        if (const auto* row = row_of(fit, me_index)) {
            outcome.elo = row->elo;
            outcome.plus = row->plus;
            outcome.minus = row->minus;
        }
        if (outcome.previous) {
            const int prev = all.results.find_player(*outcome.previous);
            if (const auto* row = row_of(fit, prev)) outcome.previous_elo = row->elo;
            const std::size_t m = fit.player_count;
            if (prev >= 0 && fit.los.size() == m * m && static_cast<std::size_t>(me_index) < m &&
                static_cast<std::size_t>(prev) < m)
                outcome.los = fit.los[me_index * m + prev];
        }
    }
    if (outcome.verdict != Verdict::baseline) {
        if (outcome.matches_total > 0 && outcome.faults == outcome.matches_total) outcome.verdict = Verdict::broken;
        else if (!outcome.previous) outcome.verdict = Verdict::baseline;
        else if (outcome.los >= settings.better_los) outcome.verdict = Verdict::better;
        else if (outcome.los <= settings.worse_los) outcome.verdict = Verdict::worse;
        else outcome.verdict = Verdict::inconclusive;
    }

    auto insert = store.prepare(
        "INSERT INTO ladder_run(game, bot, previous, finished_at, verdict, los, matches, snapshot_id, outcome_json) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
    insert.bind(1, game.name).bind(2, new_name).bind(3, outcome.previous).bind(4, utc_timestamp_now());
    insert.bind(5, to_string(outcome.verdict)).bind(6, outcome.los).bind(7, outcome.matches_this_run);
    insert.bind(8, outcome.snapshot_id).bind(9, outcome.to_json());
    insert.run();
    return outcome;
}

}  // namespace arb::ladder
