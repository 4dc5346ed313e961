#pragma once
// The Koehandel referee: the engine's messages as HTTP GET requests to bots that serve HTTP
// (koehandel.md 2.2; RULINGS.md: the arbiter is the client, each bot a server on loopback).
//
// Seats: bot i sits at seat i in the order given (the URL order of the original server); seats
// not filled are house bots that answer nothing, so they pass on everything (seed "praktisch").
// Each request is "/?market=M&id=I&type=...&opponent=...&auctioneer=...&goods=...&money=...&message=..."
// with the empty fields left out; id is the seat number + 1 and market comes from the seed. A
// reply is the body's first non-blank line in query form. Every request, a decision or a
// notification, is bounded by the per-request limit (5 s by default). A decision the bot does
// not make in time, or whose reply failed, gets the seed's default action; a notification's
// answer is read and ignored. A late or failed reply (timeout, closed connection, junk,
// overflow) to either is a fault, logged; after --max-faults of them the seat is out of the
// conversation for the rest of the game and every later decision of it is the default.
#include <filesystem>
#include <string>
#include <vector>

#include "rules/game.hpp"
#include "rules/koehandel/koehandel_engine.hpp"

namespace arb::koehandel {

// The market every request of a match names, from its seed.
std::uint64_t market_of(std::uint64_t seed);

// The request path of a message to seat `seat`.
std::string request_text(const Message& message, std::uint64_t market, int seat);

// The match descriptor's parts.
Options engine_options(const MatchRequest& request);
std::vector<SeatPlan> plan_match(const MatchRequest& request);
RefereeResult referee_match(const MatchRequest& request, Table& table);

}  // namespace arb::koehandel
