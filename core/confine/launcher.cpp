// The launchers (launcher.hpp): the sequence every start runs, and the confinement step of each.
#include "core/confine/launcher.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include <spdlog/spdlog.h>

#include "core/confine/syscall_filter.hpp"
#include "core/confine/user_namespace.hpp"
#include "core/user_error.hpp"

namespace arb {
namespace {

SpawnRequest spawn_request(const SeatToStart& seat, const Limits& limits) {
    SpawnRequest request;
    request.bot_name = seat.bot.name;
    request.executable = resolve_executable(seat.bot);
    request.argv = seat.bot.argv;
    request.argv.insert(request.argv.end(), seat.extra_args.begin(), seat.extra_args.end());
    request.dir = seat.bot.dir;
    request.env = seat.bot.env;
    request.pass_env = limits.pass_env;
    return request;
}

// What a confined seat's bot sees besides the base view. The other seats' folders and the
// match's outputs are never shown; what is left out is said once per start.
ExposedPaths exposure(const SeatToStart& seat, const TableOptions& options, const SpawnRequest& request) {
    ExposureRequest wanted;
    wanted.bot_name = seat.bot.name;
    wanted.executable = request.executable;
    wanted.argv = request.argv;
    wanted.dir = request.dir;
    wanted.extra_read_only = seat.bot.read_only;
    wanted.other_bot_folders = seat.other_bot_folders;
    wanted.private_paths = options.private_paths;
    if (!options.transcript_path.empty()) wanted.private_paths.push_back(options.transcript_path);
    if (!options.log_dir.empty()) wanted.private_paths.push_back(options.log_dir);
    ExposedPaths exposed = exposed_paths(wanted);
    for (const auto& warning : exposed.warnings) spdlog::warn("bot '{}': {}", seat.bot.name, warning);
    return exposed;
}

// Without a sandbox the bot runs as it is, in the arbiter's view.
class PlainLauncher final : public Launcher {
public:
    using Launcher::Launcher;

protected:
    void confine(const SeatToStart&, SpawnRequest&, ExposedPaths, StartedSeat&) const override {}
};

// bwrap runs the bot: its command line, the syscall filter it reads at its start (--seccomp FD),
// and the init that reports the program's end.
class BwrapLauncher final : public Launcher {
public:
    using Launcher::Launcher;

protected:
    void confine(const SeatToStart& seat, SpawnRequest& request, ExposedPaths exposed, StartedSeat& started) const override {
        SandboxedCommand command;
        command.executable = request.executable;
        command.argv = request.argv;
        command.paths = std::move(exposed);
        command.network = seat.networked;
        command.disk_mib = options_.limits.disk_mib;
        started.bwrap_filter = syscall_filter_memfd(syscall_filter(options_.limits.allow_syscalls));
        // Above 3, where the init's report goes (SpawnRequest::init_reports_status).
        UniqueFd& filter = started.bwrap_filter;
        if (filter.valid()) filter.reset(::fcntl(filter.get(), F_DUPFD_CLOEXEC, 10));
        command.seccomp_fd = filter.get();
        if (command.seccomp_fd >= 0) request.inherited_fds.push_back(command.seccomp_fd);
        command.init_fd = namespace_init_program();
        if (command.init_fd >= 0) {
            request.inherited_fds.push_back(command.init_fd);
            request.init_reports_status = true;
        }
        request.argv = bwrap_argv(sandbox_, command);
        request.executable = sandbox_.bwrap_path;
    }
};

// The arbiter's own sandbox: what the bot sees, its folder shown as its seat user's own and
// bounded with its /tmp, a network of its own for a pipe seat, the syscall filter.
class NamespacesLauncher final : public Launcher {
public:
    using Launcher::Launcher;

protected:
    void confine(const SeatToStart& seat, SpawnRequest& request, ExposedPaths exposed, StartedSeat& started) const override {
        request.confined = std::move(exposed);
        request.view_options.disk_mib = options_.limits.disk_mib;
        request.view_options.own_user_namespace = in_own_user_namespace();
        request.syscall_filter = syscall_filter(options_.limits.allow_syscalls).program();
        struct stat folder {};
        const std::filesystem::path& writable = request.confined->writable;
        if (!writable.empty() && ::stat(writable.c_str(), &folder) == 0) show_folder(seat, request, folder, started);
        if (request.netns < 0) {  // a pipe seat: an empty network, lent for as long as the seat lives
            started.netns = LentNetworkNamespace::borrow();
            if (!started.netns.valid())
                throw UserError("bot '" + seat.bot.name + "': cannot make a network namespace: " + std::strerror(errno));
            request.netns = started.netns.get();
        }
    }

private:
    // Its folder shown as its seat user's own, and bounded together with its /tmp
    // (folder_overlay.hpp): the scratch's upper folder looks like the folder as the bot sees it.
    void show_folder(const SeatToStart& seat, SpawnRequest& request, const struct stat& folder, StartedSeat& started) const {
        const std::filesystem::path& writable = request.confined->writable;
        if (request.user) {
            request.view_options.idmap_userns = idmap_user_namespace(*request.user, folder.st_uid, folder.st_gid);
            if (request.view_options.idmap_userns < 0)
                spdlog::warn("bot '{}': its folder {} cannot be shown as its own ({}); it writes there only where others may",
                             seat.bot.name, writable.string(), std::strerror(errno));
        }
        const Limits& limits = options_.limits;
        if (limits.disk_mib <= 0) return;
        const bool as_seat_user = request.view_options.idmap_userns >= 0;
        FolderScratch& scratch = started.folder_scratch;
        scratch.scratch = make_folder_scratch(limits.disk_mib, as_seat_user ? *request.user : folder.st_uid,
                                              as_seat_user ? *request.user : folder.st_gid, folder.st_mode);
        scratch.folder = writable;
        scratch.owner_uid = folder.st_uid;
        scratch.owner_gid = folder.st_gid;
        scratch.bounds.folder_bytes = limits.folder_mib << 20;
        if (!scratch.valid())
            throw UserError("bot '" + seat.bot.name + "': cannot make the scratch file system that bounds its folder (" +
                            std::strerror(errno) + "); --disk-mib 0 writes the folder directly, unbounded");
        request.view_options.scratch = scratch.scratch.get();
    }
};

}  // namespace

StartedSeat Launcher::start(const SeatToStart& seat) const {
    const Limits& limits = options_.limits;
    StartedSeat started;
    SpawnRequest request = spawn_request(seat, limits);                        // 1
    if (limits.seat_users || (confined() && host_root())) {                     // 2
        started.user = take_seat_user();
        request.user = started.user.id();
    }
    std::optional<ExposedPaths> exposed;
    if (confined()) exposed = exposure(seat, options_, request);                // 3
    seat.tell_address(request, confined());                                      // 4
    confine(seat, request, exposed ? std::move(*exposed) : ExposedPaths{}, started);  // 5
    started.cgroup = create_bot_cgroup(limits_plan_, limits, seat.label, options_.freeze_idle);  // 6
    request.limits = child_limits(limits_plan_, limits);
    // A fresh user runs nothing else, and a user namespace of the seat's own counts its processes
    // apart (an unprivileged arbiter's): RLIMIT_NPROC counts this seat's processes alone.
    if ((request.user || request.view_options.own_user_namespace) && limits.max_processes > 0)
        request.limits.processes = limits.max_processes;
    request.cgroup_join_files = started.cgroup.join_files();
    started.bot = spawn_bot(request);                                            // 7
    started.bwrap_filter.reset();
    return started;
}

std::string Launcher::description() const {
    return limits_plan_.mechanism + (sandbox_.confined() ? ", " + sandbox_.description + " sandbox" : "");
}

std::unique_ptr<Launcher> make_launcher(const TableOptions& options) {
    LimitsPlan limits = plan_limits(options.limits);
    SandboxPlan sandbox = plan_sandbox(options.limits.sandbox);
    if (sandbox.namespaces) return std::make_unique<NamespacesLauncher>(options, std::move(limits), std::move(sandbox));
    if (sandbox.bwrap) return std::make_unique<BwrapLauncher>(options, std::move(limits), std::move(sandbox));
    return std::make_unique<PlainLauncher>(options, std::move(limits), std::move(sandbox));
}

}  // namespace arb
