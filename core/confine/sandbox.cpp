#include "core/confine/sandbox.hpp"

#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <optional>

#include <spdlog/spdlog.h>

#include "core/confine/bot_spawn.hpp"
#include "core/bot_spec.hpp"
#include "core/confine/namespace_sandbox.hpp"
#include "core/confine/sandbox_view.hpp"
#include "core/unique_fd.hpp"
#include "core/user_error.hpp"

extern char** environ;

namespace arb {
namespace {

namespace fs = std::filesystem;

// Namespaces shared by every confined bot (and by the probe), and the base view (sandbox_view.hpp):
// /usr and the links into it, the /etc allowlist, its own /dev, /proc and bounded /tmp.
std::vector<std::string> common_args(const std::string& bwrap, bool network, std::int64_t disk_mib) {
    std::vector<std::string> a = {bwrap,
                                  "--die-with-parent",  // the sandbox dies with its bwrap process
                                  "--unshare-pid",   "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
                                  // bwrap keeps root's capabilities unless told: a bot gets none.
                                  "--cap-drop",      "ALL"};
    if (!network) a.push_back("--unshare-net");
    const BaseView& base = base_view(false);
    for (const auto& dir : base.read_only_dirs) a.insert(a.end(), {"--ro-bind", dir, dir});
    for (const auto& [target, link] : base.symlinks) a.insert(a.end(), {"--symlink", target, link});
    for (const auto& entry : base.etc_entries) a.insert(a.end(), {"--ro-bind", "/etc/" + entry, "/etc/" + entry});
    const std::string bytes = std::to_string(std::max<std::int64_t>(disk_mib, 1) << 20);
    a.insert(a.end(), {"--dev", "/dev", "--size", bytes, "--tmpfs", "/dev/shm", "--proc", "/proc"});
    // /dev read-only but for /dev/shm, as under the arbiter's namespaces (its nodes still take
    // writes): bwrap's /dev is a tmpfs of the user it runs as, the bot's own under a non-root arbiter.
    a.insert(a.end(), {"--remount-ro", "/dev"});
    // bwrap makes /proc/sys, /proc/irq and /proc/bus read-only itself; the rest of the container defaults:
    for (const char* file : {"/proc/kcore", "/proc/keys", "/proc/key-users", "/proc/timer_list", "/proc/sched_debug",
                             "/proc/latency_stats"}) {
        std::error_code ec;
        if (fs::exists(file, ec)) a.insert(a.end(), {"--ro-bind", "/dev/null", file});
    }
    a.insert(a.end(), {"--size", bytes, "--tmpfs", "/tmp"});
    return a;
}

// Runs bwrap around /bin/true as a bot would be run; "" when it worked, else why not.
std::string probe(const std::string& bwrap) {
    prepare_arbiter_process();
    std::vector<std::string> args = common_args(bwrap, false, 1);
    args.insert(args.end(), {"--", "/bin/true"});
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return "cannot create a pipe";
    UniqueFd read_end(fds[0]), write_end(fds[1]);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, write_end.get(), STDERR_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    // Its own process group, so that the namespace's init, which the arbiter adopts as a child
    // subreaper when bwrap exits, is reaped below with it.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, bwrap.c_str(), &actions, &attributes, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    write_end.reset();
    if (rc != 0) return "cannot start " + bwrap;
    std::string err;
    char buffer[512];
    for (ssize_t n; (n = ::read(read_end.get(), buffer, sizeof buffer)) > 0 && err.size() < 4096;) err.append(buffer, n);
    int status = 0;
    ::waitpid(pid, &status, 0);
    // The namespace's init outlives bwrap by a moment; it comes to us (a child subreaper) to be reaped.
    for (int i = 0; i < 5000 && !(::kill(-pid, 0) != 0 && errno == ESRCH); ++i) {
        if (::waitpid(-pid, nullptr, WNOHANG) <= 0) ::usleep(200);
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
    const std::string first_line = err.substr(0, err.find('\n'));
    return first_line.empty() ? "bwrap failed" : first_line;
}

struct Probe {
    std::optional<std::string> bwrap_path;
    std::string failure;  // empty: bwrap works
};

const Probe& probed() {
    static Probe result;
    static std::once_flag once;
    std::call_once(once, [] {
        if (const auto found = find_in_path("bwrap")) result.bwrap_path = found->string();
        result.failure = result.bwrap_path ? probe(*result.bwrap_path) : "bwrap is not installed";
    });
    return result;
}

}  // namespace

std::string to_string(SandboxMode mode) {
    switch (mode) {
        case SandboxMode::automatic: return "auto";
        case SandboxMode::namespaces: return "namespaces";
        case SandboxMode::bwrap: return "bwrap";
        case SandboxMode::none: return "none";
    }
    return "auto";
}

SandboxMode sandbox_mode_from_string(const std::string& text) {
    if (text == "auto") return SandboxMode::automatic;
    if (text == "namespaces") return SandboxMode::namespaces;
    if (text == "bwrap") return SandboxMode::bwrap;
    if (text == "none") return SandboxMode::none;
    throw UserError("sandbox must be auto, namespaces, bwrap or none, not '" + text + "'");
}

SandboxPlan plan_sandbox(SandboxMode mode) {
    // ARBITER_SANDBOX chooses for runs that did not (tests, benchmarks).
    if (mode == SandboxMode::automatic) {
        if (const char* env = std::getenv("ARBITER_SANDBOX"); env && *env) mode = sandbox_mode_from_string(env);
    }
    SandboxPlan plan;
    if (mode == SandboxMode::none) {
        plan.description = "none";
        return plan;
    }
    if (mode == SandboxMode::namespaces || mode == SandboxMode::automatic) {
        const std::string failure = namespaces_failure();
        if (failure.empty()) {
            plan.namespaces = true;
            plan.description = "namespaces";
            return plan;
        }
        if (mode == SandboxMode::namespaces) throw UserError("--sandbox namespaces: " + failure);
    }
    const Probe& p = probed();
    if (!p.failure.empty()) {
        if (mode == SandboxMode::bwrap)
            throw UserError("--sandbox bwrap: bubblewrap cannot run here: " + p.failure);
        static std::once_flag noticed;
        std::call_once(noticed, [&] {
            spdlog::warn("bots run without a sandbox ({}; {}); they can see each other's processes "
                         "(--sandbox none silences this notice)",
                         namespaces_failure(), p.failure);
        });
        plan.description = "none (bwrap unusable: " + p.failure + ")";
        return plan;
    }
    plan.bwrap = true;
    plan.bwrap_path = *p.bwrap_path;
    plan.description = "bwrap";
    return plan;
}

std::vector<std::string> bwrap_argv(const SandboxPlan& plan, const SandboxedCommand& command) {
    std::vector<std::string> a = common_args(plan.bwrap_path, command.network, command.disk_mib);
    const ExposedPaths& paths = command.paths;
    for (const auto& p : paths.passed_through) a.insert(a.end(), {"--dir", p.string()});
    for (const auto& p : paths.read_only) a.insert(a.end(), {"--ro-bind", p.string(), p.string()});
    if (!paths.writable.empty()) a.insert(a.end(), {"--bind", paths.writable.string(), paths.writable.string()});
    if (command.seccomp_fd >= 0) a.insert(a.end(), {"--seccomp", std::to_string(command.seccomp_fd)});
    a.insert(a.end(), {"--dir", paths.cwd.string(), "--chdir", paths.cwd.string()});
    // The root itself read-only, as under the arbiter's namespaces: bwrap's root is a tmpfs of the
    // user it runs as, which is the bot's own under a non-root arbiter (an unbounded file system
    // in memory, writable by the bot, otherwise).
    a.insert(a.end(), {"--remount-ro", "/"});
    // Exec'd through /proc (bwrap's own, of the namespace) from the descriptor bwrap inherits.
    if (command.init_fd >= 0) a.insert(a.end(), {"--as-pid-1", "--", "/proc/self/fd/" + std::to_string(command.init_fd)});
    else a.push_back("--");
    a.push_back(command.executable.string());
    a.insert(a.end(), command.argv.begin() + (command.argv.empty() ? 0 : 1), command.argv.end());
    return a;
}

namespace {

pid_t first_child(pid_t pid) {
    const std::string path = "/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) + "/children";
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid()) return -1;
    char buffer[64] = {};
    const ssize_t n = ::read(fd.get(), buffer, sizeof buffer - 1);
    if (n <= 0) return -1;
    return static_cast<pid_t>(std::strtol(buffer, nullptr, 10));
}

}  // namespace

pid_t sandboxed_program_pid(pid_t sandbox_pid, int depth, int wait_ms) {
    for (int waited_us = 0; waited_us <= wait_ms * 1000; waited_us += 100) {
        pid_t program = sandbox_pid;
        for (int level = 0; level < depth && program > 0; ++level) program = first_child(program);
        if (program > 0) return program;
        const char state = process_state(sandbox_pid);
        if (state == '\0' || state == 'Z' || state == 'X') return -1;  // the sandbox failed, or its program ended already
        ::usleep(100);
    }
    return -1;
}

UniqueFd loopback_network_namespace() {
    UniqueFd netns;
    // On a thread of its own: unshare changes the namespace of the calling thread only.
    std::thread([&netns] {
        if (::unshare(CLONE_NEWNET) != 0) return;
        UniqueFd control(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
        ifreq request{};
        std::strncpy(request.ifr_name, "lo", IFNAMSIZ - 1);
        if (!control.valid() || ::ioctl(control.get(), SIOCGIFFLAGS, &request) != 0) return;
        request.ifr_flags |= IFF_UP | IFF_RUNNING;
        if (::ioctl(control.get(), SIOCSIFFLAGS, &request) != 0) return;
        netns.reset(::open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC));
    }).join();
    return netns;
}

UniqueFd tcp_socket_in(int netns) {
    UniqueFd socket;
    int error = 0;
    std::thread([&] {
        if (::setns(netns, CLONE_NEWNET) != 0) error = errno;
        else if (socket.reset(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)); !socket.valid()) error = errno;
    }).join();
    errno = error;
    return socket;
}

int unwrap_sandbox_status(int status) {
    if (!WIFEXITED(status)) return status;
    const int code = WEXITSTATUS(status);
    return code > 128 && code < 128 + 65 ? code - 128 : status;
}

}  // namespace arb
