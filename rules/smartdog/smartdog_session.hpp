#pragma once
// The server side of the smart-dog wire protocol (smartdog.md 9) over the engine: what each
// player is sent in reply to what it says, with the original's texts and separators. It knows
// nothing of sockets or clocks: the referee feeds it the players' lines in the order it decides
// (arrival order in the original; a fixed interleaving for reproducible matches), `verify`
// feeds it a recorded transcript.
#include <string>
#include <string_view>
#include <vector>

#include "rules/smartdog/smartdog_engine.hpp"

namespace arb::smartdog {

struct Outgoing {
    int player = 0;  // 1..P
    std::string line;
};

std::string format_score(double score);  // as the original prints numbers: 10, -6.25, 7

class Session {
public:
    Session(const Tile& tile, int players);

    // Player `player` (1..P, in join order) joined; the last join starts the game.
    void join(int player);
    // One line from a joined player: `do ...`, `end` or anything else (an `error` reply).
    void receive(int player, std::string_view line);
    // A faulty player is out: its dogs stand still, it never holds up a turn again, and it is
    // never the winner (ruling 6, forfeit). Ends the game if nobody is left.
    void eliminate(int player);
    // The original's answer to a fault (ruling 6, abort): the game stops at once with no winner;
    // every other player that joined is told `player.gone`, and nobody gets credit.
    void abort_game(int player);

    bool started() const { return started_; }
    bool finished() const { return finished_; }
    bool waiting_for(int player) const;  // joined, alive, game running, no `end` yet this turn
    bool eliminated(int player) const { return eliminated_[static_cast<std::size_t>(player - 1)]; }
    int winner() const { return winner_; }
    // The score for results: the engine's, or -10 for a player put out by a fault (ruling 6).
    double result_score(int player) const {
        if (eliminated(player)) return -10.0;
        return aborted_ ? 0.0 : engine_.score(player);
    }
    bool aborted() const { return aborted_; }
    int turns_played() const { return turns_played_; }
    const Engine& engine() const { return engine_; }
    std::vector<Outgoing> take();  // lines produced since the last call, in order

private:
    void send(int player, std::string line) {
        if (!eliminated(player)) out_.push_back({player, std::move(line)});  // nobody listens
    }
    void start_game();
    void start_turn();
    void maybe_end_turn();
    void finish();

    Engine engine_;
    int players_ = 0;
    int joined_ = 0;
    bool started_ = false;
    bool finished_ = false;
    bool aborted_ = false;
    int winner_ = 0;
    int turns_played_ = 0;
    std::vector<bool> ended_;
    std::vector<bool> eliminated_;
    std::vector<bool> joined_players_;
    std::vector<Outgoing> out_;
};

}  // namespace arb::smartdog
