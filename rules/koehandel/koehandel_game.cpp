#include "rules/koehandel/koehandel_game.hpp"

#include "rules/koehandel/koehandel_referee.hpp"
#include "rules/koehandel/koehandel_verify.hpp"

namespace arb::koehandel {

GameDescriptor describe_game() {
    GameDescriptor game;
    game.name = "koehandel";
    game.replay_file = "player-logs";
    game.summary = "Koehandel (GoT 2010): auctions, cow trades and bluffs; bots serve HTTP GET; "
                   "4 seats, empty ones are house bots";
    game.min_bots = 1;
    game.max_bots = kSeats;
    game.replay_flag = "log";
    game.options = {
        {"edition", OptionKind::integer, "2", "Cow-trade money: 2 = both offers change hands, 1 = only the winner's"},
        {"turn-ms", OptionKind::integer, "5000", "Time for each reply in ms (connecting included)", false, {"reply-ms"}},
        {"startup-ms", OptionKind::integer, "10000", "Time for a bot's first reply in ms (it is starting up)"},
        {"max-trade-turns", OptionKind::integer, "200", "Turns after the deck is empty before the game is scored"},
        {"max-faults", OptionKind::integer, "3",
         "Failed replies to any request, decision or notification (late, refused, broken), after which a bot is out; "
         "a failed decision gets its default action (0 = never out)"},
        {"bluffer-sits-out", OptionKind::flag, "", "A caught bluffer may not bid when the card is auctioned again"},
    };
    game.plan = plan_match;
    game.referee = referee_match;
    game.verify = verify_player_logs;
    game.viewer = viewer();
    return game;
}

}  // namespace arb::koehandel
