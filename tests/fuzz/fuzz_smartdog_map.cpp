// smart-dog map tiles: the parser, then a session on the map with every player joined and a
// few turns of `end`.
#include "rules/smartdog/smartdog_engine.hpp"
#include "rules/smartdog/smartdog_session.hpp"
#include "tests/fuzz/fuzz_target.hpp"

ARBITER_FUZZ_TARGET(smartdog_map) {
    const arb::smartdog::Tile tile = arb::smartdog::parse_tile(data, "fuzz map");
    const int players = 1 + static_cast<int>(data.size() % 4);
    arb::smartdog::Session session(tile, players);
    for (int p = 1; p <= players; ++p) session.join(p);
    for (int turn = 0; turn < 3 && !session.finished(); ++turn)
        for (int p = 1; p <= players; ++p)
            if (session.waiting_for(p)) session.receive(p, "end");
    (void)session.take();
}
