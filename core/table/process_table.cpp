// ProcessTable: the Table over real bot processes. One single-threaded Asio io_context per table
// drives every seat's channel, exit watch, logs and deadlines; nothing blocks on one bot. A
// request's lifecycle is its seat's exchange (seat_exchange.hpp); this file holds the table
// itself: construction, asks, and the event loop that waits for them.
#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "core/confine/user_namespace.hpp"
#include "core/table/process_table_internal.hpp"
#include "core/user_error.hpp"

namespace arb {
namespace {

// Once per run, what a non-root arbiter's sandbox cannot have that a root one has.
void say_what_a_user_sandbox_lacks(const std::string& limits) {
    static std::once_flag said;
    std::call_once(said, [&] {
        const bool cgroups = limits.rfind("cgroup", 0) == 0;
        spdlog::warn("not root: bots run in the arbiter's own user namespace; each seat is a user of its own there, "
                     "not on the host, so a bot reads in its view what your user may read{}",
                     cgroups ? "" : "; no cgroup of your own to write: memory bounded by RLIMIT_AS, --freeze by SIGSTOP");
    });
}

}  // namespace

namespace process_table_detail {

ProcessTableImpl::ProcessTableImpl(std::vector<SeatLaunch> launches, TableOptions options)
    : options_(std::move(options)), launcher_(make_launcher(options_)), transcript_(options_.transcript_path),
      shared_port_(ctx_, launches) {
    if (launcher_->sandbox_plan().namespaces && !host_root()) say_what_a_user_sandbox_lacks(launcher_->limits_plan().mechanism);
    for (auto& launch : launches) {
        auto& seat = *seats_.emplace_back(std::make_unique<Seat>(std::move(launch), options_, launcher_->program_depth(),
                                                                 transcript_, read_memory_.chunk));
        const ChannelSeat channel{seat.exchange, ctx_, seat.launch, options_.limits.max_line_bytes, read_memory_.chunk,
                                  shared_port_, read_memory_.per_seat.emplace_back()};
        seat.channel = make_channel(seat.launch.channel, channel);
        seat.exchange.attach(*seat.channel);
    }
    if (!options_.log_dir.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(options_.log_dir, ec);
        if (ec) throw UserError("cannot create log dir '" + options_.log_dir.string() + "': " + ec.message());
    }
}

ProcessTableImpl::~ProcessTableImpl() {
    try {
        close();
    } catch (const std::exception& e) {
        spdlog::error("closing a process table: {}", e.what());
    }
}

Seat& ProcessTableImpl::at(int seat) const {
    if (seat < 0 || seat >= size()) throw std::out_of_range("seat " + std::to_string(seat));
    return *seats_[static_cast<std::size_t>(seat)];
}

void ProcessTableImpl::start_all() {
    transcript_.header(fmt::format("# limits: {}; memory {} MiB; sandbox: {}", launcher_->limits_plan().mechanism,
                                   options_.limits.memory_mib, launcher_->sandbox_plan().description));
    for (const auto& seat : seats_)
        transcript_.header(fmt::format("# seat {}: bot {}: {}", seat->launch.info.label, seat->launch.bot.name,
                                       seat->launch.bot.command));
    for (const auto& seat : seats_) start_seat(*seat);
}

// ---- asks ------------------------------------------------------------------------------------

// What a seat printed before this request belongs to the step before it: read it first (only
// for the transcript, which keeps stderr per step).
void ProcessTableImpl::read_printed(Seat& seat) {
    if (!seat.transcript.open()) return;
    seat.log.drain(seat.log.err, kReadsPerWakeup);
    seat.log.drain(seat.log.out, kReadsPerWakeup);
}

void ProcessTableImpl::mark_step(int step) {
    if (!transcript_.open()) return;
    for (const auto& seat : seats_) {  // what it printed, and its time, belong to the step before
        read_printed(*seat);
        seat->transcript.end_step();
    }
    transcript_.step(step);
}

bool ProcessTableImpl::send(int s, std::string_view text) {
    Seat& seat = at(s);
    if (seat.exchange.status() != SeatStatus::ok || closed_) return false;
    read_printed(seat);
    if (seat.channel->exchange_per_request()) {
        // A notification is still an exchange whose answer must arrive (an HTTP GET); it is
        // bounded like a request but not charged to the bot's clock.
        Reply ignored;
        seat.exchange.begin(text, [](std::string_view) { return Frame::skip; }, ignored, {.charged = false});
        pump_until([&] { return !seat.exchange.pending(); }, std::nullopt);
        seat.exchange.end();
        return seat.exchange.status() == SeatStatus::ok;
    }
    if (!seat.exchange.notify(text)) return false;
    ctx_.poll();  // keep stderr drained
    ctx_.restart();
    return seat.exchange.status() == SeatStatus::ok;
}

// One seat asked: ask_all's steps, without the copies of the text and the framer that a batch
// makes (this is every round trip of a one-seat-at-a-time game).
Reply ProcessTableImpl::ask(int s, std::string_view text, ReplyFramer framer) {
    Reply reply;
    Seat& seat = at(s);
    read_printed(seat);
    SeatExchange& exchange = seat.exchange;
    exchange.begin(text, std::move(framer), reply);
    pump_until([&] { return !exchange.pending(); }, std::nullopt);
    exchange.end();
    return reply;
}

std::vector<Reply> ProcessTableImpl::ask_all(std::span<const Request> requests) {
    std::vector<Reply> replies(requests.size());
    // A seat asked twice in one call answers its requests one after the other: batches in which
    // every seat appears once, each written to all its seats before any is waited for.
    std::vector<bool> handled(requests.size(), false);
    for (std::size_t remaining = requests.size(); remaining > 0;) {
        std::vector<SeatExchange*> batch;
        std::vector<int> seen;
        for (std::size_t i = 0; i < requests.size(); ++i) {
            const Request& request = requests[i];
            if (handled[i] || std::find(seen.begin(), seen.end(), request.seat) != seen.end()) continue;
            seen.push_back(request.seat);
            handled[i] = true;
            --remaining;
            Seat& seat = at(request.seat);
            read_printed(seat);
            SeatExchange& exchange = seat.exchange;
            exchange.begin(request.text, request.framer, replies[i], {.fresh_reply = request.fresh_reply});
            batch.push_back(&exchange);
        }
        pump_until([&] { return std::none_of(batch.begin(), batch.end(), [](auto* e) { return e->pending(); }); },
                   std::nullopt);
        for (SeatExchange* exchange : batch) exchange->end();
    }
    return replies;
}

void ProcessTableImpl::retire(int s, SeatStatus why, std::string_view detail) {
    at(s).exchange.retire(why, std::string(detail));
}

// ---- the event loop --------------------------------------------------------------------------

void ProcessTableImpl::pump_until(const std::function<bool()>& done, std::optional<SteadyClock::time_point> deadline) {
    transcript_.flush();  // what happened so far is on disk while the table waits
    for (;;) {
        if (done()) return;
        const auto now = SteadyClock::now();
        for (const auto& seat : seats_) seat->exchange.expire(now);
        if (done() || (deadline && now >= *deadline)) return;
        std::optional<SteadyClock::time_point> wake = deadline;
        for (const auto& seat : seats_) {
            if (const auto due = seat->exchange.deadline()) wake = wake ? std::min(*wake, *due) : *due;
        }
        const std::size_t ran = wake ? ctx_.run_one_until(*wake) : ctx_.run_one();
        if (ran == 0 && ctx_.stopped()) {
            // No operation is pending at all: nothing but the clock can end this wait.
            ctx_.restart();
            if (!wake) return;
            std::this_thread::sleep_until(std::min(*wake, SteadyClock::now() + Millis{1}));
        }
    }
}

// ---- what a seat used --------------------------------------------------------------------------

UsageStats ProcessTableImpl::usage(int s) const {
    const Seat& seat = at(s);
    const BotProcess& process = seat.process;
    const SeatClock& clock = seat.exchange.clock();
    UsageStats u;
    u.wall_used_s = std::chrono::duration<double>(clock.used()).count();
    u.longest_reply_s = std::chrono::duration<double>(clock.longest()).count();
    u.requests = clock.requests();
    double cpu = std::chrono::duration<double>(seat.exchange.cpu_in_requests()).count();
    if (process.main_reaped) {
        const auto& ru = process.main_usage;
        cpu = std::max(cpu, ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
        u.peak_memory_kib = ru.ru_maxrss;  // Linux: KiB, the main process's peak RSS
    }
    if (process.cpu_total_cache) cpu = std::max(cpu, std::chrono::duration<double>(*process.cpu_total_cache).count());
    // The larger of the two: a v1 cgroup does not count shared library pages already charged to
    // another group, ru_maxrss does (but only for the main process).
    if (process.peak_memory_kib_cache) u.peak_memory_kib = std::max(u.peak_memory_kib, *process.peak_memory_kib_cache);
    u.cpu_used_s = cpu;
    return u;
}

SeatEnd ProcessTableImpl::seat_end(int s) const { return at(s).process.end(at(s).exchange.limit()); }

}  // namespace process_table_detail

std::unique_ptr<ProcessTable> ProcessTable::launch(std::vector<SeatLaunch> seats, TableOptions options) {
    for (const auto& seat : seats) {
        if (seat.bot.argv.empty() && seat.bot.url.empty()) throw UserError("bot '" + seat.bot.name + "': empty command");
        if (seat.bot.url.empty()) resolve_executable(seat.bot);  // one-line error naming the bot, before anything starts
    }
    auto table = std::make_unique<process_table_detail::ProcessTableImpl>(std::move(seats), std::move(options));
    // If a later seat cannot start, the destructor stops the seats already started.
    table->start_all();
    return table;
}

}  // namespace arb
