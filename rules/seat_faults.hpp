#pragma once
// How a failed reply ends a seat: one mapping for every game, so a timeout, a crash, a flood or a
// limit the table enforced gives the same status in every match record (docs/fault-matrix.md).
// Each game keeps its own words where its recorded games have them (the Ants replay's
// "crashed"/"timeout", SamurAI's -1 plans); the record's SeatStatus comes from here.
#include <string>

#include "core/seat.hpp"

namespace arb {

struct SeatFault {
    SeatStatus status = SeatStatus::ok;
    // Why, when the status is `killed`: the table's reason ("memory limit of 400 MiB exceeded",
    // "line longer than 1048576 bytes"), else a short one of ours. "" for the other statuses,
    // whose word says it all; the referee adds where it happened.
    std::string reason;

    bool failed() const { return status != SeatStatus::ok; }
};

// The status a failed reply from `seat` gives it:
//   - the table stopped the seat for a limit (status killed: memory, line length, a bot that
//     does not read its input): killed, with the table's reason;
//   - timeout: timeout;  overflow (a line or a reply over the cap): killed;  closed: crashed;
//   - not_running (retired before this request): the status it was retired with (crashed when
//     the table gives none).
// An ok reply is no fault (status ok). The seat may be alive (an HTTP seat stays after a failed
// request); the referee decides whether to retire it.
SeatFault seat_fault(const Table& table, int seat, ReplyStatus reply);

}  // namespace arb
