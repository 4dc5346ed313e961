#pragma once
// How much time a seat has. All parts are optional and combine: a request must finish within
// its per-request limit AND within what is left of the match budget. The first request of a
// seat (the "load" request, e.g. Ants turn 0) gets first_request instead of per_request.
#include <chrono>
#include <optional>

namespace arb {

using Millis = std::chrono::milliseconds;

struct TimeControl {
    // Every part has an initialiser, so TimeControl{.per_request = 2s} names only what it sets.
    std::optional<Millis> per_request{};    // limit for each reply
    std::optional<Millis> first_request{};  // limit for the first reply (replaces per_request once)
    std::optional<Millis> total_budget{};   // sum over all replies of the match
    Millis grace{0};                        // slack added to every deadline before declaring
                                            // timeout (scheduling jitter); never shown to bots

    friend bool operator==(const TimeControl&, const TimeControl&) = default;
};

}  // namespace arb
