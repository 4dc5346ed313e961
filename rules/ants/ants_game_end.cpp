// Ants cutoff bookkeeping (ants.md 3.8), ranks and significant turns, and the end of the game
// (section 4): game_over's cutoff reasons and finish_game's lone-survivor bonus.
#include "rules/ants/ants_engine.hpp"

#include <algorithm>
#include <vector>

#include "rules/ants/ants_engine_internal.hpp"

namespace arb::ants {
using engine_detail::kHillPoints;
using engine_detail::kRazePoints;

// ants.md 3.8 cutoff bookkeeping: one side with >= cutoff_percent of the population.
void AntsEngine::update_cutoff() {
    std::vector<long long> pop(players_, 0);
    std::vector<int> key_order;  // Python dict insertion order: ant owners, hill owners, FOOD
    std::vector<char> present(players_, 0);
    for (int a : live_) {
        const int o = ant_owner_[a];
        ++pop[o];
        if (!present[o]) { present[o] = 1; key_order.push_back(o); }
    }
    for (const auto& hill : hills_) {
        if (!hill.standing()) continue;
        pop[hill.owner] += hive_[hill.owner];  // quirk 12.4: once per standing hill
        if (!present[hill.owner]) { present[hill.owner] = 1; key_order.push_back(hill.owner); }
    }
    const long long food_count = static_cast<long long>(live_food_.size());
    long long total = food_count;
    for (long long v : pop) total += v;
    key_order.push_back(kFoodLeader);
    const double threshold = static_cast<double>(total) * params_.cutoff_percent;
    for (int key : key_order) {
        const long long count = key == kFoodLeader ? food_count : pop[key];
        if (static_cast<double>(count) >= threshold) {
            if (cutoff_bot_ == key) {
                // "hill_kill" stall: an ant died this turn on a standing hill of someone else
                bool hill_kill = false;
                for (int a : killed_ants_) {
                    const int h = hill_at_[ants_[a].cell];
                    if (h >= 0 && hills_[h].standing() && hills_[h].owner != key) hill_kill = true;
                }
                if (!hill_kill) ++cutoff_turns_;
            } else {
                cutoff_bot_ = key;
                cutoff_turns_ = 1;
            }
            return;
        }
    }
    cutoff_bot_ = -2;
    cutoff_turns_ = 0;
}

std::vector<int> AntsEngine::ranks() const {
    std::vector<int> out(players_, 0);
    for (int p = 0; p < players_; ++p)
        for (int q = 0; q < players_; ++q)
            if (score_[q] > score_[p]) ++out[p];
    return out;
}

void AntsEngine::calc_significant_turns() {
    const auto ranking = ranks();
    if (!have_significant_ || ranking != ranking_bots_) ranking_turn_ = turn_;
    ranking_bots_ = ranking;
    const int best = *std::max_element(score_.begin(), score_.end());
    std::vector<int> winners;
    for (int p = 0; p < players_; ++p)
        if (score_[p] == best) winners.push_back(p);
    if (!have_significant_ || winners != winning_bot_) winning_turn_ = turn_;
    winning_bot_ = winners;
    have_significant_ = true;
}

// ants.md section 4
bool AntsEngine::is_rank_stabilized() const {
    for (int p = 0; p < players_; ++p) {
        const bool has_hill = std::any_of(hills_.begin(), hills_.end(),
                                          [&](const Hill& h) { return h.owner == p && h.standing(); });
        if (!is_alive(p) || !has_hill) continue;
        int max_score = score_[p];
        for (const auto& h : hills_)
            if (h.standing() && h.owner != p) max_score += kHillPoints;
        for (int q = 0; q < players_; ++q) {
            if (q == p) continue;
            int min_score = score_[q];
            for (const auto& h : hills_)
                if (h.standing() && h.owner == q) min_score += kRazePoints;
            if ((score_[p] < score_[q] && max_score >= min_score) ||
                (score_[p] == score_[q] && max_score > min_score))
                return false;
        }
    }
    return true;
}

bool AntsEngine::game_over() {
    int remaining = 0;
    for (int p = 0; p < players_; ++p) remaining += is_alive(p) ? 1 : 0;
    if (remaining < 1) { cutoff_ = "extermination"; return true; }
    if (remaining == 1) { cutoff_ = "lone survivor"; return true; }
    if (cutoff_turns_ >= params_.cutoff_turn) {
        cutoff_ = cutoff_bot_ == kFoodLeader ? "food not being gathered" : "ants not razing hills";
        return true;
    }
    if (is_rank_stabilized()) { cutoff_ = "rank stabilized"; return true; }
    return false;
}

void AntsEngine::finish_game() {
    std::vector<int> remaining;
    for (int p = 0; p < players_; ++p)
        if (is_alive(p)) remaining.push_back(p);
    if (remaining.size() == 1) {
        const int survivor = remaining[0];
        for (auto& hill : hills_) {
            if (hill.owner == survivor) continue;
            if (hill.standing()) {
                bonus_[survivor] += kHillPoints;
                hill.killed_by = survivor;  // end_turn stays "end of game" (quirk 12.10)
            }
            if (!hill.raze_points) {
                bonus_[hill.owner] += kRazePoints;
                hill.raze_points = true;
            }
        }
        for (int p = 0; p < players_; ++p) score_[p] += bonus_[p];
    }
    calc_significant_turns();
    if (cutoff_.empty()) cutoff_ = "turn limit reached";
    state_dirty_ = true;
}

}  // namespace arb::ants
