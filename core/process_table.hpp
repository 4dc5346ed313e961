#pragma once
// The Table over real bot processes: the arbiter core's implementation of the seat interface.
// Each seat is a bot process in its own process group with close-on-exec pipes, its stderr
// drained into a capped log file, limits applied, and death-with-parent set. close() (and the
// destructor) sends the quit text, then SIGTERM, then SIGKILL to the whole group, and reaps:
// no process of a table outlives it.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/bot_spec.hpp"
#include "core/match_record.hpp"
#include "core/sandbox.hpp"
#include "core/seat.hpp"
#include "core/time_control.hpp"

namespace arb {

enum class ChannelKind {
    stdio,        // requests on the bot's stdin, replies on its stdout
    tcp_client,   // the bot connects to a loopback port the arbiter listens on (smart-dog)
    http_server,  // the bot serves HTTP on a loopback port; requests are GETs (Koehandel)
};

struct Limits {
    std::int64_t memory_mib = 400;             // 0 = no memory limit
    std::optional<int> cpu_seconds;            // RLIMIT_CPU backstop for the whole match
    int max_processes = 64;                    // per bot (cgroup pids or RLIMIT_NPROC)
    bool core_dumps = false;
    std::size_t max_line_bytes = 1 << 20;      // longer line = overflow
    std::size_t stderr_cap_bytes = 1 << 20;    // per seat log; the rest is drained and dropped
    SandboxMode sandbox = SandboxMode::automatic;  // confinement (core/sandbox.hpp)
    // Each seat runs as a user id of its own (root only; core/seat_users.hpp). Always so under a
    // root arbiter's sandbox; this asks for it without one.
    bool seat_users = false;
    std::int64_t disk_mib = 256;  // the largest file a bot writes, and the size of its /tmp and /dev/shm
    std::vector<std::string> pass_env;        // the arbiter's variables a bot also gets, by name
    std::vector<std::string> allow_syscalls;  // let through the syscall filter (core/syscall_filter.hpp)

    friend bool operator==(const Limits&, const Limits&) = default;
};

struct SeatLaunch {
    SeatInfo info;
    BotSpec bot;
    std::vector<std::string> extra_args;  // appended to the bot's argv (e.g. a role)
    TimeControl time;
    ChannelKind channel = ChannelKind::stdio;
    // tcp_client: the port the seat listens on (0 = a free one). Seats with ARBITER_TOKEN in the
    // bot's env that ask for the same port share it and are seated by `join TOKEN`, unless each
    // has a network of its own (confined): there, as everywhere else, the seat is its connection.
    std::uint16_t listen_port = 0;
};

struct TableOptions {
    Limits limits;
    bool freeze_idle = false;                 // SIGSTOP a seat's group while it is not asked
    std::filesystem::path transcript_path;    // timestamped to/from lines per seat; empty = none
    std::filesystem::path log_dir;            // <log_dir>/<label>.stderr.log; empty = drained only
    std::string quit_text;                    // written to each live seat by close(), if not empty
    Millis quit_grace{300};                   // wait for exit after quit_text
    Millis term_grace{300};                   // wait after SIGTERM before SIGKILL
};

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
