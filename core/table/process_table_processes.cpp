// Starting a seat's bot (spawn with the cgroup/rlimit plan of bot_limits.cpp, in the sandbox the
// table chose) and close(): quit text, SIGTERM, SIGKILL, reap, the seats released
// (docs/core.md "Shutdown").
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

#include <boost/asio/post.hpp>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "core/confine/syscall_filter.hpp"
#include "core/confine/user_namespace.hpp"
#include "core/table/process_table_internal.hpp"
#include "core/user_error.hpp"

namespace arb::process_table_detail {
namespace {

// What a confined seat's bot sees besides the base view. The other seats' folders and the
// match's outputs are never shown; what is left out is said once per start.
ExposedPaths exposure(const Seat& seat, const std::vector<std::unique_ptr<Seat>>& seats, const TableOptions& options,
                      const SpawnRequest& request) {
    ExposureRequest wanted;
    wanted.bot_name = seat.launch.bot.name;
    wanted.executable = request.executable;
    wanted.argv = request.argv;
    wanted.dir = request.dir;
    wanted.extra_read_only = seat.launch.bot.read_only;
    for (const auto& other : seats)
        if (other.get() != &seat && !other->launch.bot.dir.empty()) wanted.other_bot_folders.push_back(other->launch.bot.dir);
    wanted.private_paths = options.private_paths;
    if (!options.transcript_path.empty()) wanted.private_paths.push_back(options.transcript_path);
    if (!options.log_dir.empty()) wanted.private_paths.push_back(options.log_dir);
    ExposedPaths exposed = exposed_paths(wanted);
    for (const auto& warning : exposed.warnings) spdlog::warn("bot '{}': {}", seat.launch.bot.name, warning);
    return exposed;
}

// A confined pipe seat's network: an empty one, lent for as long as the seat lives.
void confine_network(Seat& seat, SpawnRequest& request) {
    if (request.netns >= 0) return;
    seat.process.netns = LentNetworkNamespace::borrow();
    if (!seat.process.netns.valid())
        throw UserError("bot '" + seat.launch.bot.name + "': cannot make a network namespace: " + std::strerror(errno));
    request.netns = seat.process.netns.get();
}

// The arbiter's own sandbox: what the bot sees, its folder shown as its seat user's own, and a
// network namespace for a pipe seat.
void confine(Seat& seat, const Limits& limits, SpawnRequest& request, ExposedPaths exposed) {
    request.confined = std::move(exposed);
    request.view_options.disk_mib = limits.disk_mib;
    request.view_options.own_user_namespace = in_own_user_namespace();
    request.syscall_filter = syscall_filter(limits.allow_syscalls).program();
    struct stat folder {};
    const std::filesystem::path& writable = request.confined->writable;
    if (writable.empty() || ::stat(writable.c_str(), &folder) != 0) return confine_network(seat, request);
    if (request.user) {
        request.view_options.idmap_userns = idmap_user_namespace(*request.user, folder.st_uid, folder.st_gid);
        if (request.view_options.idmap_userns < 0)
            spdlog::warn("bot '{}': its folder {} cannot be shown as its own ({}); it writes there only where others may",
                         seat.launch.bot.name, writable.string(), std::strerror(errno));
    }
    // Its folder and /tmp bounded together (folder_overlay.hpp); the scratch's upper folder looks
    // like the folder as the bot sees it.
    if (limits.disk_mib > 0) {
        const bool as_seat_user = request.view_options.idmap_userns >= 0;
        FolderScratch& scratch = seat.process.folder_scratch;
        scratch.scratch = make_folder_scratch(limits.disk_mib, as_seat_user ? *request.user : folder.st_uid,
                                              as_seat_user ? *request.user : folder.st_gid, folder.st_mode);
        scratch.folder = writable;
        scratch.owner_uid = folder.st_uid;
        scratch.owner_gid = folder.st_gid;
        scratch.bounds.folder_bytes = limits.folder_mib << 20;
        if (scratch.valid()) request.view_options.scratch = scratch.scratch.get();
        else
            throw UserError("bot '" + seat.launch.bot.name + "': cannot make the scratch file system that bounds its folder (" +
                            std::strerror(errno) + "); --disk-mib 0 writes the folder directly, unbounded");
    }
    confine_network(seat, request);
}

// bwrap runs the bot: its command line, the syscall filter it reads at its start (--seccomp FD),
// and the init that reports the program's end.
UniqueFd wrap_in_bwrap(const SandboxPlan& plan, const Limits& limits, bool networked, SpawnRequest& request,
                       ExposedPaths exposed) {
    SandboxedCommand command;
    command.executable = request.executable;
    command.argv = request.argv;
    command.paths = std::move(exposed);
    command.network = networked;
    command.disk_mib = limits.disk_mib;
    UniqueFd filter = syscall_filter_memfd(syscall_filter(limits.allow_syscalls));
    // Above 3, where the init's report goes (SpawnRequest::init_reports_status).
    if (filter.valid()) filter.reset(::fcntl(filter.get(), F_DUPFD_CLOEXEC, 10));
    command.seccomp_fd = filter.get();
    if (command.seccomp_fd >= 0) request.inherited_fds.push_back(command.seccomp_fd);
    command.init_fd = namespace_init_program();
    if (command.init_fd >= 0) {
        request.inherited_fds.push_back(command.init_fd);
        request.init_reports_status = true;
    }
    request.argv = bwrap_argv(plan, command);
    request.executable = plan.bwrap_path;
    return filter;
}

SpawnRequest spawn_request(const SeatLaunch& launch, const Limits& limits) {
    SpawnRequest request;
    request.bot_name = launch.bot.name;
    request.executable = resolve_executable(launch.bot);
    request.argv = launch.bot.argv;
    request.argv.insert(request.argv.end(), launch.extra_args.begin(), launch.extra_args.end());
    request.dir = launch.bot.dir;
    request.env = launch.bot.env;
    request.pass_env = limits.pass_env;
    return request;
}

// The bot's ends of its pipes: the channel takes those it talks over (a stdio seat's stdin and
// stdout). A bot that talks elsewhere (TCP, HTTP) reads end of file on stdin, and its stdout goes
// to the log, like stderr.
void attach_pipes(Seat& seat, SpawnedBot& bot, asio::io_context& ctx) {
    for (int fd : {bot.stdin_write.get(), bot.stdout_read.get(), bot.stderr_read.get()}) {
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    }
    seat.channel->attach(bot);
    bot.stdin_write.reset();
    if (bot.stdout_read.valid()) {
        seat.log.out.pipe = std::make_unique<asio::posix::stream_descriptor>(ctx, bot.stdout_read.release());
        seat.log.watch(seat.log.out);
    }
    seat.log.err.pipe = std::make_unique<asio::posix::stream_descriptor>(ctx, bot.stderr_read.release());
    seat.log.watch(seat.log.err);
}

}  // namespace

// ---- start -----------------------------------------------------------------------------------

void ProcessTableImpl::start_seat(Seat& seat) {
    const SeatLaunch& launch = seat.launch;
    if (!launch.bot.url.empty()) {  // a bot already serving HTTP: no process to start
        seat.channel->attach_remote(launch.bot.url);  // a UserError when the game does not use HTTP
        seat.process.group_gone = true;
        seat.process.main_reaped = true;
        return seat.exchange.transcript('#', "remote bot at " + launch.bot.url);
    }
    const Limits& limits = options_.limits;
    SpawnRequest request = spawn_request(launch, limits);
    // Under a root arbiter's sandbox a bot never runs as root: a user id of its own per seat.
    if (limits.seat_users || (sandbox_plan_.confined() && host_root())) {
        seat.process.user = take_seat_user();
        request.user = seat.process.user.id();
    }
    std::optional<ExposedPaths> exposed;
    if (sandbox_plan_.confined()) exposed = exposure(seat, seats_, options_, request);
    UniqueFd filter_for_bwrap;  // read by bwrap at its start
    if (sandbox_plan_.bwrap)
        filter_for_bwrap = wrap_in_bwrap(sandbox_plan_, limits, seat.channel->networked(), request, std::move(*exposed));
    seat.channel->prepare(request, sandbox_plan_.confined());
    if (sandbox_plan_.namespaces) confine(seat, limits, request, std::move(*exposed));
    seat.process.cgroup = create_bot_cgroup(limits_plan_, limits, launch.info.label, options_.freeze_idle);
    request.limits = child_limits(limits_plan_, limits);
    // A fresh user runs nothing else, and a user namespace of the seat's own counts its processes
    // apart (an unprivileged arbiter's): RLIMIT_NPROC counts this seat's processes alone.
    if ((request.user || request.view_options.own_user_namespace) && limits.max_processes > 0)
        request.limits.processes = limits.max_processes;
    request.cgroup_join_files = seat.process.cgroup.join_files();
    if (!options_.log_dir.empty()) seat.log.open(options_.log_dir / (launch.info.label + ".stderr.log"));

    SpawnedBot bot = spawn_bot(request);
    seat.process.started(bot.pid, sandbox_plan_.confined(), std::move(bot.init_status_read), ctx_, [this, &seat] {
        // Whatever the bot wrote before it exited is still in the pipe: read it before judging.
        // A forked child may keep stdout open, so the exit itself ends a pending reply. Judged
        // after the handlers already queued: a read that completed as it was started (Asio reads
        // at once when it can) holds the bot's last bytes, and a read now would miss them.
        if (seat.exchange.pending()) asio::post(ctx_, [&seat] { seat.exchange.exited_while_pending(); });
    });
    attach_pipes(seat, bot, ctx_);
    spdlog::debug("seat {} ({}): started pid {} : {}", launch.info.label, launch.bot.name, bot.pid, launch.bot.command);
    seat.exchange.transcript('#', fmt::format("started pid {}", bot.pid));
    if (options_.freeze_idle) seat.process.freeze();
}

// ---- close -----------------------------------------------------------------------------------

void ProcessTableImpl::close() {
    if (closed_) return;
    closed_ = true;
    shared_port_.close();
    // 1. Quit text, then end of input: polite bots exit on either; what they still write is read
    //    and dropped.
    for (const auto& seat : seats_) {
        const bool asked = seat->exchange.playing() && !seat->process.main_exited;
        seat->exchange.close();
        if (seat->process.pid <= 0) continue;
        seat->process.thaw();
        seat->channel->quit(asked ? std::string_view(options_.quit_text) : std::string_view());
    }
    auto all_mains_exited = [&] {
        return std::all_of(seats_.begin(), seats_.end(),
                           [](const auto& seat) { return seat->process.pid <= 0 || seat->process.main_exited; });
    };
    pump_until(all_mains_exited, SteadyClock::now() + options_.quit_grace);

    // 2. SIGTERM the groups, including children left behind by a main process that exited.
    for (const auto& seat : seats_) {
        seat->process.reap();
        if (!seat->process.gone()) seat->process.signal(SIGTERM);
    }
    wait_groups(options_.term_grace);

    // 3. SIGKILL whatever is left, and reap it.
    for (const auto& seat : seats_) {
        if (seat->process.gone()) continue;
        spdlog::debug("seat {}: SIGKILL after SIGTERM grace", seat->launch.info.label);
        seat->process.signal(SIGKILL);
    }
    wait_groups(kKillWait);
    for (const auto& seat : seats_) seat->release(options_);
    ctx_.poll();  // complete the cancelled operations
    ctx_.restart();
}

void ProcessTableImpl::wait_groups(Millis limit) {
    const auto until = SteadyClock::now() + limit;
    auto all_gone = [&] {
        for (const auto& seat : seats_) seat->process.reap();
        return std::all_of(seats_.begin(), seats_.end(), [](const auto& seat) { return seat->process.gone(); });
    };
    while (!all_gone() && SteadyClock::now() < until) {
        pump_until([] { return false; }, std::min(until, SteadyClock::now() + kReapPoll));
    }
}

void Seat::release(const TableOptions& options) {
    if (!process.gone()) spdlog::warn("seat {}: process group {} still present after SIGKILL", launch.info.label, process.pid);
    log.finish();
    channel->release();
    // A process of the seat killed for memory, the main one still playing (a child it forked):
    // the seat broke its limit all the same.
    if (exchange.playing() && process.cgroup.oom_killed()) {
        exchange.mark_retired(SeatStatus::killed,
                              fmt::format("a process of the bot exceeded the memory limit of {} MiB", options.limits.memory_mib),
                              "memory");
    }
    process.write_back_folder(launch.bot.name, launch.info.label);
    process.release();
    exchange.transcript('#', process.exit_text("ended"));
}

}  // namespace arb::process_table_detail
