#include "rules/seat_faults.hpp"

namespace arb {

SeatFault seat_fault(const Table& table, int seat, ReplyStatus reply) {
    if (reply == ReplyStatus::ok) return {};
    const SeatStatus stopped = table.status(seat);
    if (stopped == SeatStatus::killed) {
        std::string reason = table.retire_detail(seat);
        return {SeatStatus::killed, reason.empty() ? std::string("stopped by the arbiter") : std::move(reason)};
    }
    switch (reply) {
        case ReplyStatus::timeout: return {SeatStatus::timeout, ""};
        case ReplyStatus::overflow: {
            // A process table that stopped the flood says how long the line was.
            std::string reason = table.retire_detail(seat);
            if (reason.empty() || reason == to_string(ReplyStatus::overflow)) reason = "reply over the size limit";
            return {SeatStatus::killed, std::move(reason)};
        }
        case ReplyStatus::closed: return {SeatStatus::crashed, ""};
        case ReplyStatus::not_running:
        case ReplyStatus::ok: break;
    }
    return {stopped == SeatStatus::ok ? SeatStatus::crashed : stopped, ""};
}

}  // namespace arb
