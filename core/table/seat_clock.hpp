#pragma once
// A seat's chess clock as pure arithmetic on std::chrono durations: no I/O, no "now".
// The process table asks it how long the next request may take, and tells it how long the
// request did take. Rules (TimeControl, DESIGN.md "clocks"; planowanie.md 6.2):
//  - the first request uses first_request when set, else per_request;
//  - every request is also bounded by what is left of total_budget;
//  - grace is slack added to the deadline only; it is never shown to bots and never refunded;
//  - every request's time is charged to the budget, even when it overran into the grace.
#include <chrono>
#include <cstdint>
#include <optional>

#include "core/time_control.hpp"

namespace arb {

class SeatClock {
public:
    using Duration = std::chrono::nanoseconds;

    explicit SeatClock(TimeControl control) : control_(control) {}

    // The limit of the next request before grace; nullopt = no limit at all.
    std::optional<Duration> next_allowance() const;
    // next_allowance() + grace: how long after the request was written the arbiter waits.
    std::optional<Duration> next_wait() const;

    // Records a finished request (successful or not) that took `used`.
    void charge(Duration used);

    // What the seat is told it has left (seat.hpp Table::time_left): the budget left, or the
    // next request's own limit when there is no budget, or Millis::max() when unlimited.
    Millis time_left() const;

    std::int64_t requests() const { return requests_; }
    Duration used() const { return used_; }
    Duration longest() const { return longest_; }
    const TimeControl& control() const { return control_; }

private:
    TimeControl control_;
    std::int64_t requests_ = 0;
    Duration used_{0};
    Duration longest_{0};
};

}  // namespace arb
