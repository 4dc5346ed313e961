#include "rating/result_set.hpp"

#include <algorithm>
#include <stdexcept>

namespace arb::rating {

Outcome outcome_from_score(double white_score) {
    if (white_score > 0.75) return Outcome::white_wins;
    if (white_score < 0.25) return Outcome::black_wins;
    return Outcome::draw;
}

std::uint64_t ResultSet::name_hash(std::string_view name) {
    std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a: names are short
    for (const char ch : name) h = (h ^ static_cast<unsigned char>(ch)) * 0x100000001b3ULL;
    return h ^ (h >> 29);
}

void ResultSet::grow_index() {
    slots_.assign(std::max<std::size_t>(16, slots_.size() * 2), 0);
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t p = 0; p < players_.size(); ++p) {
        std::size_t at = hashes_[p] & mask;
        while (slots_[at] != 0) at = (at + 1) & mask;
        slots_[at] = static_cast<std::int32_t>(p + 1);
    }
}

int ResultSet::player_index(std::string_view name) {
    const std::uint64_t h = name_hash(name);
    if (!slots_.empty()) {
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t at = h & mask; slots_[at] != 0; at = (at + 1) & mask) {
            const auto p = static_cast<std::size_t>(slots_[at] - 1);
            if (hashes_[p] == h && players_[p] == name) return static_cast<int>(p);
        }
    }
    const int index = static_cast<int>(players_.size());
    players_.emplace_back(name);
    hashes_.push_back(h);
    if (2 * players_.size() > slots_.size()) {
        grow_index();
    } else {
        const std::size_t mask = slots_.size() - 1;
        std::size_t at = h & mask;
        while (slots_[at] != 0) at = (at + 1) & mask;
        slots_[at] = index + 1;
    }
    return index;
}

int ResultSet::find_player(std::string_view name) const {
    if (slots_.empty()) return -1;
    const std::uint64_t h = name_hash(name);
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t at = h & mask; slots_[at] != 0; at = (at + 1) & mask) {
        const auto p = static_cast<std::size_t>(slots_[at] - 1);
        if (hashes_[p] == h && players_[p] == name) return static_cast<int>(p);
    }
    return -1;
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
