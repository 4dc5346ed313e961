#include "rules/koehandel/koehandel_play.hpp"

namespace arb::koehandel {
namespace {

void deliver(const Wait& wait, Players& players) {
    for (const Notice& notice : wait.deliver) {
        if (notice.is_default())
            players.adjudicated(notice.seat, notice.default_action);
        else
            players.tell(notice.seat, notice.message);
    }
}

}  // namespace

void play(Game& game, Players& players) {
    begin(game, players);
    while (play_turn(game, players)) {
    }
    finish(game, players);
}

void begin(Game& game, Players& players) { deliver(game.wait(), players); }

bool play_turn(Game& game, Players& players) {
    if (game.over()) return false;
    game.advance(std::nullopt);  // between turns: on to the next one
    if (game.over()) return false;
    for (;;) {
        deliver(game.wait(), players);
        if (!game.wait().question) return true;
        const Question question = *game.wait().question;
        game.advance(players.ask(question.seat, question.message));
    }
}

void finish(Game& game, Players& players) {
    if (!game.over()) game.end();
    deliver(game.wait(), players);
}

}  // namespace arb::koehandel
