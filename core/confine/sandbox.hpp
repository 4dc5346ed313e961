#pragma once
// Confinement of bot processes, by the arbiter's own namespaces (namespace_sandbox.hpp) or by
// bubblewrap (bwrap), with the same view: each bot in its own PID, mount, IPC and
// UTS namespaces, no capabilities, the file system read-only except its own folder and a private
// /tmp, a private /proc (no other process visible), and no network for pipe seats. The PID
// namespace is what makes a bot's descendants (setsid daemons included) die with its seat and
// with the arbiter: killing the namespace's first process kills every process in it.
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/confine/namespace_sandbox.hpp"
#include "core/confine/sandbox_view.hpp"
#include "core/table_settings.hpp"
#include "core/unique_fd.hpp"

namespace arb {

std::string to_string(SandboxMode mode);
// "auto" | "namespaces" | "bwrap" | "none"; UserError otherwise.
SandboxMode sandbox_mode_from_string(const std::string& text);

struct SandboxPlan {
    bool namespaces = false;  // confined by the arbiter itself
    bool bwrap = false;       // confined by a bwrap process per bot
    std::string bwrap_path;
    std::string description;  // "namespaces", "bwrap" or "none (...)"
    bool confined() const { return namespaces || bwrap; }
    // Processes between the arbiter's child and the bot's program: bwrap -> its init -> the
    // program; the namespace's init -> the program.
    int program_depth() const { return bwrap ? 2 : namespaces ? kNamespaceProgramDepth : 0; }
};

// Probes once per process (cached) and decides. UserError when the sandbox asked for cannot
// run; `automatic` then falls back to none and warns once.
SandboxPlan plan_sandbox(SandboxMode mode);

struct SandboxedCommand {
    std::filesystem::path executable;  // resolved path of the bot's program
    std::vector<std::string> argv;     // argv[0] as written, then the arguments
    ExposedPaths paths;                // what it sees besides the base view (exposed_paths)
    bool network = false;              // keep the host's network (TCP/HTTP seats reach the arbiter)
    std::int64_t disk_mib = 256;       // size of its /tmp and /dev/shm
    int seccomp_fd = -1;               // the syscall filter for bwrap's --seccomp; -1: none
    // namespace_init_program's descriptor: the namespace's first process instead of bwrap's own,
    // reporting the program's wait status on descriptor 3; -1: bwrap's own.
    int init_fd = -1;
};

// The bwrap command line that runs `command` confined: argv for execv, argv[0] = bwrap's path.
std::vector<std::string> bwrap_argv(const SandboxPlan& plan, const SandboxedCommand& command);

// A network namespace of its own for one TCP or HTTP seat, with only its loopback up: the bot
// joins it before bwrap runs (SpawnRequest::netns), and the arbiter creates that seat's sockets
// in it, so the bot reaches the arbiter and nothing else (not another seat's port, not the
// machine's). Invalid when the arbiter may not make one (it needs CAP_SYS_ADMIN: root, or in its
// own user namespace).
UniqueFd loopback_network_namespace();

// An IPv4 TCP socket of the network namespace `netns` (a socket belongs to the namespace it was
// made in). Made on a thread of its own that enters the namespace and ends there: an
// unprivileged arbiter may enter the namespaces it made, but never return to the host's.
// Invalid (errno set) when it cannot be made.
UniqueFd tcp_socket_in(int netns);

// The host pid of the bot's own program `depth` first children below the arbiter's child
// (SandboxPlan::program_depth). Waits up to `wait_ms` for the program to be started; -1 if it
// was not.
pid_t sandboxed_program_pid(pid_t sandbox_pid, int depth, int wait_ms);

// bwrap, and the namespaces sandbox's init, exit with 128 + N when the program was killed by signal N: the wait status the
// program itself would have given (a signal status), else `status` unchanged.
int unwrap_sandbox_status(int status);

}  // namespace arb
