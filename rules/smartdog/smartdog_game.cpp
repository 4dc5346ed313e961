#include "rules/smartdog/smartdog_game.hpp"

#include "rules/smartdog/smartdog_map.hpp"
#include "rules/smartdog/smartdog_referee.hpp"
#include "rules/smartdog/smartdog_verify.hpp"

namespace arb::smartdog {

GameDescriptor describe_game() {
    GameDescriptor game;
    game.name = "smartdog";
    game.summary = "smart-dog (Actimind 2012): herd sheep into your pen with dogs; bots connect over loopback TCP";
    game.min_bots = 1;
    game.max_bots = 4;
    game.replay_flag = "replay";
    // The board repeats the map's tile once per player: any map seats 1 to 4 bots.
    game.map_files = MapFiles{"map", "maps", [](const std::filesystem::path& path) -> std::optional<int> {
                                  (void)read_tile(path.string());
                                  return std::nullopt;
                              }};
    game.options = {
        {"map", OptionKind::path, "", "The map tile file (original format: optional JSON line, then rows)", true},
        {"turns", OptionKind::integer, "", "Turn limit (default: the map's turnsLimit)", false},
        {"turn-ms", OptionKind::integer, "10000", "Per-turn limit in ms for a player's commands up to its `end`", false},
        {"port", OptionKind::integer, "0", "The loopback port of the first seat, the next seats on the next ports (0 = a free port each)", false},
        {"on-fault", OptionKind::text, "forfeit",
         "forfeit: a faulty player scores -10 and the others play on; abort: the game stops, no winner, as the original", false},
        {"arrival", OptionKind::flag, "false",
         "Apply commands as they arrive, like the original (live play; not reproducible)", false},
    };
    game.plan = plan_match;
    game.referee = referee_match;
    game.verify = [](const std::filesystem::path& path) { return verify_transcript(path); };
    game.viewer = viewer();
    return game;
}

}  // namespace arb::smartdog
