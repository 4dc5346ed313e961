#pragma once
// The pure engine driven through players that answer at once: each wait's messages are
// delivered, its question asked and the answer applied, in the engine's order. The referee (over
// HTTP), the log replays and the rule cases' scripted players take this shape.
#include <optional>
#include <string>

#include "rules/koehandel/koehandel_engine.hpp"

namespace arb::koehandel {

class Players {
public:
    virtual ~Players() = default;
    // A message that needs no answer (information, receive, trade collect, end).
    virtual void tell(int seat, const Message& message) = 0;
    // A message that asks for a decision. nullopt = no answer (missing, late, refused).
    virtual std::optional<Fields> ask(int seat, const Message& message) = 0;
    // The engine applied a default action for the seat (for the match record).
    virtual void adjudicated(int seat, const std::string& what) { (void)seat, (void)what; }
};

// The whole game: "begin" to everyone, the turns until the end, "end" with the scores.
void play(Game& game, Players& players);
// Delivers "begin" to everyone (a new game's first wait).
void begin(Game& game, Players& players);
// Plays the next turn, its last messages delivered; false (nothing delivered) once no turn is
// left: finish() delivers "end".
bool play_turn(Game& game, Players& players);
// Delivers "end" with the scores; a game not over yet is ended where it stands.
void finish(Game& game, Players& players);

}  // namespace arb::koehandel
