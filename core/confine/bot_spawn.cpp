// The only file that includes Boost.Process v2 (and its compiled sources, src.hpp).
#define BOOST_PROCESS_V2_SEPARATE_COMPILATION 1
#include <boost/process/v2/src.hpp>

#include "core/confine/bot_spawn.hpp"

#include <fcntl.h>
#include <linux/close_range.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <linux/seccomp.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <mutex>
#include <set>

#include <boost/asio/io_context.hpp>
#include <boost/process/v2/posix/vfork_launcher.hpp>
#include <boost/process/v2/process.hpp>
#include "core/confine/namespace_sandbox.hpp"
#include "core/output_modes.hpp"
#include "core/user_error.hpp"

extern char** environ;

namespace arb {
namespace bp2 = boost::process::v2;

void prepare_arbiter_process() {
    static std::once_flag once;
    std::call_once(once, [] {
        ::signal(SIGPIPE, SIG_IGN);
        // Orphaned grandchildren of a bot (a bot that forked and exited) become our children, so
        // waitpid(-pgid) can reap them instead of leaving them to init (planowanie.md 6.3).
        ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    });
}

namespace {

std::mutex main_processes_mutex;
std::set<pid_t> main_processes;  // spawned, not yet reaped by their table

// A /proc file read with plain system calls: the process may vanish while it is read, and
// iostreams would throw then.
std::string read_proc(const std::string& path) {
    std::string text;
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid()) return text;
    char buffer[4096];
    for (ssize_t n; (n = ::read(fd.get(), buffer, sizeof buffer)) > 0 && text.size() < (1 << 20);) text.append(buffer, n);
    return text;
}

// Child pids of every thread of the arbiter (re-parented orphans go to any of them).
std::vector<pid_t> own_children() {
    std::vector<pid_t> children;
    std::error_code ec;
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", ec)) {
        std::istringstream in(read_proc((task.path() / "children").string()));
        for (pid_t pid = 0; in >> pid;) children.push_back(pid);
    }
    return children;
}

}  // namespace

bool environment_passes(std::string_view key, const std::vector<std::string>& pass_env) {
    for (const char* kept : {"PATH", "HOME", "LANG", "TZ", "TERM"})
        if (key == kept) return true;
    if (key.rfind("LC_", 0) == 0) return true;
    return std::find(pass_env.begin(), pass_env.end(), key) != pass_env.end();
}

char process_state(pid_t pid) {
    const std::string text = read_proc("/proc/" + std::to_string(pid) + "/stat");
    // "pid (comm) S ...": the state follows the last ')', as comm may contain anything.
    const auto close = text.rfind(')');
    return close != std::string::npos && close + 2 < text.size() ? text[close + 2] : '\0';
}

void forget_main_process(pid_t pid) {
    const std::lock_guard lock(main_processes_mutex);
    main_processes.erase(pid);
}

void reap_adopted_zombies() {
    for (pid_t pid : own_children()) {
        {
            const std::lock_guard lock(main_processes_mutex);
            if (main_processes.count(pid)) continue;
        }
        if (process_state(pid) == 'Z') ::waitpid(pid, nullptr, WNOHANG);
    }
}

namespace {

constexpr int kStatusReportFd = 3;  // where namespace_init.c writes its program's wait status

// A descriptor number >= 3, close-on-exec, so dup2 onto 0/1/2 in the child never clobbers
// another of our pipe ends.
UniqueFd above_stdio(int fd) {
    if (fd > 2) return UniqueFd(fd);
    const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
    ::close(fd);
    return UniqueFd(moved);
}

struct Pipe {
    UniqueFd read_end;
    UniqueFd write_end;
};

Pipe make_pipe(const std::string& bot_name) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        throw UserError("bot '" + bot_name + "': cannot create a pipe: " + std::strerror(errno));
    }
    return Pipe{above_stdio(fds[0]), above_stdio(fds[1])};
}

// Everything the child does between fork and exec. Only async-signal-safe calls happen here;
// all memory it touches was prepared by the parent (no allocation after fork).
struct ChildSetup {
    pid_t parent_pid = 0;
    int stdin_fd = -1, stdout_fd = -1, stderr_fd = -1;
    const char* dir = nullptr;
    const char* const* envp = nullptr;
    const std::vector<int>* cgroup_fds = nullptr;
    int netns_fd = -1;
    long user = -1;  // -1: keep the arbiter's
    NamespaceView* view = nullptr;  // confined by the arbiter's namespaces (cloned into them)
    struct Limit {
        int resource;
        rlim_t value;
    };
    Limit limits[5];
    const sock_fprog* syscall_filter = nullptr;
    int status_report = -1;  // moved to descriptor 3 (namespace_init.c) for an init that reports
    const std::vector<int>* inherited_fds = nullptr;  // left open across exec
    int limit_count = 0;
    mode_t umask_for_bot = 022;

    template <typename Launcher>
    bp2::error_code on_setup(Launcher& launcher, const bp2::filesystem::path&, const char* const*&) {
        launcher.env = envp;
        return {};
    }

    template <typename Launcher>
    bp2::error_code on_exec_setup(Launcher&, const bp2::filesystem::path&, const char* const*&) {
        const int error = run();
        return error == 0 ? bp2::error_code{} : bp2::error_code(error, bp2::system_category());
    }

    // The privileged steps of a start, in order; 0, or the errno of the step that failed.
    int run() {
        // The user's umask (the arbiter's own is 077): the view's folders, and what the bot writes.
        ::umask(umask_for_bot);
        int proc_self_stat = -1;
        if (const int error = enter_cgroups_and_namespaces(proc_self_stat); error != 0) return error;
        if (const int error = become_seat_user(); error != 0) return error;
        if (const int error = tie_to_arbiter(proc_self_stat); error != 0) return error;
        if (const int error = reset_signals_and_descriptors(); error != 0) return error;
        for (int i = 0; i < limit_count; ++i) {
            const rlimit value{limits[i].value, limits[i].value};
            if (::setrlimit(limits[i].resource, &value) != 0) return errno;
        }
        if (dir != nullptr && ::chdir(dir) != 0) return errno;
        // Last: from here on the filter applies to everything the child does, exec included.
        if (syscall_filter != nullptr && ::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, syscall_filter) != 0) return errno;
        return 0;
    }

    // The cgroups first, so the limits and counters cover everything the bot does ("0" is the
    // writing task itself; see BotCgroup::join_files for why it is cheap); then its cgroup
    // namespace (its cgroups are the root there: /proc/self/cgroup names no arbiter), its
    // network, and the view of a confined bot.
    int enter_cgroups_and_namespaces(int& proc_self_stat) {
        for (int fd : *cgroup_fds) {
            if (::write(fd, "0", 1) != 1) return errno;
        }
        if (view != nullptr && ::unshare(CLONE_NEWCGROUP) != 0) return errno;
        if (netns_fd >= 0 && ::setns(netns_fd, CLONE_NEWNET) != 0) return errno;
        if (view == nullptr) return 0;
        if (const int error = enter_namespace_view(*view, proc_self_stat); error != 0) return error;
        // Only for a bot that keeps root's id: the switch to a seat user clears every capability,
        // and with no_new_privs no program's file capabilities or set-user-ID bit gives any back,
        // so the bounding set (41 calls, ~50 us of each start) is moot there.
        return user < 0 ? drop_bounding_capabilities() : 0;
    }

    // The seat's own user, before the parent-death signal (a change of user clears it). Raw
    // system calls: glibc's wrappers would signal every thread of the (vforked-from) arbiter to
    // change them all.
    int become_seat_user() {
        if (user >= 0) {
            if (::syscall(SYS_setgroups, 0, nullptr) != 0 || ::syscall(SYS_setresgid, user, user, user) != 0 ||
                ::syscall(SYS_setresuid, user, user, user) != 0)
                return errno;
        }
        return view != nullptr ? drop_capabilities() : 0;
    }

    // Own session and process group: the arbiter signals the whole group (shell wrappers'
    // children too), and without a controlling terminal a bot cannot push keystrokes into the
    // user's terminal (TIOCSTI). Death with the arbiter; the parent check closes the race where
    // it died before prctl (in a new PID namespace getppid() is 0: the host's /proc, opened
    // before, tells).
    int tie_to_arbiter(int proc_self_stat) {
        if (::setsid() < 0) return errno;
        if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return errno;
        const pid_t parent = view != nullptr ? host_parent_pid(proc_self_stat) : ::getppid();
        if (parent != parent_pid) ::_exit(127);
        if (proc_self_stat >= 0) ::close(proc_self_stat);
        return 0;
    }

    // The arbiter ignores SIGPIPE; bots get the default dispositions and an empty mask, their
    // pipes on 0, 1 and 2, the init's report on 3 and the descriptors passed on left open.
    int reset_signals_and_descriptors() {
        struct sigaction dfl {};
        dfl.sa_handler = SIG_DFL;
        for (int sig = 1; sig < NSIG; ++sig) {
            if (sig != SIGKILL && sig != SIGSTOP) ::sigaction(sig, &dfl, nullptr);
        }
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        if (::dup2(stdin_fd, STDIN_FILENO) < 0 || ::dup2(stdout_fd, STDOUT_FILENO) < 0 || ::dup2(stderr_fd, STDERR_FILENO) < 0)
            return errno;
        // dup2 leaves it open across exec. Every descriptor passed on was placed above 3.
        if (status_report >= 0 && ::dup2(status_report, kStatusReportFd) != kStatusReportFd) return errno;
        if (inherited_fds != nullptr)
            for (int fd : *inherited_fds)
                if (::fcntl(fd, F_SETFD, 0) != 0) return errno;
        return 0;
    }

    // The child could not exec; the launcher has put the reason in its error code, which the
    // parent reads (vfork: one memory). _exit, not the launcher's exit(): atexit handlers and
    // stdio buffers are the parent's. Variadic: the launcher's detection and its call differ.
    template <typename... Args>
    void on_exec_error(Args&&...) {
        ::_exit(127);
    }
};

// A confined bot's child: cloned into its namespaces (the launcher of Boost.Process only forks).
struct ConfinedLaunch {
    ChildSetup* setup = nullptr;
    const char* path = nullptr;
    char* const* argv = nullptr;
    int error = 0;  // written by the child (one memory) when it could not exec
    bool program_failed = false;  // the error is the program's exec, else the sandbox's set-up
};

int confined_child(void* arg) {
    auto& launch = *static_cast<ConfinedLaunch*>(arg);
    int error = launch.setup->run();
    if (error == 0) {
        // Every other descriptor of the arbiter stays out of the bot.
        ::syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC);
        error = become_init(*launch.setup->view, launch.path, launch.argv, const_cast<char* const*>(launch.setup->envp),
                            launch.program_failed);
    }
    launch.error = error;
    ::_exit(127);
}

// Clones the confined child with every signal blocked: until it has reset the dispositions, a
// handler of the arbiter must not run in it (it shares our memory).
pid_t spawn_confined(ConfinedLaunch& launch) {
    sigset_t all, old;
    sigfillset(&all);
    ::pthread_sigmask(SIG_SETMASK, &all, &old);
    const pid_t pid = clone_vfork(namespace_clone_flags(), confined_child, &launch);
    const int clone_error = errno;
    ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
    if (pid < 0) launch.error = clone_error;
    return pid;
}

SpawnedBot spawned(pid_t pid, Pipe& in, Pipe& out, Pipe& err) {
    SpawnedBot bot;
    bot.pid = pid;
    bot.stdin_write = std::move(in.write_end);
    bot.stdout_read = std::move(out.read_end);
    bot.stderr_read = std::move(err.read_end);
    // in.read_end, out.write_end, err.write_end close with the caller's pipes: EOF on the bot's
    // exit is observable.
    return bot;
}

}  // namespace

int confined_exit_status(int init_status, int init_status_read) {
    int program_status = 0;
    // The init wrote before it ended, so the report is there in full or not at all (the read end
    // does not block: a process that kept the write end cannot hold the arbiter).
    if (init_status_read >= 0 &&
        ::read(init_status_read, &program_status, sizeof program_status) == sizeof program_status)
        return program_status;
    return init_status;
}

namespace {

// What the child's exec takes, kept alive by the parent: the environment (the allowlisted part of
// the arbiter's, with the bot's own entries added or replacing) and the arguments.
struct ExecStrings {
    std::vector<std::string> env;
    std::vector<const char*> envp;
    std::vector<const char*> argv;
    std::string dir;
};

void make_exec_strings(const SpawnRequest& request, ExecStrings& out) {
    for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
        const std::string_view entry(*e);
        const std::string key(entry.substr(0, entry.find('=')));
        if (!request.env.contains(key) && environment_passes(key, request.pass_env)) out.env.emplace_back(entry);
    }
    for (const auto& [key, value] : request.env) out.env.push_back(key + "=" + value);
    for (const auto& e : out.env) out.envp.push_back(e.c_str());
    out.envp.push_back(nullptr);
    for (const auto& a : request.argv) out.argv.push_back(a.c_str());
    out.argv.push_back(nullptr);
    out.dir = request.dir.string();
}

// The cgroups' files the child writes itself into, opened by the parent.
std::vector<UniqueFd> open_cgroup_files(const SpawnRequest& request) {
    std::vector<UniqueFd> files;
    for (const auto& path : request.cgroup_join_files) {
        UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CLOEXEC));
        if (!fd.valid())
            throw UserError("bot '" + request.bot_name + "': cannot join cgroup " + path.string() + ": " + std::strerror(errno));
        files.push_back(std::move(fd));
    }
    return files;
}

void set_limits(ChildSetup& setup, const ChildResourceLimits& limits) {
    auto add_limit = [&](int resource, std::uint64_t value) {
        setup.limits[setup.limit_count++] = {resource, static_cast<rlim_t>(value)};
    };
    add_limit(RLIMIT_CORE, limits.core_dumps ? RLIM_INFINITY : 0);
    if (limits.address_space_bytes) add_limit(RLIMIT_AS, *limits.address_space_bytes);
    if (limits.cpu_seconds) add_limit(RLIMIT_CPU, *limits.cpu_seconds);
    if (limits.processes) add_limit(RLIMIT_NPROC, *limits.processes);
    if (limits.file_size_bytes) add_limit(RLIMIT_FSIZE, *limits.file_size_bytes);
}

// The init's report: above the descriptors a child sets up, so that moving it to 3 clobbers
// nothing; read once the init is reaped, never waited on.
Pipe status_pipe(const SpawnRequest& request) {
    Pipe status;
    if (!request.init_reports_status && !request.confined) return status;
    status = make_pipe(request.bot_name);
    status.write_end.reset(::fcntl(status.write_end.get(), F_DUPFD_CLOEXEC, kStatusReportFd + 1));
    ::fcntl(status.read_end.get(), F_SETFL, O_NONBLOCK);
    if (!status.write_end.valid()) throw UserError("bot '" + request.bot_name + "': cannot create a pipe: " + std::strerror(errno));
    return status;
}

// Confined by the arbiter's namespaces: the child is cloned into them (Boost.Process only forks).
pid_t spawn_in_namespaces(const SpawnRequest& request, ChildSetup& setup, ExecStrings& strings, int status_report) {
    NamespaceView view = namespace_view(*request.confined, request.view_options);
    view.status_report = status_report;
    setup.view = &view;
    setup.dir = nullptr;  // the view starts it in its folder
    const std::string path = request.executable.string();
    ConfinedLaunch launch;
    launch.setup = &setup;
    launch.path = path.c_str();
    launch.argv = const_cast<char* const*>(strings.argv.data());
    std::unique_lock registering(main_processes_mutex);
    const pid_t pid = spawn_confined(launch);
    if (launch.error != 0) {
        if (pid > 0) ::waitpid(pid, nullptr, 0);
        const std::string step = view.failed_step != nullptr ? std::string(" (") + view.failed_step + ")" : "";
        throw UserError("bot '" + request.bot_name + "': cannot start '" + path + "'" +
                        (launch.program_failed ? ": " : " in its sandbox" + step + ": ") + std::strerror(launch.error));
    }
    main_processes.insert(pid);
    return pid;
}

// Unconfined, or under bwrap: Boost.Process's vfork launcher. A private context: the launcher
// notifies it of the fork, and the table's own context (with its registered descriptors) stays
// out of the child. vfork, not fork: the child allocates (the context's fork notice) before exec,
// and in a forked copy of this multi-threaded process a lock another thread held at the fork
// would never be released (it hung under ASan); a vfork child shares the parent's memory and its
// live locks.
pid_t spawn_plain(const SpawnRequest& request, ChildSetup& setup, ExecStrings& strings, int status_report) {
    boost::asio::io_context spawn_context;
    bp2::posix::vfork_launcher launcher;
    launcher.fd_whitelist.insert(launcher.fd_whitelist.end(), request.inherited_fds.begin(), request.inherited_fds.end());
    if (status_report >= 0) {
        setup.status_report = status_report;
        launcher.fd_whitelist.push_back(kStatusReportFd);
    }
    bp2::error_code ec;
    const char** argv_data = strings.argv.data();
    // Held from the fork until the pid is registered: the zombie sweep of another seat must not
    // reap a bot that exits at once before its table knows it is a main process.
    std::unique_lock registering(main_processes_mutex);
    auto process = launcher(spawn_context.get_executor(), ec, bp2::filesystem::path(request.executable.string()), argv_data, setup);
    if (ec) {
        // The child ran but could not exec (bad dir, exec failure): it exited; reap it.
        if (launcher.pid > 0) ::waitpid(launcher.pid, nullptr, 0);
        throw UserError("bot '" + request.bot_name + "': cannot start '" + request.executable.string() + "': " + ec.message());
    }
    const pid_t pid = process.id();
    main_processes.insert(pid);
    // We reap with waitpid ourselves (by process group, after the group is killed).
    process.detach();
    return pid;
}

}  // namespace

SpawnedBot spawn_bot(const SpawnRequest& request) {
    prepare_arbiter_process();
    Pipe in = make_pipe(request.bot_name);
    Pipe out = make_pipe(request.bot_name);
    Pipe err = make_pipe(request.bot_name);
    const std::vector<UniqueFd> cgroup_files = open_cgroup_files(request);
    std::vector<int> cgroup_fds;
    for (const auto& fd : cgroup_files) cgroup_fds.push_back(fd.get());
    ExecStrings strings;
    make_exec_strings(request, strings);

    ChildSetup setup;
    setup.parent_pid = ::getpid();
    setup.umask_for_bot = bot_umask();
    setup.stdin_fd = in.read_end.get();
    setup.stdout_fd = out.write_end.get();
    setup.stderr_fd = err.write_end.get();
    setup.dir = strings.dir.empty() ? nullptr : strings.dir.c_str();
    setup.envp = strings.envp.data();
    setup.cgroup_fds = &cgroup_fds;
    setup.netns_fd = request.netns;
    if (request.user) setup.user = static_cast<long>(*request.user);
    set_limits(setup, request.limits);
    if (request.syscall_filter) setup.syscall_filter = &*request.syscall_filter;
    Pipe status = status_pipe(request);
    setup.inherited_fds = &request.inherited_fds;
    for (int fd : request.inherited_fds)
        if (fd <= kStatusReportFd) throw UserError("bot '" + request.bot_name + "': descriptor " + std::to_string(fd) + " cannot be passed on");

    const pid_t pid = request.confined ? spawn_in_namespaces(request, setup, strings, status.write_end.get())
                                       : spawn_plain(request, setup, strings, status.write_end.get());
    SpawnedBot bot = spawned(pid, in, out, err);
    bot.init_status_read = std::move(status.read_end);
    return bot;
}

}  // namespace arb
