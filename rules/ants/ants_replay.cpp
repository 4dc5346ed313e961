#include "rules/ants/ants_replay.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "core/user_error.hpp"

namespace arb::ants {
namespace {

using nlohmann::json;

int get_int(const json& obj, const char* key, int fallback) {
    auto it = obj.find(key);
    return it != obj.end() && it->is_number() ? it->get<int>() : fallback;
}

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

}  // namespace

RecordedGame parse_recorded_game(const json& replay, const std::string& source) {
    RecordedGame game;
    const json* data = &replay;
    if (replay.contains("replaydata")) {
        if (replay.value("challenge", "ants") != "ants")
            throw UserError(source + ": not an Ants replay (challenge '" + replay.value("challenge", "") + "')");
        data = &replay.at("replaydata");
        game.meta = replay;
        game.meta.erase("replaydata");
    }
    try {
        game.replaydata = *data;
        const json& rd = game.replaydata;
        game.players = rd.at("players").get<int>();
        const json& map = rd.at("map");
        game.map.rows = map.at("rows").get<int>();
        game.map.cols = map.at("cols").get<int>();
        game.map.players = game.players;
        game.map.water.assign(static_cast<std::size_t>(game.map.rows) * game.map.cols, 0);
        const auto& rows = map.at("data");
        if (static_cast<int>(rows.size()) != game.map.rows) throw UserError(source + ": map.data has the wrong row count");
        for (int r = 0; r < game.map.rows; ++r) {
            const auto line = rows[static_cast<std::size_t>(r)].get<std::string>();
            if (static_cast<int>(line.size()) != game.map.cols) throw UserError(source + ": map row " + std::to_string(r) + " has the wrong width");
            for (int c = 0; c < game.map.cols; ++c)
                if (line[static_cast<std::size_t>(c)] == '%') game.map.water[static_cast<std::size_t>(r) * game.map.cols + c] = 1;
        }
        // Hills in recorded order, which is the original's hill order.
        for (const auto& h : rd.at("hills"))
            game.map.hills.push_back({h.at(0).get<int>(), h.at(1).get<int>(), h.at(2).get<int>()});
        auto& p = game.params;
        p.loadtime_ms = get_int(rd, "loadtime", p.loadtime_ms);
        p.turntime_ms = get_int(rd, "turntime", p.turntime_ms);
        p.turns = get_int(rd, "turns", p.turns);
        p.viewradius2 = get_int(rd, "viewradius2", p.viewradius2);
        p.attackradius2 = get_int(rd, "attackradius2", p.attackradius2);
        p.spawnradius2 = get_int(rd, "spawnradius2", p.spawnradius2);
        if (rd.contains("attack")) {
            const auto rule = rd["attack"].is_string() ? attack_rule_from_name(rd["attack"].get<std::string>()) : std::nullopt;
            if (!rule) throw UserError(source + ": replaydata 'attack' must be focus, closest, support or damage");
            p.attack = *rule;
        }
        p.food_rate = get_int(rd, "food_rate", 0);
        p.food_turn = get_int(rd, "food_turn", 1);
        p.food_start = get_int(rd, "food_start", 0);
        if (rd.contains("engine_seed") && rd["engine_seed"].is_number_integer()) p.engine_seed = rd["engine_seed"].get<std::int64_t>();
        if (rd.contains("player_seed") && rd["player_seed"].is_number_integer()) p.player_seed = rd["player_seed"].get<std::int64_t>();
        if (game.meta.contains("status")) game.status = game.meta["status"].get<std::vector<std::string>>();
        if (game.meta.contains("playerturns")) game.playerturns = game.meta["playerturns"].get<std::vector<int>>();
        for (const char* key : {"ants", "food", "scores", "hive_history"})
            if (!rd.contains(key)) throw UserError(source + ": replaydata has no '" + key + "'");
    } catch (const json::exception& e) {
        throw UserError(source + ": malformed Ants replay: " + e.what());
    }
    return game;
}

RecordedGame load_recorded_game(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw UserError("cannot read replay file '" + path.string() + "'");
    json replay;
    try {
        replay = json::parse(in);
    } catch (const json::exception& e) {
        throw UserError(path.string() + ": not JSON: " + e.what());
    }
    return parse_recorded_game(replay, path.string());
}

std::unique_ptr<ScheduledFood> recorded_food(const RecordedGame& game) {
    std::vector<ScheduledFood::Item> items;
    for (const auto& f : game.replaydata.at("food"))
        items.push_back({f.at(0).get<int>() * game.map.cols + f.at(1).get<int>(), f.at(2).get<int>()});
    return std::make_unique<ScheduledFood>(std::move(items));
}

SpawnKey recorded_spawn_key(const RecordedGame& game) {
    // (turn, cell) pairs where the replay shows a spawn.
    std::vector<std::pair<int, int>> spawns;
    for (const auto& a : game.replaydata.at("ants")) {
        const int start = a.at(2).get<int>();
        if (start > 0) spawns.emplace_back(start, a.at(0).get<int>() * game.map.cols + a.at(1).get<int>());
    }
    std::sort(spawns.begin(), spawns.end());
    return [spawns](const AntsEngine& engine, int hill) {
        const bool shown = std::binary_search(spawns.begin(), spawns.end(),
                                              std::pair{engine.turn(), engine.hills()[hill].cell});
        return shown ? 0.0 : 1.0;
    };
}

VerifyOutcome verify_recorded_game(const RecordedGame& game, bool seed_exact) {
    VerifyOutcome outcome;
    const json& rd = game.replaydata;
    std::unique_ptr<FoodSource> food_source;
    ScheduledFood* food = nullptr;
    SpawnKey spawn_key;
    AntsParams params = game.params;
    std::shared_ptr<CPythonRandom> python;
    if (seed_exact) {
        python = std::make_shared<CPythonRandom>(params.engine_seed);
        // Ants.__init__: food_rate, food_turn, food_start, food_visible drawn from their ranges.
        params.food_rate = static_cast<int>(python->randrange(5, 12));
        params.food_turn = static_cast<int>(python->randrange(19, 38));
        params.food_start = static_cast<int>(python->randrange(75, 176));
        params.food_visible = static_cast<int>(python->randrange(3, 6));
        if (params.food_rate != game.params.food_rate || params.food_turn != game.params.food_turn ||
            params.food_start != game.params.food_start) {
            outcome.first_difference = "turn 0: field 'food_rate/food_turn/food_start' differs: drawn " +
                                       std::to_string(params.food_rate) + "/" + std::to_string(params.food_turn) + "/" +
                                       std::to_string(params.food_start);
            return outcome;
        }
        food_source = std::make_unique<SymmetricFood>(python);
        spawn_key = [python](const AntsEngine&, int) { return python->random(); };
    } else {
        auto scheduled = recorded_food(game);
        food = scheduled.get();
        food_source = std::move(scheduled);
        spawn_key = recorded_spawn_key(game);
    }
    AntsEngine engine(game.map, params, std::move(food_source), std::move(spawn_key));
    // worker/engine.py shuffles the list of live bots every turn with the engine's generator.
    auto shuffle_live_bots = [&] {
        if (!python) return;
        std::vector<int> live;
        for (int p = 0; p < engine.players(); ++p)
            if (engine.is_alive(p)) live.push_back(p);
        python->shuffle(live);
    };

    struct RecAnt { int cell, start, end, owner; std::string orders; };
    std::vector<RecAnt> rec_ants;
    for (const auto& a : rd.at("ants"))
        rec_ants.push_back({engine.cell(a.at(0).get<int>(), a.at(1).get<int>()), a.at(2).get<int>(),
                            a.at(3).get<int>(), a.at(4).get<int>(), a.at(5).get<std::string>()});
    struct RecFood { int cell, start, end, owner; };
    std::vector<RecFood> rec_food;
    for (const auto& f : rd.at("food"))
        rec_food.push_back({engine.cell(f.at(0).get<int>(), f.at(1).get<int>()), f.at(2).get<int>(),
                            f.at(3).get<int>(), f.size() > 4 ? f.at(4).get<int>() : kNoOwner});
    std::vector<int> rec_hill_end;
    for (const auto& h : rd.at("hills")) rec_hill_end.push_back(h.at(3).get<int>());
    const auto rec_scores = rd.at("scores").get<std::vector<std::vector<int>>>();
    const auto rec_hive = rd.at("hive_history").get<std::vector<std::vector<int>>>();
    const int players = game.players;

    auto fail = [&](int turn, const std::string& field, const std::string& what) {
        outcome.ok = false;
        outcome.first_difference = "turn " + std::to_string(turn) + ": field '" + field + "' differs: " + what;
        return outcome;
    };

    std::vector<std::string> status(players, "survived");
    std::vector<int> playerturns(players, 0);
    auto recorded_fault_at = [&](int p, int turn) {
        return static_cast<int>(game.status.size()) == players && is_fault_status(game.status[p]) &&
               static_cast<int>(game.playerturns.size()) == players && game.playerturns[p] == turn;
    };
    // A bot that did not start ("crashed 0") is killed before turn 0.
    for (int p = 0; p < players; ++p)
        if (static_cast<int>(game.status.size()) == players && game.status[p] == "crashed 0") {
            engine.kill_player(p);
            status[p] = "crashed 0";
        }
    engine.start_game();
    shuffle_live_bots();
    // Turn 0: faults at load time.
    for (int p = 0; p < players; ++p)
        if (recorded_fault_at(p, 0) && engine.is_alive(p)) {
            engine.kill_player(p);
            status[p] = game.status[p];
        }
    int turn = 0;
    bool over = engine.game_over();
    while (!over && turn < game.params.turns) {
        ++turn;
        for (int p = 0; p < players; ++p)
            if (engine.is_alive(p)) playerturns[p] = turn;
        engine.start_turn();
        shuffle_live_bots();
        for (int p = 0; p < players; ++p)
            if (engine.is_alive(p) && recorded_fault_at(p, turn) && game.status[p] != "invalid") {
                engine.kill_player(p);
                status[p] = game.status[p];
            }
        std::vector<char> alive_before(players);
        for (int p = 0; p < players; ++p) alive_before[p] = engine.is_alive(p);
        if (!engine.game_over()) {
            std::vector<std::vector<std::string>> lines(players);
            for (std::size_t i = 0; i < rec_ants.size(); ++i) {
                const RecAnt& ra = rec_ants[i];
                const int k = turn - ra.start - 1;
                if (ra.start >= turn || k >= static_cast<int>(ra.orders.size()) || ra.orders[k] == '-') continue;
                if (i >= engine.ants().size() || !engine.ants()[i].alive())
                    return fail(turn, "ants", "recorded ant " + std::to_string(i) + " has an order but does not exist or is dead here");
                lines[ra.owner].push_back("o " + coords(engine, engine.ants()[i].cell) + " " + ra.orders[k]);
            }
            for (int p = 0; p < players; ++p) {
                if (!engine.is_alive(p)) continue;
                const auto verdicts = engine.do_moves(p, lines[p]);
                if (!verdicts.ignored.empty() || !verdicts.invalid.empty())
                    return fail(turn, "orders", "player " + std::to_string(p) + " order rejected: " +
                                                    (verdicts.invalid.empty() ? verdicts.ignored[0] : verdicts.invalid[0]));
                if (recorded_fault_at(p, turn) && game.status[p] == "invalid") {
                    engine.kill_player(p);
                    status[p] = "invalid";
                }
            }
        }
        engine.finish_turn();
        for (int p = 0; p < players; ++p)
            if (alive_before[p] && !engine.is_alive(p) && status[p] == "survived") {
                status[p] = "eliminated";
                playerturns[p] = turn;
            }
        if (food && !food->problems().empty()) return fail(turn, "food", food->problems().front());

        // --- compare this turn ---
        const auto& ants = engine.ants();
        std::size_t recorded_now = 0;
        while (recorded_now < rec_ants.size() && rec_ants[recorded_now].start <= turn) ++recorded_now;
        if (ants.size() != recorded_now)
            return fail(turn, "ants", "our engine has " + std::to_string(ants.size()) + " ants, the replay " +
                                          std::to_string(recorded_now) + " (spawns differ)");
        for (std::size_t i = 0; i < ants.size(); ++i) {
            const Ant& a = ants[i];
            const RecAnt& ra = rec_ants[i];
            if (a.initial_cell != ra.cell || a.owner != ra.owner || a.spawn_turn != ra.start)
                return fail(turn, "ants", "ant " + std::to_string(i) + " spawned at " + coords(engine, a.initial_cell) +
                                              " owner " + std::to_string(a.owner) + ", replay at " + coords(engine, ra.cell) +
                                              " owner " + std::to_string(ra.owner));
            const bool rec_dead = ra.end <= turn;
            if (rec_dead != !a.alive() || (rec_dead && a.die_turn != ra.end))
                return fail(turn, "ants", "ant " + std::to_string(i) + " at " + coords(engine, a.cell) + " is " +
                                              (a.alive() ? "alive" : "dead since turn " + std::to_string(a.die_turn)) +
                                              ", replay says it dies at turn " + std::to_string(ra.end));
            if (a.spawn_turn < turn && (a.alive() || a.die_turn == turn)) {  // it moved this turn
                const std::size_t k = static_cast<std::size_t>(turn - a.spawn_turn - 1);
                if (k < a.orders.size() && (k >= ra.orders.size() || a.orders[k] != ra.orders[k]))
                    return fail(turn, "ants", "ant " + std::to_string(i) + " executed '" + std::string(1, a.orders[k]) +
                                                  "', replay '" + (k < ra.orders.size() ? std::string(1, ra.orders[k]) : "") + "'");
            }
        }
        const auto& food_items = engine.food();
        std::size_t food_now = 0;
        while (food_now < rec_food.size() && rec_food[food_now].start <= turn) ++food_now;
        if (food_items.size() != food_now)
            return fail(turn, "food", "our engine has " + std::to_string(food_items.size()) + " food items, the replay " + std::to_string(food_now));
        for (std::size_t j = 0; j < food_items.size(); ++j) {
            const Food& f = food_items[j];
            const RecFood& rf = rec_food[j];
            const bool rec_gone = rf.end <= turn;
            const bool gone = f.end_turn >= 0;
            if (rec_gone != gone || (gone && (f.end_turn != rf.end || f.owner != rf.owner)))
                return fail(turn, "food", "food at " + coords(engine, f.cell) + ": ours " +
                                              (gone ? "removed at " + std::to_string(f.end_turn) + " owner " + std::to_string(f.owner) : "on the map") +
                                              ", replay end " + std::to_string(rf.end) + " owner " + std::to_string(rf.owner));
        }
        for (std::size_t h = 0; h < engine.hills().size(); ++h) {
            const Hill& hill = engine.hills()[h];
            const bool rec_razed = rec_hill_end[h] <= turn;
            if (rec_razed != (hill.end_turn >= 0))
                return fail(turn, "hills", "hill at " + coords(engine, hill.cell) + ": ours end " +
                                               std::to_string(hill.end_turn) + ", replay end " + std::to_string(rec_hill_end[h]));
        }
        for (int p = 0; p < players; ++p) {
            if (value_at(engine.score_history()[p], turn) != value_at(rec_scores[p], turn))
                return fail(turn, "scores", "player " + std::to_string(p) + ": ours " +
                                                std::to_string(value_at(engine.score_history()[p], turn)) + ", replay " +
                                                std::to_string(value_at(rec_scores[p], turn)));
            if (value_at(engine.hive_history()[p], turn) != value_at(rec_hive[p], turn))
                return fail(turn, "hive_history", "player " + std::to_string(p) + ": ours " +
                                                      std::to_string(value_at(engine.hive_history()[p], turn)) + ", replay " +
                                                      std::to_string(value_at(rec_hive[p], turn)));
        }
        outcome.steps = turn;
        over = engine.game_over();
    }
    engine.finish_game();

    // --- the end of the game: every recorded field ---
    const json ours = engine.replaydata();
    for (const char* key : {"ants", "food", "hills", "scores", "hive_history", "bonus", "cutoff", "winning_turn",
                            "ranking_turn"}) {
        if (!rd.contains(key)) continue;
        if (ours[key] != rd[key]) {
            std::string detail = "ours " + ours[key].dump().substr(0, 200) + ", replay " + rd[key].dump().substr(0, 200);
            if (ours[key].is_array() && rd[key].is_array()) {
                for (std::size_t i = 0; i < std::max(ours[key].size(), rd[key].size()); ++i) {
                    const json a = i < ours[key].size() ? ours[key][i] : json();
                    const json b = i < rd[key].size() ? rd[key][i] : json();
                    if (a != b) {
                        detail = "index " + std::to_string(i) + ": ours " + a.dump().substr(0, 200) + ", replay " + b.dump().substr(0, 200);
                        break;
                    }
                }
            }
            return fail(turn, key, detail);
        }
    }
    if (game.meta.contains("game_length") && game.meta["game_length"].get<int>() != turn)
        return fail(turn, "game_length", "ours " + std::to_string(turn) + ", replay " + game.meta["game_length"].dump());
    if (game.meta.contains("score") && json(engine.scores()) != game.meta["score"])
        return fail(turn, "score", "ours " + json(engine.scores()).dump() + ", replay " + game.meta["score"].dump());
    if (game.meta.contains("rank") && json(engine.ranks()) != game.meta["rank"])
        return fail(turn, "rank", "ours " + json(engine.ranks()).dump() + ", replay " + game.meta["rank"].dump());
    if (!game.status.empty() && status != game.status)
        return fail(turn, "status", "ours " + json(status).dump() + ", replay " + json(game.status).dump());
    if (!game.playerturns.empty() && playerturns != game.playerturns)
        return fail(turn, "playerturns", "ours " + json(playerturns).dump() + ", replay " + json(game.playerturns).dump());
    outcome.ok = true;
    outcome.steps = turn;
    return outcome;
}

VerifyOutcome verify_replay_file(const std::filesystem::path& path) {
    return verify_recorded_game(load_recorded_game(path));
}

}  // namespace arb::ants
