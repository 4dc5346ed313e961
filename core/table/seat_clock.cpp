#include "core/table/seat_clock.hpp"

#include <algorithm>

namespace arb {

std::optional<SeatClock::Duration> SeatClock::next_allowance() const {
    std::optional<Duration> limit;
    if (requests_ == 0 && control_.first_request) {
        limit = *control_.first_request;
    } else if (control_.per_request) {
        limit = *control_.per_request;
    }
    if (control_.total_budget) {
        const Duration left = std::max(Duration{0}, Duration{*control_.total_budget} - used_);
        limit = limit ? std::min(*limit, left) : left;
    }
    return limit;
}

std::optional<SeatClock::Duration> SeatClock::next_wait() const {
    const auto allowance = next_allowance();
    if (!allowance) return std::nullopt;
    return *allowance + Duration{control_.grace};
}

void SeatClock::charge(Duration used) {
    used = std::max(Duration{0}, used);
    ++requests_;
    used_ += used;
    longest_ = std::max(longest_, used);
}

Millis SeatClock::time_left() const {
    if (control_.total_budget) {
        const Duration left = std::max(Duration{0}, Duration{*control_.total_budget} - used_);
        return std::chrono::duration_cast<Millis>(left);
    }
    const auto allowance = next_allowance();
    if (!allowance) return Millis::max();
    return std::chrono::duration_cast<Millis>(*allowance);
}

}  // namespace arb
