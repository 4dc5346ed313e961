// An Ants replay for the viewer: the replay file as it is written (ours or the original
// engine's), checked by the game's own reader.
#include "rules/ants/ants_game.hpp"
#include "rules/ants/ants_replay.hpp"

namespace arb::ants {

GameViewer viewer() {
    GameViewer v;
    v.script = viewer_script();
    v.kind = "an Ants replay";
    v.example_replay = "game.replay.json";
    v.recognises = [](const ReplayText& r) {
        return r.json != nullptr && (r.json->contains("replaydata") || r.json->value("challenge", "") == "ants");
    };
    v.read = [](const ReplayText& r) {
        parse_recorded_game(*r.json, r.path.string());
        return *r.json;
    };
    return v;
}

}  // namespace arb::ants
