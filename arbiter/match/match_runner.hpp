#pragma once
// Runs one match of any game: checks the bots, starts the seats the game asks for, hands the
// table to the referee, stops every process, and returns the match record.
#include "core/match_record.hpp"
#include "rules/game.hpp"

namespace arb {

class ProcessTable;  // core/table/process_table.hpp: only the runner's source needs the table itself

// Bot faults end up in the record, never as exceptions. Throws UserError for set-up problems
// found before the match starts (missing executable, bad option, missing map).
MatchRecord run_match(const GameDescriptor& game, const MatchRequest& request);

// The record's match fields for `request` (game, options, seeds, rotation, start time), before
// any seat's result: what a played match and a forfeited one both begin with.
MatchRecord record_for(const MatchRequest& request);

// Adds the results to a record begun by record_for: each participant made once from the request's
// bot, the referee's outcome and, when bots ran, the table's usage and process ends (`table` is
// nullptr for a match no bot played: a forfeit). The one place a record's results are assembled.
void finish_record(MatchRecord& record, const MatchRequest& request, RefereeResult result, const ProcessTable* table);

// The request for rotation r of a deal set: bots shifted cyclically by r seats
// (seat i gets bot (i + r) mod n), same deal seed.
MatchRequest rotated_request(const MatchRequest& base, int rotation);

// 1-minute load average divided by the number of cores (0 if unknown).
double machine_load_now();

}  // namespace arb
