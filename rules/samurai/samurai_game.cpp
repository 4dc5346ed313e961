#include "rules/samurai/samurai_game.hpp"

#include "rules/samurai/samurai_referee.hpp"
#include "rules/samurai/samurai_replay.hpp"
#include "rules/samurai/samurai_verify.hpp"

namespace arb::samurai {

GameDescriptor describe_game() {
    GameDescriptor game;
    game.name = "samurai";
    game.replay_file = "replay.dighere";
    game.summary = "SamurAI Dig Here (2019-20): a match is two games on one field, positions swapped; "
                   "gold summed";
    game.min_bots = 2;
    game.max_bots = 2;
    game.replay_flag = "log";
    // Every field seats the game's two bots; reading it checks that it is a field.
    game.map_files = MapFiles{"field", "fields", [](const std::filesystem::path& path) -> std::optional<int> {
                                  (void)read_game_log(path);
                                  return std::nullopt;
                              }};
    game.options = {
        {"field", OptionKind::path, "", "The .dighere field (official format) both games are played on", true},
        {"total-time-ms", OptionKind::integer, "",
         "Think time per agent process for a game, in ms (default: the field's thinkTime)", false, {"think-time"}},
    };
    game.plan = plan_match;
    game.referee = referee_match;
    game.verify = [](const std::filesystem::path& path) { return verify_game_log(read_game_log(path)); };
    game.viewer = viewer();
    return game;
}

}  // namespace arb::samurai
