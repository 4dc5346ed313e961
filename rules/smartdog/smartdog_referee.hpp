#pragma once
// The smart-dog referee: the wire session over the core's loopback TCP seats.
//
// Every bot is started with ARBITER_HOST and ARBITER_PORT in its environment ({host} {port} in
// its command line), connects to the arbiter and sends `join <username> [hub]`, as the seed
// says: any user name (a leading '#' of the hub is stripped; the hub is otherwise ignored). A
// seat is known by the connection it arrives on: each seat has a listener of its own, in its
// own network namespace under the sandbox, or on a port of its own (--port N: seat k on N + k -
// 1). Each bot also gets a seat name ARBITER_TOKEN ({token}) it may join with; nothing checks
// it. A first line that is not a `join` gets an `error` and the seat is out. Player ids follow seat order, not join order, so a match reproduces.
//
// The seats are asked through the seat driver (rules/seat_driver.hpp); the text they read and the
// reading of their replies are smartdog_protocol.hpp's.
//
// Each turn every live player gets its state and answers with `do` lines up to `end`, within
// the per-turn limit. Commands are then applied interleaved in a fixed order (ruling 3): one
// command per player in turn, the first player rotating with the turn (turn N starts with
// player ((N - 1) mod P) + 1), until every list is used up; then every `end`. The order is
// noted in the transcript. With --arrival (live play, not reproducible) each player's commands
// are applied as one block, the blocks in the order the players' replies were complete.
//
// Lines a player sends after its `end` and before the next turn answer nothing (ruling 5): they
// are dropped with a warning in the wire log and never read as the next turn's reply. A repeated
// `join` among them (also one sent in the same write as the first `join`) is the exception: it
// gets `error Already joined`, as a repeated `join` does anywhere.
//
// Faults (ruling 6, forfeit): no connection, no or a bad `join`, a missing `end` within the
// per-turn limit, a flood (kMaxCommandsPerTurn lines or more in a turn, smartdog_protocol.hpp), a
// line over the table's cap or a closed connection retire the seat. Its dogs stand still for the
// rest of the game, it scores -10, ranks last and is never the winner; the others play on.
#include <filesystem>
#include <string>
#include <vector>

#include "rules/game.hpp"
#include "rules/smartdog/smartdog_engine.hpp"

namespace arb::smartdog {

// The per-seat names handed to the bots (the key on a shared port), from the match seed.
std::vector<std::string> seat_tokens(std::uint64_t seed, int seats);

Tile load_match_tile(const MatchRequest& request);  // the map option, --turns applied
std::vector<SeatPlan> plan_match(const MatchRequest& request);
RefereeResult referee_match(const MatchRequest& request, Table& table);

}  // namespace arb::smartdog
