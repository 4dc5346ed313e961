#pragma once
// The Koehandel referee: the engine's messages as HTTP GET requests to bots that serve HTTP
// (koehandel.md 2.2; RULINGS.md: the arbiter is the client, each bot a server on loopback).
//
// Seats: bot i sits at seat i in the order given (the URL order of the original server); seats
// not filled are house bots that answer nothing, so they pass on everything (seed "praktisch").
// Each message is a request, its reply the body's first non-blank line in query form
// (koehandel_protocol.hpp); the referee asks through rules/seat_driver.hpp. Every request, a
// decision or a notification, is bounded by the per-request limit (5 s by default). A decision
// the bot does not make in time, or whose reply failed, gets the seed's default action; a
// notification's answer is read and ignored. A late or failed reply (timeout, closed connection,
// junk, overflow) to either is a fault, logged; after --max-faults of them the seat is out of
// the conversation for the rest of the game and every later decision of it is the default.
#include <filesystem>
#include <string>
#include <vector>

#include "rules/game.hpp"
#include "rules/koehandel/koehandel_engine.hpp"

namespace arb::koehandel {

// The match descriptor's parts.
Options engine_options(const MatchRequest& request);
std::vector<SeatPlan> plan_match(const MatchRequest& request);
RefereeResult referee_match(const MatchRequest& request, Table& table);

}  // namespace arb::koehandel
