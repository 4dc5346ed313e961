#pragma once
// Starts one bot process (Boost.Process v2 fork+exec) with everything the arbiter needs set up
// in the child before exec (planowanie.md 6.3): its own process group, death with the arbiter
// (PR_SET_PDEATHSIG + getppid check), default signal dispositions, pipes on 0/1/2, every other
// descriptor closed, resource limits, cgroup membership, working directory and environment.
#include <linux/filter.h>
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include "core/confine/namespace_sandbox.hpp"
#include "core/unique_fd.hpp"

namespace arb {

struct ChildResourceLimits {
    std::optional<std::uint64_t> address_space_bytes;  // RLIMIT_AS (fallback memory limit)
    std::optional<std::uint64_t> cpu_seconds;          // RLIMIT_CPU (backstop)
    std::optional<std::uint64_t> processes;            // RLIMIT_NPROC (fallback process count)
    std::optional<std::uint64_t> file_size_bytes;      // RLIMIT_FSIZE (no file written larger)
    bool core_dumps = false;                           // false: RLIMIT_CORE = 0
};

struct SpawnRequest {
    std::string bot_name;                 // for error messages
    std::filesystem::path executable;     // resolved path
    std::vector<std::string> argv;        // argv[0] as the user wrote it, then the arguments
    std::filesystem::path dir;            // empty = the arbiter's working directory
    // The bot's environment: the arbiter's PATH, HOME, LANG, LC_*, TZ and TERM, the variables
    // named in pass_env, then these (added or replacing). Nothing else of the arbiter's.
    std::map<std::string, std::string> env;
    std::vector<std::string> pass_env;
    ChildResourceLimits limits;
    std::vector<std::filesystem::path> cgroup_join_files;  // the child writes "0" (itself) to each
    int netns = -1;  // a network namespace the child joins before exec (-1: the arbiter's)
    std::optional<uid_t> user;  // the child switches to this user and group id (no other groups)
    // Confined by the arbiter's own namespaces (core/confine/namespace_sandbox.hpp): what it sees besides
    // the read-only root. Needs root and a network namespace to join (netns).
    std::optional<ExposedPaths> confined;
    ViewOptions view_options;
    // Installed last before exec in a confined child (after no_new_privs); null: none.
    std::optional<sock_fprog> syscall_filter;
    // Kept open across exec at their numbers (bwrap's --seccomp descriptor, the init it starts).
    std::vector<int> inherited_fds;
    // The program runs under an init that reports its wait status on descriptor 3 (bwrap with
    // namespace_init_program; the arbiter's namespaces always do): SpawnedBot::init_status_read.
    bool init_reports_status = false;
};

// Whether the arbiter's variable `key` reaches a bot (the fixed allowlist, or named in pass_env).
bool environment_passes(std::string_view key, const std::vector<std::string>& pass_env);

struct SpawnedBot {
    pid_t pid = -1;          // also its process group id
    UniqueFd stdin_write;    // the arbiter's ends, close-on-exec
    UniqueFd stdout_read;
    UniqueFd stderr_read;
    // Confined by the arbiter's namespaces: where its init reports the program's wait status
    // (read with confined_exit_status once the init is reaped).
    UniqueFd init_status_read;
};

// Throws UserError naming the bot when the process cannot start (exec failure, bad dir).
SpawnedBot spawn_bot(const SpawnRequest& request);

// The exit status of a confined bot's program: the wait status its init reported, or, when the
// init reported none (killed before its program ended), the init's own `init_status`.
int confined_exit_status(int init_status, int init_status_read);

// A bot's main process is reaped by its own table (it carries the exit status). Between
// spawn_bot and forget_main_process, reap_adopted_zombies leaves it alone.
void forget_main_process(pid_t pid);

// The state letter of /proc/<pid>/stat ('R', 'S', 'Z', ...); '\0' when the process is gone.
char process_state(pid_t pid);

// Reaps every zombie child of the arbiter that is no bot's main process: descendants a bot
// detached from its process group (setsid) that were re-parented to us and died. Called when a
// seat is done; another seat's such zombies are reaped too, which nobody waits for otherwise.
void reap_adopted_zombies();

// Makes the arbiter ignore SIGPIPE (a dead bot's pipe gives EPIPE instead of killing us) and
// adopt orphaned bot descendants (PR_SET_CHILD_SUBREAPER) so they can be reaped by group.
// Idempotent; spawn_bot calls it.
void prepare_arbiter_process();

}  // namespace arb
