#pragma once
// The smart-dog referee: the wire session over the core's loopback TCP seats.
//
// Every bot is started with ARBITER_HOST, ARBITER_PORT and its own secret ARBITER_TOKEN in its
// environment ({host} {port} {token} in its command line) and connects to the arbiter. The
// first line it sends must be `join TOKEN [HUB]` (a leading '#' of the hub is stripped; the hub
// is otherwise ignored); a wrong token gets `error Unknown token` and the seat is out. Player
// ids follow seat order, not join order, so a match reproduces.
//
// Each turn every live player gets its state and answers with `do` lines up to `end`, within
// the per-turn limit. Commands are then applied interleaved in a fixed order (ruling 3): one
// command per player in turn, the first player rotating with the turn (turn N starts with
// player ((N - 1) mod P) + 1), until every list is used up; then every `end`. The order is
// noted in the transcript. With --arrival (live play, not reproducible) each player's commands
// are applied as one block, the blocks in the order the players' replies were complete.
//
// Faults (ruling 6, forfeit): no connection, no or a bad `join`, a missing `end` within the
// per-turn limit, a flood (more than kMaxCommandsPerTurn lines in a turn), a line over the
// table's cap or a closed connection retire the seat. Its dogs stand still for the rest of the
// game, it scores -10, ranks last and is never the winner; the others play on.
#include <filesystem>
#include <string>
#include <vector>

#include "rules/game.hpp"
#include "rules/smartdog/smartdog_engine.hpp"

namespace arb::smartdog {

inline constexpr int kMaxCommandsPerTurn = 1000;

// The per-seat secrets of a match, from its seed (the same seed gives the same bot inputs).
std::vector<std::string> seat_tokens(std::uint64_t seed, int seats);

Tile load_match_tile(const MatchRequest& request);  // the map option, --turns applied
std::vector<SeatPlan> plan_match(const MatchRequest& request);
RefereeResult referee_match(const MatchRequest& request, Table& table);

}  // namespace arb::smartdog
