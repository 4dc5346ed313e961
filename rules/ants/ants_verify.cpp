// Replaying a recorded Ants game through the engine: the recorded orders, crashes, timeouts and
// invalid-order verdicts applied at their turns, food and spawn tie-breaks from the recording
// (level A) or the seeded generator (level C), then a turn-by-turn comparison that stops at the
// first difference, and a comparison of the whole end state.
#include "rules/ants/ants_verify.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <span>

namespace arb::ants {
namespace {

using nlohmann::json;

// Value of a per-turn history at turn t, carried forward past its end (ants.md section 11).
int value_at(const std::vector<int>& history, int t) {
    if (history.empty()) return 0;
    return history[static_cast<std::size_t>(std::min<int>(t, static_cast<int>(history.size()) - 1))];
}

std::string coords(const AntsEngine& e, int cell) {
    return std::to_string(e.row_of(cell)) + " " + std::to_string(e.col_of(cell));
}

bool is_fault_status(const std::string& s) {
    return s == "crashed" || s == "timeout" || s == "invalid";
}

// A difference found while replaying: the field that differs and how.
struct Difference {
    std::string field;
    std::string what;
};
using MaybeDifference = std::optional<Difference>;

// The recorded ants, food and per-player histories, read once from replaydata, and the recorded
// moves grouped by turn (so a turn's orders cost no scan over every recorded ant).
struct RecordedTables {
    struct Ant { int cell, start, end, owner; std::string orders; };
    struct FoodItem { int cell, start, end, owner; };
    struct Move { int ant; int owner; char dir; };
    std::vector<Ant> ants;
    std::vector<FoodItem> food;
    std::vector<int> hill_end;
    std::vector<std::vector<int>> scores, hive;
    std::vector<std::vector<Move>> moves;  // by turn

    explicit RecordedTables(const RecordedGame& game) {
        const json& rd = game.replaydata;
        const int cols = game.map.cols;
        for (const auto& a : rd.at("ants"))
            ants.push_back({a.at(0).get<int>() * cols + a.at(1).get<int>(), a.at(2).get<int>(), a.at(3).get<int>(),
                            a.at(4).get<int>(), a.at(5).get<std::string>()});
        for (const auto& f : rd.at("food"))
            food.push_back({f.at(0).get<int>() * cols + f.at(1).get<int>(), f.at(2).get<int>(), f.at(3).get<int>(),
                            f.size() > 4 ? f.at(4).get<int>() : kNoOwner});
        for (const auto& h : rd.at("hills")) hill_end.push_back(h.at(3).get<int>());
        scores = rd.at("scores").get<std::vector<std::vector<int>>>();
        hive = rd.at("hive_history").get<std::vector<std::vector<int>>>();
        moves.resize(static_cast<std::size_t>(std::max(0, game.params.turns)) + 2);
        for (std::size_t i = 0; i < ants.size(); ++i) {
            const Ant& a = ants[i];
            for (std::size_t k = 0; k < a.orders.size(); ++k) {
                const std::size_t turn = static_cast<std::size_t>(a.start) + 1 + k;
                if (a.orders[k] == '-') continue;
                if (turn >= moves.size()) moves.resize(turn + 1);
                moves[turn].push_back({static_cast<int>(i), a.owner, a.orders[k]});
            }
        }
    }
};

// Ants.__init__ (level C): food_rate, food_turn, food_start, food_visible drawn from their
// ranges; a message when the drawn values are not the recorded ones.
std::optional<std::string> draw_food_parameters(CPythonRandom& python, AntsParams& params, const AntsParams& recorded) {
    params.food_rate = static_cast<int>(python.randrange(5, 12));
    params.food_turn = static_cast<int>(python.randrange(19, 38));
    params.food_start = static_cast<int>(python.randrange(75, 176));
    params.food_visible = static_cast<int>(python.randrange(3, 6));
    if (params.food_rate == recorded.food_rate && params.food_turn == recorded.food_turn &&
        params.food_start == recorded.food_start)
        return std::nullopt;
    return "turn 0: field 'food_rate/food_turn/food_start' differs: drawn " + std::to_string(params.food_rate) + "/" +
           std::to_string(params.food_turn) + "/" + std::to_string(params.food_start);
}

// Where the replayed engine's food and spawn tie-breaks come from: the recording (level A) or
// the CPython-compatible generator seeded with the recorded engine_seed (level C).
struct EngineInputs {
    AntsParams params;
    std::unique_ptr<FoodSource> food_source;
    ScheduledFood* scheduled = nullptr;  // the recorded food source, which reports problems
    SpawnKey spawn_key;
    std::shared_ptr<CPythonRandom> python;
};

EngineInputs recorded_inputs(const RecordedGame& game) {
    EngineInputs in;
    in.params = game.params;
    auto scheduled = recorded_food(game);
    in.scheduled = scheduled.get();
    in.food_source = std::move(scheduled);
    in.spawn_key = recorded_spawn_key(game);
    return in;
}

// Replays one recording through the engine turn by turn, comparing as it goes.
class ReplayVerifier {
public:
    ReplayVerifier(const RecordedGame& game, const RecordedTables& rec, EngineInputs inputs, const ReplayHooks& hooks)
        : game_(game),
          players_(game.players),
          python_(inputs.python),
          food_(inputs.scheduled),
          engine_(game.map, inputs.params, std::move(inputs.food_source), std::move(inputs.spawn_key)),
          rec_(rec),
          hooks_(hooks),
          status_(players_, "survived"),
          playerturns_(players_, 0),
          lines_(players_),
          line_count_(players_) {}

    VerifyOutcome run() {
        start_game();
        if (hooks_.started) hooks_.started(engine_);
        int turn = 0;
        bool over = engine_.game_over();
        while (!over && turn < game_.params.turns) {
            ++turn;
            if (hooks_.before_turn) hooks_.before_turn(engine_);
            if (auto d = play_turn(turn)) return fail(turn, *d);
            if (hooks_.compare_each_turn)
                if (auto d = compare_turn(turn)) return fail(turn, *d);
            outcome_.steps = turn;
            over = engine_.game_over();
        }
        engine_.finish_game();
        if (hooks_.finished) hooks_.finished(engine_);
        if (auto d = compare_end(turn)) return fail(turn, *d);
        outcome_.ok = true;
        outcome_.steps = turn;
        return outcome_;
    }

private:
    VerifyOutcome fail(int turn, const Difference& d) {
        outcome_.ok = false;
        outcome_.first_difference = "turn " + std::to_string(turn) + ": field '" + d.field + "' differs: " + d.what;
        return outcome_;
    }

    // worker/engine.py shuffles the list of live bots every turn with the engine's generator.
    void shuffle_live_bots() {
        if (!python_) return;
        std::vector<int> live;
        for (int p = 0; p < engine_.players(); ++p)
            if (engine_.is_alive(p)) live.push_back(p);
        python_->shuffle(live);
    }

    bool recorded_fault_at(int p, int turn) const {
        return static_cast<int>(game_.status.size()) == players_ && is_fault_status(game_.status[p]) &&
               static_cast<int>(game_.playerturns.size()) == players_ && game_.playerturns[p] == turn;
    }

    void start_game() {
        // A bot that did not start ("crashed 0") is killed before turn 0.
        for (int p = 0; p < players_; ++p)
            if (static_cast<int>(game_.status.size()) == players_ && game_.status[p] == "crashed 0") {
                engine_.kill_player(p);
                status_[p] = "crashed 0";
            }
        engine_.start_game();
        shuffle_live_bots();
        // Turn 0: faults at load time.
        for (int p = 0; p < players_; ++p)
            if (recorded_fault_at(p, 0) && engine_.is_alive(p)) {
                engine_.kill_player(p);
                status_[p] = game_.status[p];
            }
    }

    MaybeDifference play_turn(int turn) {
        for (int p = 0; p < players_; ++p)
            if (engine_.is_alive(p)) playerturns_[p] = turn;
        engine_.start_turn();
        shuffle_live_bots();
        for (int p = 0; p < players_; ++p)
            if (engine_.is_alive(p) && recorded_fault_at(p, turn) && game_.status[p] != "invalid") {
                engine_.kill_player(p);
                status_[p] = game_.status[p];
            }
        std::vector<char> alive_before(players_);
        for (int p = 0; p < players_; ++p) alive_before[p] = engine_.is_alive(p);
        if (!engine_.game_over())
            if (auto d = give_recorded_orders(turn)) return d;
        engine_.finish_turn();
        for (int p = 0; p < players_; ++p)
            if (alive_before[p] && !engine_.is_alive(p) && status_[p] == "survived") {
                status_[p] = "eliminated";
                playerturns_[p] = turn;
            }
        if (food_ && !food_->problems().empty()) return Difference{"food", food_->problems().front()};
        return std::nullopt;
    }

    // Every live player's recorded orders for this turn, as the order lines a bot would send
    // ("o ROW COL D", one string per line, reused from turn to turn like a reply buffer).
    MaybeDifference give_recorded_orders(int turn) {
        std::fill(line_count_.begin(), line_count_.end(), 0);
        static const std::vector<RecordedTables::Move> kNone;
        const auto& moves = static_cast<std::size_t>(turn) < rec_.moves.size() ? rec_.moves[static_cast<std::size_t>(turn)] : kNone;
        for (const auto& m : moves) {
            if (static_cast<std::size_t>(m.ant) >= engine_.ants().size() || !engine_.ants()[m.ant].alive())
                return Difference{"ants", "recorded ant " + std::to_string(m.ant) + " has an order but does not exist or is dead here"};
            const int cell = engine_.ants()[m.ant].cell;
            char buf[32] = {'o', ' '};  // each number has 12 bytes of room, so the separators fit
            char* q = std::to_chars(buf + 2, buf + 14, engine_.row_of(cell)).ptr;
            *q++ = ' ';
            q = std::to_chars(q, q + 12, engine_.col_of(cell)).ptr;
            *q++ = ' ';
            *q++ = m.dir;
            auto& lines = lines_[m.owner];
            if (line_count_[m.owner] == lines.size()) lines.emplace_back();
            lines[line_count_[m.owner]++].assign(buf, q);
        }
        for (int p = 0; p < players_; ++p) {
            if (!engine_.is_alive(p)) continue;
            engine_.do_moves(p, std::span<const std::string>(lines_[p].data(), line_count_[p]), verdicts_);
            if (!verdicts_.ignored.empty() || !verdicts_.invalid.empty())
                return Difference{"orders", "player " + std::to_string(p) + " order rejected: " +
                                                (verdicts_.invalid.empty() ? verdicts_.ignored[0] : verdicts_.invalid[0])};
            if (recorded_fault_at(p, turn) && game_.status[p] == "invalid") {
                engine_.kill_player(p);
                status_[p] = "invalid";
            }
        }
        return std::nullopt;
    }

    MaybeDifference compare_turn(int turn) const {
        if (auto d = compare_ants(turn)) return d;
        if (auto d = compare_food(turn)) return d;
        if (auto d = compare_hills(turn)) return d;
        return compare_histories(turn);
    }

    MaybeDifference compare_ants(int turn) const {
        const auto& ants = engine_.ants();
        std::size_t recorded_now = 0;
        while (recorded_now < rec_.ants.size() && rec_.ants[recorded_now].start <= turn) ++recorded_now;
        if (ants.size() != recorded_now)
            return Difference{"ants", "our engine has " + std::to_string(ants.size()) + " ants, the replay " +
                                          std::to_string(recorded_now) + " (spawns differ)"};
        for (std::size_t i = 0; i < ants.size(); ++i) {
            const Ant& a = ants[i];
            const auto& ra = rec_.ants[i];
            if (a.initial_cell != ra.cell || a.owner != ra.owner || a.spawn_turn != ra.start)
                return Difference{"ants", "ant " + std::to_string(i) + " spawned at " + coords(engine_, a.initial_cell) +
                                              " owner " + std::to_string(a.owner) + ", replay at " + coords(engine_, ra.cell) +
                                              " owner " + std::to_string(ra.owner)};
            const bool rec_dead = ra.end <= turn;
            if (rec_dead != !a.alive() || (rec_dead && a.die_turn != ra.end))
                return Difference{"ants", "ant " + std::to_string(i) + " at " + coords(engine_, a.cell) + " is " +
                                              (a.alive() ? "alive" : "dead since turn " + std::to_string(a.die_turn)) +
                                              ", replay says it dies at turn " + std::to_string(ra.end)};
            if (a.spawn_turn < turn && (a.alive() || a.die_turn == turn)) {  // it moved this turn
                const std::size_t k = static_cast<std::size_t>(turn - a.spawn_turn - 1);
                if (k < a.orders.size() && (k >= ra.orders.size() || a.orders[k] != ra.orders[k]))
                    return Difference{"ants", "ant " + std::to_string(i) + " executed '" + std::string(1, a.orders[k]) +
                                                  "', replay '" + (k < ra.orders.size() ? std::string(1, ra.orders[k]) : "") + "'"};
            }
        }
        return std::nullopt;
    }

    MaybeDifference compare_food(int turn) const {
        const auto& food_items = engine_.food();
        std::size_t food_now = 0;
        while (food_now < rec_.food.size() && rec_.food[food_now].start <= turn) ++food_now;
        if (food_items.size() != food_now)
            return Difference{"food", "our engine has " + std::to_string(food_items.size()) + " food items, the replay " + std::to_string(food_now)};
        for (std::size_t j = 0; j < food_items.size(); ++j) {
            const Food& f = food_items[j];
            const auto& rf = rec_.food[j];
            const bool rec_gone = rf.end <= turn;
            const bool gone = f.end_turn >= 0;
            if (rec_gone != gone || (gone && (f.end_turn != rf.end || f.owner != rf.owner)))
                return Difference{"food", "food at " + coords(engine_, f.cell) + ": ours " +
                                              (gone ? "removed at " + std::to_string(f.end_turn) + " owner " + std::to_string(f.owner) : "on the map") +
                                              ", replay end " + std::to_string(rf.end) + " owner " + std::to_string(rf.owner)};
        }
        return std::nullopt;
    }

    MaybeDifference compare_hills(int turn) const {
        for (std::size_t h = 0; h < engine_.hills().size(); ++h) {
            const Hill& hill = engine_.hills()[h];
            const bool rec_razed = rec_.hill_end[h] <= turn;
            if (rec_razed != (hill.end_turn >= 0))
                return Difference{"hills", "hill at " + coords(engine_, hill.cell) + ": ours end " +
                                               std::to_string(hill.end_turn) + ", replay end " + std::to_string(rec_.hill_end[h])};
        }
        return std::nullopt;
    }

    MaybeDifference compare_histories(int turn) const {
        auto compare = [&](const char* field, const std::vector<int>& ours, const std::vector<int>& recorded,
                           int p) -> MaybeDifference {
            if (value_at(ours, turn) == value_at(recorded, turn)) return std::nullopt;
            return Difference{field, "player " + std::to_string(p) + ": ours " + std::to_string(value_at(ours, turn)) +
                                         ", replay " + std::to_string(value_at(recorded, turn))};
        };
        for (int p = 0; p < players_; ++p) {
            if (auto d = compare("scores", engine_.score_history()[p], rec_.scores[p], p)) return d;
            if (auto d = compare("hive_history", engine_.hive_history()[p], rec_.hive[p], p)) return d;
        }
        return std::nullopt;
    }

    // The end of the game: every recorded replaydata field, then the wrapper's results.
    MaybeDifference compare_end(int turn) const {
        const json& rd = game_.replaydata;
        const json ours = engine_.replaydata();
        for (const char* key : {"ants", "food", "hills", "scores", "hive_history", "bonus", "cutoff", "winning_turn",
                                "ranking_turn", "map"}) {
            if (!rd.contains(key)) continue;
            if (ours[key] != rd[key]) return Difference{key, first_json_difference(ours[key], rd[key])};
        }
        const json& meta = game_.meta;
        if (meta.contains("game_length") && meta["game_length"].get<int>() != turn)
            return Difference{"game_length", "ours " + std::to_string(turn) + ", replay " + meta["game_length"].dump()};
        if (meta.contains("score") && json(engine_.scores()) != meta["score"])
            return Difference{"score", "ours " + json(engine_.scores()).dump() + ", replay " + meta["score"].dump()};
        if (meta.contains("rank") && json(engine_.ranks()) != meta["rank"])
            return Difference{"rank", "ours " + json(engine_.ranks()).dump() + ", replay " + meta["rank"].dump()};
        if (!game_.status.empty() && status_ != game_.status)
            return Difference{"status", "ours " + json(status_).dump() + ", replay " + json(game_.status).dump()};
        if (!game_.playerturns.empty() && playerturns_ != game_.playerturns)
            return Difference{"playerturns", "ours " + json(playerturns_).dump() + ", replay " + json(game_.playerturns).dump()};
        return std::nullopt;
    }

    // The whole values, or for arrays the first index where they differ (each cut to 200 chars).
    static std::string first_json_difference(const json& ours, const json& recorded) {
        std::string detail = "ours " + ours.dump().substr(0, 200) + ", replay " + recorded.dump().substr(0, 200);
        if (ours.is_object() && recorded.is_object()) {
            for (const auto& [key, value] : recorded.items())
                if (!ours.contains(key) || ours[key] != value)
                    return "'" + key + "': " + first_json_difference(ours.value(key, json()), value);
            return detail;
        }
        if (ours.is_array() && recorded.is_array()) {
            for (std::size_t i = 0; i < std::max(ours.size(), recorded.size()); ++i) {
                const json a = i < ours.size() ? ours[i] : json();
                const json b = i < recorded.size() ? recorded[i] : json();
                if (a != b) return "index " + std::to_string(i) + ": ours " + a.dump().substr(0, 200) + ", replay " + b.dump().substr(0, 200);
            }
        }
        return detail;
    }

    const RecordedGame& game_;
    const int players_;
    std::shared_ptr<CPythonRandom> python_;
    ScheduledFood* food_;
    AntsEngine engine_;
    const RecordedTables& rec_;
    const ReplayHooks& hooks_;
    std::vector<std::string> status_;
    std::vector<int> playerturns_;
    std::vector<std::vector<std::string>> lines_;
    std::vector<std::size_t> line_count_;
    OrderVerdicts verdicts_;
    VerifyOutcome outcome_;
};

}  // namespace

VerifyOutcome verify_recorded_game(const RecordedGame& game, bool seed_exact, const ReplayHooks& hooks) {
    const RecordedTables rec(game);
    if (hooks.setup_begins) hooks.setup_begins();
    if (!seed_exact) return ReplayVerifier(game, rec, recorded_inputs(game), hooks).run();
    EngineInputs inputs;
    inputs.params = game.params;
    inputs.python = std::make_shared<CPythonRandom>(inputs.params.engine_seed);
    if (auto mismatch = draw_food_parameters(*inputs.python, inputs.params, game.params)) {
        VerifyOutcome outcome;
        outcome.first_difference = *mismatch;
        return outcome;
    }
    inputs.food_source = std::make_unique<SymmetricFood>(inputs.python);
    inputs.spawn_key = [python = inputs.python](const AntsEngine&, int) { return python->random(); };
    return ReplayVerifier(game, rec, std::move(inputs), hooks).run();
}

VerifyOutcome verify_replay_file(const std::filesystem::path& path) {
    return verify_recorded_game(load_recorded_game(path));
}

}  // namespace arb::ants
