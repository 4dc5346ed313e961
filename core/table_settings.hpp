#pragma once
// The settings a table of bots is made with: plain values that games, the match runner, the
// limits and the sandbox share, with nothing of the table behind them. The bottom of the core:
// it includes only the standard library and the seat's time control.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/time_control.hpp"

namespace arb {

// How a seat talks to its bot (core/channel/channel.hpp: one Channel class for each).
enum class ChannelKind {
    stdio,        // requests on the bot's stdin, replies on its stdout
    tcp_client,   // the bot connects to a loopback port the arbiter listens on (smart-dog)
    http_server,  // the bot serves HTTP on a loopback port; requests are GETs (Koehandel)
};

// How bots are confined (core/confine/sandbox.hpp).
enum class SandboxMode {
    automatic,   // namespaces, else bwrap, whichever works first here, else none with a notice
    namespaces,  // the arbiter's own namespaces (core/confine/namespace_sandbox.hpp; root, or in its own user namespace) or a UserError
    bwrap,       // bwrap or a UserError
    none,       // process group, parent-death signal, limits only
};

struct Limits {
    std::int64_t memory_mib = 400;             // 0 = no memory limit
    std::optional<int> cpu_seconds;            // RLIMIT_CPU backstop for the whole match
    int max_processes = 64;                    // per bot (cgroup pids or RLIMIT_NPROC)
    bool core_dumps = false;
    std::size_t max_line_bytes = 1 << 20;      // longer line = overflow
    std::size_t stderr_cap_bytes = 1 << 20;    // per seat log; the rest is drained and dropped
    SandboxMode sandbox = SandboxMode::automatic;  // confinement (core/confine/sandbox.hpp)
    // Each seat runs as a user id of its own (root only; core/confine/seat_users.hpp). Always so under a
    // root arbiter's sandbox; this asks for it without one.
    bool seat_users = false;
    std::int64_t disk_mib = 256;  // the largest file a bot writes, and the size of its /tmp and /dev/shm
    // What a bot's folder may hold after its writes are written back, over all its matches
    // (the write-back of the namespaces sandbox); 0 = no bound.
    std::int64_t folder_mib = 1024;
    std::vector<std::string> pass_env;        // the arbiter's variables a bot also gets, by name
    std::vector<std::string> allow_syscalls;  // let through the syscall filter (core/confine/syscall_filter.hpp)

    friend bool operator==(const Limits&, const Limits&) = default;
};

struct TableOptions {
    Limits limits;
    bool freeze_idle = false;                 // SIGSTOP a seat's group while it is not asked
    std::filesystem::path transcript_path;    // timestamped to/from lines per seat; empty = none
    std::filesystem::path log_dir;            // <log_dir>/<label>.stderr.log; empty = drained only
    std::string quit_text;                    // written to each live seat by close(), if not empty
    Millis quit_grace{300};                   // wait for exit after quit_text
    Millis term_grace{300};                   // wait after SIGTERM before SIGKILL
    // Never shown to a confined bot, nor a folder holding one (the transcript and the log folder
    // are added by the table): the match's record and replay.
    std::vector<std::filesystem::path> private_paths;
};

}  // namespace arb
