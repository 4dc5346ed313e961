// The ProcessTable's bot processes: start (spawn with the cgroup/rlimit plan of bot_limits.cpp),
// the exit watch (pidfd), freezing, retiring (SIGKILL at once), reaping by process group, and
// close(): quit text, SIGTERM, SIGKILL, reap, remove the cgroups (docs/core.md "Shutdown").
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>

#include <boost/asio/post.hpp>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "core/table/process_table_internal.hpp"
#include "core/confine/syscall_filter.hpp"
#include "core/confine/user_namespace.hpp"
#include "core/user_error.hpp"

namespace arb::process_table_detail {
namespace {

int pidfd_open(pid_t pid) { return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)); }

// How long a start waits for bwrap to start the bot's program (it takes a few milliseconds).
constexpr int kProgramStartWaitMs = 2000;

// "exited with code N" / "killed by signal N" for a reaped main process, else `otherwise`.
std::string exit_text(const SeatProcess& process, std::string otherwise) {
    if (process.main_reaped && WIFEXITED(process.exit_status)) return fmt::format("exited with code {}", WEXITSTATUS(process.exit_status));
    if (process.main_reaped && WIFSIGNALED(process.exit_status)) return fmt::format("killed by signal {}", WTERMSIG(process.exit_status));
    return otherwise;
}

}  // namespace

// ---- start -----------------------------------------------------------------------------------

void ProcessTableImpl::start_seat(int s) {
    Seat& seat = at(s);
    const SeatLaunch& launch = seat.launch;
    const Limits& limits = options_.limits;
    SpawnRequest request;
    request.bot_name = launch.bot.name;
    request.executable = resolve_executable(launch.bot);
    request.argv = launch.bot.argv;
    request.argv.insert(request.argv.end(), launch.extra_args.begin(), launch.extra_args.end());
    request.dir = launch.bot.dir;
    request.env = launch.bot.env;
    request.pass_env = limits.pass_env;
    // Under a root arbiter's sandbox a bot never runs as root: a user id of its own per seat.
    if (limits.seat_users || (sandbox_plan_.confined() && host_root())) {
        seat.process.user = take_seat_user();
        request.user = seat.process.user.id();
    }
    std::optional<ExposedPaths> exposed;
    if (sandbox_plan_.confined()) exposed = exposure(s, request);
    UniqueFd filter_for_bwrap;  // read by bwrap at its start (--seccomp FD)
    if (sandbox_plan_.bwrap) {
        SandboxedCommand command;
        command.executable = request.executable;
        command.argv = request.argv;
        command.paths = *exposed;
        command.network = seat.channel->networked();
        command.disk_mib = limits.disk_mib;
        filter_for_bwrap = syscall_filter_memfd(syscall_filter(limits.allow_syscalls));
        // Above 3, where the init's report goes (SpawnRequest::init_reports_status).
        if (filter_for_bwrap.valid()) filter_for_bwrap.reset(::fcntl(filter_for_bwrap.get(), F_DUPFD_CLOEXEC, 10));
        command.seccomp_fd = filter_for_bwrap.get();
        if (command.seccomp_fd >= 0) request.inherited_fds.push_back(command.seccomp_fd);
        command.init_fd = namespace_init_program();
        if (command.init_fd >= 0) {
            request.inherited_fds.push_back(command.init_fd);
            request.init_reports_status = true;
        }
        request.argv = bwrap_argv(sandbox_plan_, command);
        request.executable = sandbox_plan_.bwrap_path;
    }
    seat.channel->prepare(request, sandbox_plan_.confined() && launch.bot.url.empty());
    if (sandbox_plan_.namespaces) confine(s, request, std::move(*exposed));
    seat.process.cgroup = create_bot_cgroup(limits_plan_, limits, launch.info.label, options_.freeze_idle);
    request.limits = child_limits(limits_plan_, limits);
    // A fresh user runs nothing else, and a user namespace of the seat's own counts its processes
    // apart (an unprivileged arbiter's): RLIMIT_NPROC counts this seat's processes alone.
    if ((request.user || request.view_options.own_user_namespace) && limits.max_processes > 0)
        request.limits.processes = limits.max_processes;
    request.cgroup_join_files = seat.process.cgroup.join_files();

    if (!options_.log_dir.empty()) {
        const auto path = options_.log_dir / (launch.info.label + ".stderr.log");
        seat.log.file.reset(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
        if (!seat.log.file.valid()) {
            throw UserError("cannot write bot log '" + path.string() + "': " + std::strerror(errno));
        }
    }

    SpawnedBot bot = spawn_bot(request);
    SeatProcess& process = seat.process;
    process.pid = bot.pid;
    process.sandboxed = sandbox_plan_.confined();
    process.init_status_read = std::move(bot.init_status_read);
    // A confined program is looked for at its first request, so the seats' sandboxes start side
    // by side; at once if it is to be frozen (stopped, bwrap would not start it).
    if (!process.sandboxed || options_.freeze_idle) find_program(s);
    attach_pipes(s, bot);
    const int pidfd = pidfd_open(process.pid);
    if (pidfd >= 0) {
        process.exit_watch = std::make_unique<asio::posix::stream_descriptor>(ctx_, pidfd);
        watch_exit(s);
    }
    watch_log(s, seat.log.err);
    spdlog::debug("seat {} ({}): started pid {} : {}", launch.info.label, launch.bot.name, process.pid,
                  launch.bot.command);
    transcript(seat, '#', fmt::format("started pid {}", process.pid));
    if (options_.freeze_idle) freeze(s);
}

void ProcessTableImpl::start_remote_seat(int s) {
    Seat& seat = at(s);
    seat.channel->attach_remote(seat.launch.bot.url);  // a UserError when the game does not use HTTP
    seat.process.pid = -1;
    seat.process.group_gone = true;
    seat.process.main_reaped = true;
    transcript(seat, '#', "remote bot at " + seat.launch.bot.url);
}

// What a confined seat's bot sees besides the base view. The other seats' folders and the
// match's outputs are never shown; what is left out is said once per start.
ExposedPaths ProcessTableImpl::exposure(int s, const SpawnRequest& request) const {
    const Seat& seat = at(s);
    ExposureRequest wanted;
    wanted.bot_name = seat.launch.bot.name;
    wanted.executable = request.executable;
    wanted.argv = request.argv;
    wanted.dir = request.dir;
    wanted.extra_read_only = seat.launch.bot.read_only;
    for (const auto& other : seats_)
        if (other.get() != &seat && !other->launch.bot.dir.empty()) wanted.other_bot_folders.push_back(other->launch.bot.dir);
    wanted.private_paths = options_.private_paths;
    if (!options_.transcript_path.empty()) wanted.private_paths.push_back(options_.transcript_path);
    if (!options_.log_dir.empty()) wanted.private_paths.push_back(options_.log_dir);
    ExposedPaths exposed = exposed_paths(wanted);
    for (const auto& warning : exposed.warnings) spdlog::warn("bot '{}': {}", seat.launch.bot.name, warning);
    return exposed;
}

// The arbiter's own sandbox: what the bot sees, its folder shown as its seat user's own, and a
// network namespace for a pipe seat (an empty one, lent for as long as the seat lives).
void ProcessTableImpl::confine(int s, SpawnRequest& request, ExposedPaths exposed) {
    Seat& seat = at(s);
    request.confined = std::move(exposed);
    request.view_options.disk_mib = options_.limits.disk_mib;
    request.view_options.own_user_namespace = in_own_user_namespace();
    request.syscall_filter = syscall_filter(options_.limits.allow_syscalls).program();
    struct stat folder {};
    const std::filesystem::path& writable = request.confined->writable;
    if (writable.empty() || ::stat(writable.c_str(), &folder) != 0) return confine_network(s, request);
    if (request.user) {
        request.view_options.idmap_userns = idmap_user_namespace(*request.user, folder.st_uid, folder.st_gid);
        if (request.view_options.idmap_userns < 0)
            spdlog::warn("bot '{}': its folder {} cannot be shown as its own ({}); it writes there only where others may",
                         seat.launch.bot.name, writable.string(), std::strerror(errno));
    }
    // Its folder and /tmp bounded together (folder_overlay.hpp); the scratch's upper folder looks
    // like the folder as the bot sees it.
    if (options_.limits.disk_mib > 0) {
        const bool as_seat_user = request.view_options.idmap_userns >= 0;
        FolderScratch& scratch = seat.process.folder_scratch;
        scratch.scratch = make_folder_scratch(options_.limits.disk_mib, as_seat_user ? *request.user : folder.st_uid,
                                              as_seat_user ? *request.user : folder.st_gid, folder.st_mode);
        scratch.folder = writable;
        scratch.owner_uid = folder.st_uid;
        scratch.owner_gid = folder.st_gid;
        scratch.bounds.folder_bytes = options_.limits.folder_mib << 20;
        if (scratch.valid()) request.view_options.scratch = scratch.scratch.get();
        else
            throw UserError("bot '" + seat.launch.bot.name + "': cannot make the scratch file system that bounds its folder (" +
                            std::strerror(errno) + "); --disk-mib 0 writes the folder directly, unbounded");
    }
    confine_network(s, request);
}

void ProcessTableImpl::confine_network(int s, SpawnRequest& request) {
    Seat& seat = at(s);
    if (request.netns < 0) {
        seat.process.netns = LentNetworkNamespace::borrow();
        if (!seat.process.netns.valid())
            throw UserError("bot '" + seat.launch.bot.name + "': cannot make a network namespace: " + std::strerror(errno));
        request.netns = seat.process.netns.get();
    }
}

// The program whose CPU clock and run state are read: the main process, or under bwrap the bot's
// own program two processes down, which bwrap starts a few milliseconds after its own start.
void ProcessTableImpl::find_program(int s) {
    SeatProcess& process = at(s).process;
    if (process.program_found || process.pid <= 0) return;
    process.program_found = true;
    process.program_pid = process.sandboxed ? sandboxed_program_pid(process.pid, sandbox_plan_.program_depth(), kProgramStartWaitMs) : process.pid;
    if (process.program_pid <= 0) process.program_pid = process.pid;
    process.has_cpu_clock = ::clock_getcpuclockid(process.program_pid, &process.cpu_clock) == 0;
    process.schedstat.reset(::open(fmt::format("/proc/{}/schedstat", process.program_pid).c_str(), O_RDONLY | O_CLOEXEC));
    process.proc_stat.reset(::open(fmt::format("/proc/{}/stat", process.program_pid).c_str(), O_RDONLY | O_CLOEXEC));
}

// The bot's ends of its pipes: the channel takes those it talks over (a stdio seat's stdin and
// stdout). A bot that talks elsewhere (TCP, HTTP) reads end of file on stdin, and its stdout goes
// to the log, like stderr.
void ProcessTableImpl::attach_pipes(int s, SpawnedBot& bot) {
    Seat& seat = at(s);
    for (int fd : {bot.stdin_write.get(), bot.stdout_read.get(), bot.stderr_read.get()}) {
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    }
    seat.channel->attach(bot);
    bot.stdin_write.reset();
    if (bot.stdout_read.valid()) {
        seat.log.out.pipe = std::make_unique<asio::posix::stream_descriptor>(ctx_, bot.stdout_read.release());
        watch_log(s, seat.log.out);
    }
    seat.log.err.pipe = std::make_unique<asio::posix::stream_descriptor>(ctx_, bot.stderr_read.release());
}

// ---- exit, signals, reaping ------------------------------------------------------------------

SeatEnd ProcessTableImpl::seat_end(int s) const {
    const Seat& seat = at(s);
    SeatEnd end;
    end.limit = seat.limit;
    if (!seat.process.main_reaped) return end;
    const int status = seat.process.exit_status;
    if (WIFEXITED(status)) end.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) end.exit_signal = WTERMSIG(status);
    // RLIMIT_CPU is the backstop for the whole match: the kernel's SIGXCPU says it was hit.
    if (end.limit.empty() && end.exit_signal == SIGXCPU) end.limit = "cpu time";
    return end;
}

void ProcessTableImpl::watch_exit(int s) {
    SeatProcess& process = at(s).process;
    if (process.exit_waiting || process.main_exited || !process.exit_watch) return;
    process.exit_waiting = true;
    process.exit_watch->async_wait(asio::posix::stream_descriptor::wait_read,
                                   [this, s](const boost::system::error_code& ec) {
                                       at(s).process.exit_waiting = false;
                                       if (!ec) on_main_exit(s);
                                   });
}

void ProcessTableImpl::on_main_exit(int s) {
    Seat& seat = at(s);
    seat.process.main_exited = true;
    reap_group(s);
    // Whatever the bot wrote before it exited is still in the pipe: read it before judging.
    // A forked child may keep stdout open, so the exit itself ends a pending reply. Judged after
    // the handlers already queued: a read that completed as it was started (Asio reads at once
    // when it can) holds the bot's last bytes, and a read of the descriptor now would miss them.
    if (!seat.requests.pending()) return;
    asio::post(ctx_, [this, s] {
        Seat& seat = at(s);
        if (!seat.requests.pending()) return;
        seat.channel->read_after_exit();
        if (seat.requests.pending()) finish(s, ReplyStatus::closed, exit_text(seat.process, "exited"));
    });
}

std::string ProcessTableImpl::exit_or(int s, std::string otherwise) {
    SeatProcess& process = at(s).process;
    // The pipe closes as the bot exits, a moment before its exit status can be collected.
    for (int i = 0; i < 50 && process.pid > 0 && !process.main_reaped && !process.group_gone; ++i) {
        reap_group(s);
        if (!process.main_reaped) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return exit_text(process, std::move(otherwise));
}

void ProcessTableImpl::reap_group(int s) {
    SeatProcess& process = at(s).process;
    if (process.pid <= 0 || process.group_gone) return;
    for (;;) {
        int status = 0;
        rusage usage{};
        const pid_t pid = ::wait4(-process.pid, &status, WNOHANG, &usage);
        if (pid <= 0) break;
        if (pid == process.pid) {
            process.main_exited = true;
            process.main_reaped = true;
            if (process.init_status_read.valid())
                process.exit_status = confined_exit_status(status, process.init_status_read.get());
            else process.exit_status = process.sandboxed ? unwrap_sandbox_status(status) : status;
            process.init_status_read.reset();
            process.main_usage = usage;
            forget_main_process(pid);
        }
    }
    // Strays left their group (setsid); as a child subreaper we adopt them when their parent
    // dies, so each is reaped by its own pid (never waitpid(-1): other seats' children are ours too).
    std::erase_if(process.strays, [](pid_t pid) {
        int status = 0;
        const pid_t r = ::waitpid(pid, &status, WNOHANG);
        return r == pid || (r < 0 && ::kill(pid, 0) != 0 && errno == ESRCH);
    });
    // No member left (also no zombie of ours), no stray and nobody in the cgroup: all gone.
    if (::kill(-process.pid, 0) != 0 && errno == ESRCH && process.strays.empty() && process.cgroup.members().empty())
        process.group_gone = true;
}

// Nothing of the seat writes any more: its folder's changes leave the scratch for the folder.
// After the match (from close), never while a seat thinks: a write-back of many files takes
// seconds, which the event loop would otherwise charge to whoever is thinking meanwhile.
void ProcessTableImpl::write_back_folder(int s) {
    Seat& seat = at(s);
    if (!seat.process.folder_scratch.valid()) return;
    if (seat.process.pid <= 0) {  // never started
        seat.process.folder_scratch.scratch.reset();
        return;
    }
    if (!seat.process.group_gone) {  // a process of the seat outlived SIGKILL and may still write
        spdlog::warn("bot '{}': its folder's changes are dropped: a process of its seat still runs", seat.launch.bot.name);
        seat.process.folder_scratch.scratch.reset();
        return;
    }
    const FolderWriteBack done = seat.process.folder_scratch.write_back();
    spdlog::debug("seat {}: {} entries of its folder written back, {} removed", seat.launch.info.label, done.written,
                  done.removed);
    if (!done.error.empty())  // an entry skipped, or the scratch or folder not opened
        spdlog::warn("bot '{}': {} of its folder's changes not written back to {}: {}", seat.launch.bot.name,
                     std::max(done.skipped, 1), seat.process.folder_scratch.folder.string(), done.error);
}

void ProcessTableImpl::signal_group(int s, int sig) {
    SeatProcess& process = at(s).process;
    if (process.pid <= 0 || process.group_gone) return;
    // Members that left the process group (setsid) are signalled through the cgroup, and
    // remembered so that they are reaped too.
    for (pid_t pid : process.cgroup.members())
        if (::getpgid(pid) != process.pid && std::find(process.strays.begin(), process.strays.end(), pid) == process.strays.end())
            process.strays.push_back(pid);
    process.cgroup.signal_all(sig);
    ::kill(-process.pid, sig);
}

// Through the freezer cgroup where there is one: every process of the seat stops at once, also
// one forked a moment ago. SIGSTOP by pid, the fallback, misses a process born after the list
// was read, so a bot that keeps re-forking runs on.
void ProcessTableImpl::freeze(int s) {
    Seat& seat = at(s);
    if (seat.process.frozen || seat.status != SeatStatus::ok) return;
    if (!seat.process.cgroup.freeze(true)) signal_group(s, SIGSTOP);
    seat.process.frozen = true;
}

void ProcessTableImpl::thaw(int s) {
    SeatProcess& process = at(s).process;
    if (!process.frozen) return;
    if (!process.cgroup.freeze(false)) signal_group(s, SIGCONT);
    process.frozen = false;
}

Nanos ProcessTableImpl::cpu_now(const Seat& seat) const {
    if (!seat.process.has_cpu_clock) return Nanos{0};
    timespec ts{};
    if (::clock_gettime(seat.process.cpu_clock, &ts) != 0) return Nanos{0};
    return std::chrono::seconds(ts.tv_sec) + Nanos(ts.tv_nsec);
}

// ---- retire ----------------------------------------------------------------------------------

void ProcessTableImpl::stop_seat(int s, SeatStatus why, std::string detail) {
    Seat& seat = at(s);
    if (seat.status != SeatStatus::ok) return;
    seat.status = why;
    seat.detail = std::move(detail);
    spdlog::debug("seat {} ({}) retired: {}: {}", seat.launch.info.label, seat.launch.bot.name, to_string(why),
                  seat.detail);
    transcript(seat, '#', fmt::format("retired: {}: {}", to_string(why), seat.detail));
    if (seat.requests.pending()) {
        // The referee retired a seat while its request was open (only possible from a framer).
        seat.requests.active->done = true;
        seat.requests.active->reply->status = ReplyStatus::not_running;
    }
    // SIGKILL at once: a retired seat must not answer anything again, and has nothing to save.
    signal_group(s, SIGKILL);
    seat.channel->stop();
    thaw(s);  // a frozen process dies of the SIGKILL only once thawed
    reap_group(s);
}

void ProcessTableImpl::retire(int s, SeatStatus why, std::string_view detail) {
    stop_seat(s, why, std::string(detail));
}

// ---- close -----------------------------------------------------------------------------------

void ProcessTableImpl::close() {
    if (closed_) return;
    closed_ = true;
    for (auto& seat : seats_) {
        if (seat->requests.pending()) seat->requests.active.reset();
    }
    // 1. Quit text, then end of input: polite bots exit on either.
    for (int s = 0; s < size(); ++s) ask_to_quit(s);
    auto all_mains_exited = [&] {
        return std::all_of(seats_.begin(), seats_.end(),
                           [](const auto& seat) { return seat->process.pid <= 0 || seat->process.main_exited; });
    };
    pump_until(all_mains_exited, SteadyClock::now() + options_.quit_grace);

    // 2. SIGTERM the groups, including children left behind by a main process that exited.
    for (int s = 0; s < size(); ++s) {
        reap_group(s);
        if (!at(s).process.group_gone) signal_group(s, SIGTERM);
    }
    wait_groups(options_.term_grace);

    // 3. SIGKILL whatever is left, and reap it.
    for (int s = 0; s < size(); ++s) {
        if (!at(s).process.group_gone) {
            spdlog::debug("seat {}: SIGKILL after SIGTERM grace", at(s).launch.info.label);
            signal_group(s, SIGKILL);
        }
    }
    wait_groups(kKillWait);
    for (int s = 0; s < size(); ++s) release_seat(s);
    ctx_.poll();  // complete the cancelled operations
    ctx_.restart();
}

void ProcessTableImpl::ask_to_quit(int s) {
    Seat& seat = at(s);
    if (seat.process.pid <= 0) return;
    thaw(s);
    // Quit text, then end of input; what the bot still writes is read and dropped.
    const bool asked = seat.status == SeatStatus::ok && !seat.process.main_exited;
    seat.channel->quit(asked ? std::string_view(options_.quit_text) : std::string_view());
}

bool ProcessTableImpl::all_groups_gone() {
    for (int s = 0; s < size(); ++s) {
        const SeatProcess& process = at(s).process;
        if (process.pid > 0 && !process.group_gone) reap_group(s);
    }
    return std::all_of(seats_.begin(), seats_.end(),
                       [](const auto& seat) { return seat->process.pid <= 0 || seat->process.group_gone; });
}

void ProcessTableImpl::wait_groups(Millis limit) {
    const auto until = SteadyClock::now() + limit;
    while (!all_groups_gone() && SteadyClock::now() < until) {
        pump_until([] { return false; }, std::min(until, SteadyClock::now() + kReapPoll));
    }
}

// After the group is gone: the last of stderr, the log trailer, the usage kept from the cgroup
// before it is removed, every descriptor closed.
void ProcessTableImpl::release_seat(int s) {
    Seat& seat = at(s);
    SeatProcess& process = seat.process;
    if (process.pid > 0 && !process.group_gone) {
        spdlog::warn("seat {}: process group {} still present after SIGKILL", seat.launch.info.label, process.pid);
    }
    drain_log(s, seat.log.err, 1 << 20);
    if (seat.log.out.pipe) seat.log.out.pipe->close();
    seat.channel->release();
    write_log_trailer(seat);
    // A process of the seat killed for memory, the main one still playing (a child it forked):
    // the seat broke its limit all the same.
    if (seat.status == SeatStatus::ok && process.cgroup.oom_killed()) {
        seat.status = SeatStatus::killed;
        seat.limit = "memory";
        seat.detail = fmt::format("a process of the bot exceeded the memory limit of {} MiB", options_.limits.memory_mib);
        transcript(seat, '#', "retired: killed: " + seat.detail);
    }
    write_back_folder(s);
    process.peak_memory_kib_cache = process.cgroup.peak_memory_kib();
    process.cpu_total_cache = process.cgroup.cpu_used();
    process.cgroup.remove();
    // Its id is free for another seat once nothing of this one runs; a process that outlived
    // SIGKILL keeps it taken until the table goes.
    if (process.group_gone) {
        process.user = SeatUser();
        process.netns.give_back();
    }
    reap_adopted_zombies();
    if (seat.log.err.pipe) seat.log.err.pipe->close();
    if (process.exit_watch) process.exit_watch->close();
    transcript(seat, '#', exit_text(process, "ended"));
}

}  // namespace arb::process_table_detail
