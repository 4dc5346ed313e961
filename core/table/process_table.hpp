#pragma once
// The Table over real bot processes: the arbiter core's implementation of the seat interface.
// Each seat is a bot process in its own process group with close-on-exec pipes, its stderr
// drained into a capped log file, limits applied, and death-with-parent set. close() (and the
// destructor) sends the quit text, then SIGTERM, then SIGKILL to the whole group, and reaps:
// no process of a table outlives it.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/bot_spec.hpp"
#include "core/match_record.hpp"
#include "core/seat.hpp"
#include "core/seat_launch.hpp"
#include "core/table_settings.hpp"

namespace arb {

// How a seat's main process ended and which limit, if any, stopped it (read after close()).
struct SeatEnd {
    std::optional<int> exit_code;    // exited by itself with this code
    std::optional<int> exit_signal;  // ended by this signal (ours when the arbiter stopped it)
    std::string limit;               // "time", "memory", "line length", "cpu time"; "" = none
};

class ProcessTable : public Table {
public:
    // Starts every seat. Throws UserError (naming the bot) if an executable is missing or a
    // process cannot start; seats already started are stopped before the throw.
    static std::unique_ptr<ProcessTable> launch(std::vector<SeatLaunch> seats, TableOptions options);

    // Stops every seat (quit text, SIGTERM, SIGKILL to the group) and reaps. Idempotent.
    virtual void close() = 0;

    // What a seat used so far.
    virtual UsageStats usage(int seat) const = 0;

    virtual SeatEnd seat_end(int seat) const = 0;

    // How limits were enforced, for logs and records: e.g. "cgroup v2", "cgroup v1", "rlimit".
    virtual std::string limit_mechanism() const = 0;
};

}  // namespace arb
