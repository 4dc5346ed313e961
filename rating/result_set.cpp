#include "rating/result_set.hpp"

#include <stdexcept>

namespace arb::rating {

Outcome outcome_from_score(double white_score) {
    if (white_score > 0.75) return Outcome::white_wins;
    if (white_score < 0.25) return Outcome::black_wins;
    return Outcome::draw;
}

int ResultSet::player_index(std::string_view name) {
    if (auto it = index_.find(name); it != index_.end()) return it->second;
    const int index = static_cast<int>(players_.size());
    players_.emplace_back(name);
    index_.emplace(std::string(name), index);
    return index;
}

int ResultSet::find_player(std::string_view name) const {
    auto it = index_.find(name);
    return it == index_.end() ? -1 : it->second;
}

void ResultSet::add_game(std::string_view white, std::string_view black, Outcome outcome) {
    const int w = player_index(white);
    const int b = player_index(black);
    add_game(w, b, outcome);
}

void ResultSet::add_game(int white, int black, Outcome outcome) {
    const int n = static_cast<int>(players_.size());
    if (white < 0 || black < 0 || white >= n || black >= n || white == black)
        throw std::invalid_argument("pairwise game with bad player indices");
    games_.push_back({white, black, outcome});
}

}  // namespace arb::rating
