// Starting a seat's bot (through the table's launcher, core/confine/launcher.hpp) and close(): quit text, SIGTERM, SIGKILL, reap, the seats released
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

#include "core/table/process_table_internal.hpp"
#include "core/user_error.hpp"

namespace arb::process_table_detail {
namespace {

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
    std::vector<std::filesystem::path> other_bot_folders;
    for (const auto& other : seats_)
        if (other.get() != &seat && !other->launch.bot.dir.empty()) other_bot_folders.push_back(other->launch.bot.dir);
    SeatToStart start{launch.bot, launch.extra_args, launch.info.label, seat.channel->networked(), std::move(other_bot_folders),
                      [&seat](SpawnRequest& request, bool confined) { seat.channel->prepare(request, confined); }};
    if (!options_.log_dir.empty()) seat.log.open(options_.log_dir / (launch.info.label + ".stderr.log"));
    StartedSeat started = launcher_->start(start);
    seat.process.hold(started);
    SpawnedBot& bot = started.bot;
    seat.process.started(bot.pid, launcher_->confined(), std::move(bot.init_status_read), ctx_, [this, &seat] {
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
