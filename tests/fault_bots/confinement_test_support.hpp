#pragma once
// What the confinement tests share: the sandboxes that work on this machine, and table options
// with one of them.
#include <vector>

#include "core/confine/sandbox.hpp"
#include "core/confine/user_namespace.hpp"
#include "tests/core/bot_test_support.hpp"

namespace arb::testing {

inline TableOptions with_sandbox(SandboxMode mode, TableOptions options = {}) {
    options.limits.sandbox = mode;
    options.term_grace = Millis{100};
    options.quit_grace = Millis{100};
    return options;
}

// The sandboxes that work here (namespaces needs a root arbiter, bwrap its package); the tests run
// under each. Under a root arbiter bwrap runs as the seat's user, which must be able to reach the
// bots' folders: where the build lies under a folder others cannot enter (a 0700 home), only the
// arbiter's own namespaces can show them, and bwrap is skipped with a message.
inline std::vector<SandboxMode> confined_modes(const std::filesystem::path& program = {}) {
    std::vector<SandboxMode> modes;
    for (const SandboxMode mode : {SandboxMode::namespaces, SandboxMode::bwrap}) {
        try {
            if (!plan_sandbox(mode).confined()) continue;
            if (mode == SandboxMode::bwrap && host_root() && !program.empty() && !reachable_by_others(program)) {
                MESSAGE("skipped under bwrap: a seat user cannot reach " << program.string());
                continue;
            }
            modes.push_back(mode);
        } catch (const UserError& e) {
            MESSAGE("skipped: " << std::string(e.what()));
        }
    }
    return modes;
}

// Seats named `names`, each running `command` (a bot spec's cmd=) in the folder `dir` (none
// when empty), `limit` per request.
inline std::vector<SeatLaunch> seats_running(const std::string& command, const std::vector<std::string>& names,
                                            Millis limit, const std::filesystem::path& dir = {}) {
    std::vector<SeatLaunch> seats;
    for (const std::string& name : names) {
        SeatLaunch seat;
        seat.info = SeatInfo{static_cast<int>(seats.size()), name, name};
        seat.bot = parse_bot_spec("name=" + quote_word(name) + " cmd=" + quote_word(command));
        seat.bot.dir = dir;
        seat.time = per_request(limit);
        seats.push_back(std::move(seat));
    }
    return seats;
}

// Seats whose requests are lines answered by one line, in a table under `options`.
struct OneLineSeats {
    OneLineSeats(std::vector<SeatLaunch> seats, TableOptions options)
        : table(ProcessTable::launch(std::move(seats), std::move(options))) {}
    ~OneLineSeats() { table->close(); }
    OneLineSeats(const OneLineSeats&) = delete;
    OneLineSeats& operator=(const OneLineSeats&) = delete;
    std::string ask(int seat, const std::string& line) {
        const Reply reply = table->ask(seat, line + "\n", one_line_framer());
        return reply.ok() ? reply.first_line() : "failed: " + std::string(to_string(reply.status));
    }
    std::unique_ptr<ProcessTable> table;
};

}  // namespace arb::testing
