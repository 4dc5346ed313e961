// The Ants engine's record of a finished game: the final map rows and the original's
// replaydata object (ants.md 8.1).
#include "rules/ants/ants_engine.hpp"

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/ants/ants_engine_internal.hpp"

namespace arb::ants {

std::vector<std::string> AntsEngine::map_rows() const {
    // The original renders through MAP_RENDER = "abcdefghij" "ABCDEFGHIJ" "0123456789" "?%*.!"
    // indexed by the square's value (+10 for a hill with an ant, +20 for a hill without one,
    // where the value of an empty hill is LAND = -2, hence 'I'; negative values count from the
    // end). 'J' is player 9's ant on a hill.
    static const std::string render = "abcdefghijABCDEFGHIJ0123456789?%*.!";
    auto at = [&](int index) { return render[static_cast<std::size_t>((index + static_cast<int>(render.size())) % static_cast<int>(render.size()))]; };
    std::vector<std::string> out(rows_, std::string(cols_, '.'));
    for (int c = 0; c < cells_; ++c) {
        int value = -2;  // LAND
        if (water_[c]) value = -4;
        else if (ant_at_[c] >= 0) value = ants_[ant_at_[c]].owner;
        else if (food_at_[c] >= 0) value = -3;
        if (hill_at_[c] >= 0) value += ant_at_[c] >= 0 ? 10 : 20;
        out[row_of(c)][col_of(c)] = at(value);
    }
    return out;
}

nlohmann::json AntsEngine::replaydata() const {
    using nlohmann::json;
    json r;
    r["revision"] = 3;
    r["players"] = players_;
    r["loadtime"] = params_.loadtime_ms;
    r["turntime"] = params_.turntime_ms;
    r["turns"] = params_.turns;
    r["viewradius2"] = params_.viewradius2;
    r["attackradius2"] = params_.attackradius2;
    r["spawnradius2"] = params_.spawnradius2;
    r["engine_seed"] = params_.engine_seed;
    r["player_seed"] = params_.player_seed;
    r["food_rate"] = params_.food_rate;
    r["food_turn"] = params_.food_turn;
    r["food_start"] = params_.food_start;
    // Not in the original's replays (it does not record its --attack); written only for the
    // other battle rules so `arbiter verify` replays such a game with its rule.
    if (params_.attack != AttackRule::focus) r["attack"] = std::string(attack_rule_name(params_.attack));
    r["map"] = {{"rows", rows_}, {"cols", cols_}, {"data", map_rows()}};
    json food = json::array();
    for (const auto& f : food_) {
        json item = {row_of(f.cell), col_of(f.cell), f.start_turn, f.end_turn < 0 ? turn_ + 1 : f.end_turn};
        if (f.owner != kNoOwner) item.push_back(f.owner);
        food.push_back(std::move(item));
    }
    r["food"] = std::move(food);
    json ants = json::array();
    for (const auto& a : ants_)
        ants.push_back({row_of(a.initial_cell), col_of(a.initial_cell), a.spawn_turn,
                        a.alive() ? turn_ + 1 : a.die_turn, a.owner, a.orders});
    r["ants"] = std::move(ants);
    json hills = json::array();
    for (const auto& h : hills_)
        hills.push_back({row_of(h.cell), col_of(h.cell), h.owner, h.end_turn < 0 ? turn_ + 1 : h.end_turn});
    r["hills"] = std::move(hills);
    r["scores"] = score_history_;
    r["bonus"] = bonus_;
    r["hive_history"] = hive_history_;
    r["winning_turn"] = winning_turn_;
    r["ranking_turn"] = ranking_turn_;
    r["cutoff"] = cutoff_;
    return r;
}

}  // namespace arb::ants
