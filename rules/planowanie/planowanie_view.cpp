// A Planowanie log for the viewer: the log as it is written, checked by the game's own reader.
#include "rules/planowanie/planowanie_game.hpp"
#include "rules/planowanie/planowanie_replay.hpp"

namespace arb::planowanie {

GameViewer viewer() {
    GameViewer v;
    v.script = viewer_script();
    v.kind = "a Planowanie log";
    v.example_replay = "game.json";
    v.recognises = [](const ReplayText& r) {
        return r.json != nullptr && r.json->value("game", "") == "planowanie" && r.json->contains("deals");
    };
    v.read = [](const ReplayText& r) {
        game_log_from_json(*r.json);
        return *r.json;
    };
    return v;
}

}  // namespace arb::planowanie
