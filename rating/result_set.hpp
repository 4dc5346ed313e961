#pragma once
// Pairwise results as the rating model consumes them: players by index, and games between
// a "white" (first mover) and a "black" player with a win/draw/loss outcome.
// Filled from the store (Store::pair_games), from PGN headers (read_pgn), or by tests.
#include <cstdint>
#include <string>
#include <string_view>
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
    // Names to indices: open addressing over the players (a slot holds index + 1, 0 is empty),
    // at most half full, each player's hash kept to skip most string comparisons.
    static std::uint64_t name_hash(std::string_view name);
    void grow_index();

    std::vector<std::string> players_;
    std::vector<std::uint64_t> hashes_;
    std::vector<std::int32_t> slots_;
    std::vector<PairwiseGame> games_;
};

}  // namespace arb::rating
