#pragma once
// Pairwise results as the rating model consumes them: players by index, and games between
// a "white" (first mover) and a "black" player with a win/draw/loss outcome.
// Filled from the store (Store::pair_games), from PGN headers (read_pgn), or by tests.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace arb::rating {

// The same coding as bayeselo's `addresult w b r`: 0 black wins, 1 draw, 2 white wins.
enum class Outcome : std::uint8_t { black_wins = 0, draw = 1, white_wins = 2 };

// score 1 -> white_wins, 0.5 -> draw, 0 -> black_wins (nearest of the three).
Outcome outcome_from_score(double white_score);

struct PairwiseGame {
    std::int32_t white = 0;
    std::int32_t black = 0;
    Outcome outcome = Outcome::draw;

    friend bool operator==(const PairwiseGame&, const PairwiseGame&) = default;
};

class ResultSet {
public:
    // Index of a player, added at the end when new.
    int player_index(std::string_view name);
    // Index of a player, or -1 when absent.
    int find_player(std::string_view name) const;
    void add_game(std::string_view white, std::string_view black, Outcome outcome);
    void add_game(int white, int black, Outcome outcome);

    const std::vector<std::string>& players() const { return players_; }
    const std::vector<PairwiseGame>& games() const { return games_; }
    std::vector<PairwiseGame>& games() { return games_; }
    void reserve_games(std::size_t n) { games_.reserve(n); }
    bool empty() const { return games_.empty(); }

private:
    // Heterogeneous lookup: finding a name from a string_view allocates nothing.
    struct NameHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::vector<std::string> players_;
    std::unordered_map<std::string, int, NameHash, std::equal_to<>> index_;
    std::vector<PairwiseGame> games_;
};

}  // namespace arb::rating
