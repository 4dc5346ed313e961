// A seat's bot processes (bot_process.hpp): the exit watch (pidfd), freezing, signals to the
// whole seat, reaping by process group (docs/core.md "Shutdown").
#include "core/table/bot_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "core/confine/bot_spawn.hpp"
#include "core/confine/sandbox.hpp"

namespace arb::process_table_detail {
namespace {

int pidfd_open(pid_t pid) { return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)); }

// How long a start waits for bwrap to start the bot's program (it takes a few milliseconds).
constexpr int kProgramStartWaitMs = 2000;

}  // namespace

void BotProcess::started(pid_t started_pid, bool confined, UniqueFd init_status, asio::io_context& ctx,
                         std::function<void()> on_exit) {
    pid = started_pid;
    confined_ = confined;
    init_status_read_ = std::move(init_status);
    // A confined program is looked for at its first request, so the seats' sandboxes start side
    // by side; at once if it is to be frozen (stopped, bwrap would not start it).
    if (!confined_ || freeze_idle_) find_program();
    const int pidfd = pidfd_open(pid);
    if (pidfd < 0) return;
    exit_watch_ = std::make_unique<asio::posix::stream_descriptor>(ctx, pidfd);
    watch_exit(std::move(on_exit));
}

void BotProcess::hold(StartedSeat& started) {
    user = std::move(started.user);
    netns = std::move(started.netns);
    folder_scratch = std::move(started.folder_scratch);
    cgroup = std::move(started.cgroup);
}

void BotProcess::watch_exit(std::function<void()> on_exit) {
    exit_watch_->async_wait(asio::posix::stream_descriptor::wait_read,
                            [this, on_exit = std::move(on_exit)](const boost::system::error_code& ec) {
                                if (ec) return;
                                main_exited = true;
                                reap();
                                on_exit();
                            });
}

// The program whose CPU clock and run state are read: the main process, or under bwrap the bot's
// own program two processes down, which bwrap starts a few milliseconds after its own start.
void BotProcess::find_program() {
    if (program_found_ || pid <= 0) return;
    program_found_ = true;
    program_pid_ = confined_ ? sandboxed_program_pid(pid, program_depth_, kProgramStartWaitMs) : pid;
    if (program_pid_ <= 0) program_pid_ = pid;
    has_cpu_clock_ = ::clock_getcpuclockid(program_pid_, &cpu_clock_) == 0;
    schedstat_.reset(::open(fmt::format("/proc/{}/schedstat", program_pid_).c_str(), O_RDONLY | O_CLOEXEC));
    proc_stat_.reset(::open(fmt::format("/proc/{}/stat", program_pid_).c_str(), O_RDONLY | O_CLOEXEC));
}

// ---- what the exchange asks --------------------------------------------------------------------

std::string BotProcess::exit_text(std::string otherwise) const {
    if (main_reaped && WIFEXITED(exit_status)) return fmt::format("exited with code {}", WEXITSTATUS(exit_status));
    if (main_reaped && WIFSIGNALED(exit_status)) return fmt::format("killed by signal {}", WTERMSIG(exit_status));
    return otherwise;
}

std::string BotProcess::exit_or(std::string otherwise) {
    // The pipe closes as the bot exits, a moment before its exit status can be collected.
    for (int i = 0; i < 50 && pid > 0 && !main_reaped && !group_gone; ++i) {
        reap();
        if (!main_reaped) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return exit_text(std::move(otherwise));
}

bool BotProcess::exits_within(Millis wait) const {
    if (!exit_watch_) return false;
    pollfd fd{exit_watch_->native_handle(), POLLIN, 0};
    return ::poll(&fd, 1, static_cast<int>(wait.count())) > 0;
}

std::optional<Nanos> BotProcess::cpu_now() const {
    if (!has_cpu_clock_ || main_exited) return std::nullopt;
    timespec ts{};
    if (::clock_gettime(cpu_clock_, &ts) != 0) return Nanos{0};
    return std::chrono::seconds(ts.tv_sec) + Nanos(ts.tv_nsec);
}

std::optional<SchedSample> BotProcess::sched_sample() const {
    if (!schedstat_.valid()) return std::nullopt;
    char text[128];
    const ssize_t n = ::pread(schedstat_.get(), text, sizeof text - 1, 0);
    if (n <= 0) return std::nullopt;
    text[n] = '\0';
    // "<cpu ns> <run-queue wait ns> <timeslices>"
    char* end = nullptr;
    const unsigned long long cpu = std::strtoull(text, &end, 10);
    const unsigned long long wait = std::strtoull(end, nullptr, 10);
    return SchedSample{Nanos(static_cast<std::int64_t>(cpu)), Nanos(static_cast<std::int64_t>(wait))};
}

bool BotProcess::runnable() const {
    if (!proc_stat_.valid()) return false;
    char text[512];
    const ssize_t n = ::pread(proc_stat_.get(), text, sizeof text - 1, 0);
    if (n <= 0) return false;
    text[n] = '\0';
    // "pid (comm) S ...": the state follows the last ')', as comm may contain anything.
    const char* close = std::strrchr(text, ')');
    return close != nullptr && close[1] == ' ' && close[2] == 'R';
}

void BotProcess::wake() {
    find_program();  // before the clock starts: a sandbox's start is not the bot's time
    thaw();
}

void BotProcess::rest() {
    if (freeze_idle_) freeze();
}

void BotProcess::kill() { signal(SIGKILL); }

void BotProcess::bury() {
    thaw();  // a frozen process dies of the SIGKILL only once thawed
    reap();
}

// ---- signals, freezing, reaping ------------------------------------------------------------------

void BotProcess::reap() {
    if (pid <= 0 || group_gone) return;
    for (;;) {
        int status = 0;
        rusage usage{};
        const pid_t done = ::wait4(-pid, &status, WNOHANG, &usage);
        if (done <= 0) break;
        if (done != pid) continue;
        main_exited = true;
        main_reaped = true;
        if (init_status_read_.valid()) exit_status = confined_exit_status(status, init_status_read_.get());
        else exit_status = confined_ ? unwrap_sandbox_status(status) : status;
        init_status_read_.reset();
        main_usage = usage;
        forget_main_process(done);
    }
    // Strays left their group (setsid); as a child subreaper we adopt them when their parent
    // dies, so each is reaped by its own pid (never waitpid(-1): other seats' children are ours too).
    std::erase_if(strays_, [](pid_t stray) {
        int status = 0;
        const pid_t r = ::waitpid(stray, &status, WNOHANG);
        return r == stray || (r < 0 && ::kill(stray, 0) != 0 && errno == ESRCH);
    });
    // No member left (also no zombie of ours), no stray and nobody in the cgroup: all gone.
    if (::kill(-pid, 0) != 0 && errno == ESRCH && strays_.empty() && cgroup.members().empty()) group_gone = true;
}

void BotProcess::signal(int sig) {
    if (pid <= 0 || group_gone) return;
    // Members that left the process group (setsid) are signalled through the cgroup, and
    // remembered so that they are reaped too.
    for (pid_t member : cgroup.members())
        if (::getpgid(member) != pid && std::find(strays_.begin(), strays_.end(), member) == strays_.end())
            strays_.push_back(member);
    cgroup.signal_all(sig);
    ::kill(-pid, sig);
}

// Through the freezer cgroup where there is one: every process of the seat stops at once, also
// one forked a moment ago. SIGSTOP by pid, the fallback, misses a process born after the list
// was read, so a bot that keeps re-forking runs on.
void BotProcess::freeze() {
    if (frozen_ || pid <= 0) return;
    if (!cgroup.freeze(true)) signal(SIGSTOP);
    frozen_ = true;
}

void BotProcess::thaw() {
    if (!frozen_) return;
    if (!cgroup.freeze(false)) signal(SIGCONT);
    frozen_ = false;
}

SeatEnd BotProcess::end(std::string limit) const {
    SeatEnd end;
    end.limit = std::move(limit);
    if (!main_reaped) return end;
    if (WIFEXITED(exit_status)) end.exit_code = WEXITSTATUS(exit_status);
    if (WIFSIGNALED(exit_status)) end.exit_signal = WTERMSIG(exit_status);
    // RLIMIT_CPU is the backstop for the whole match: the kernel's SIGXCPU says it was hit.
    if (end.limit.empty() && end.exit_signal == SIGXCPU) end.limit = "cpu time";
    return end;
}

// Nothing of the seat writes any more: its folder's changes leave the scratch for the folder.
// After the match (from close), never while a seat thinks: a write-back of many files takes
// seconds, which the event loop would otherwise charge to whoever is thinking meanwhile.
void BotProcess::write_back_folder(const std::string& bot_name, const std::string& label) {
    if (!folder_scratch.valid()) return;
    if (pid <= 0) {  // never started
        folder_scratch.scratch.reset();
        return;
    }
    if (!group_gone) {  // a process of the seat outlived SIGKILL and may still write
        spdlog::warn("bot '{}': its folder's changes are dropped: a process of its seat still runs", bot_name);
        folder_scratch.scratch.reset();
        return;
    }
    const FolderWriteBack done = folder_scratch.write_back();
    spdlog::debug("seat {}: {} entries of its folder written back, {} removed", label, done.written, done.removed);
    if (!done.error.empty())  // an entry skipped, or the scratch or folder not opened
        spdlog::warn("bot '{}': {} of its folder's changes not written back to {}: {}", bot_name, std::max(done.skipped, 1),
                     folder_scratch.folder.string(), done.error);
}

void BotProcess::release() {
    peak_memory_kib_cache = cgroup.peak_memory_kib();
    cpu_total_cache = cgroup.cpu_used();
    cgroup.remove();
    // Its id is free for another seat once nothing of this one runs; a process that outlived
    // SIGKILL keeps it taken until the table goes.
    if (group_gone) {
        user = SeatUser();
        netns.give_back();
    }
    reap_adopted_zombies();
    if (exit_watch_) exit_watch_->close();
}

}  // namespace arb::process_table_detail
