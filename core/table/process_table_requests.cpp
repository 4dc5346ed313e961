// The request lifecycle of the ProcessTable: begin, frame, deadline, finish; ask/ask_all and the
// event-loop pump that waits for them. The seat's channel (core/channel/channel.hpp) writes the request
// and reads the reply, and reports back here (ChannelHost).
//
// How a request goes (DESIGN.md "arbiter core"; planowanie.md 6.2, 6.3):
//   thaw (if frozen) -> the channel writes the text (non-blocking; the rest when the bot has
//   room) -> the clock starts when the write completes (written) -> the channel cuts the reply
//   into lines, each fed to the framer (frame_line) -> the reply completes, or the seat's
//   deadline passes (the channel reads once more first, so a reply that arrived in time is never
//   a false timeout), or the bot exits or closes its output, or a line exceeds the cap (finish).
// A failed reply retires the seat: its whole process group gets SIGKILL at once, so a late
// answer can never be read as the reply to a later request. A channel whose requests are
// exchanges of their own (HTTP) is the exception: the failed request's exchange is closed
// instead, and the seat stays while its process runs.
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <fmt/format.h>

#include "core/table/process_table_internal.hpp"
#include "core/utf8_text.hpp"

namespace arb::process_table_detail {
namespace {

std::string seconds_text(Nanos d) { return fmt::format("{:.3f}s", std::chrono::duration<double>(d).count()); }

// How long a closed HTTP connection waits to see whether the bot itself died: its sockets close
// before its exit is visible.
constexpr Millis kExitGrace{100};

bool exits_within(const SeatProcess& process, Millis wait) {
    if (!process.exit_watch) return false;
    pollfd fd{process.exit_watch->native_handle(), POLLIN, 0};
    return ::poll(&fd, 1, static_cast<int>(wait.count())) > 0;
}

}  // namespace

bool ProcessTableImpl::send(int s, std::string_view text) {
    Seat& seat = at(s);
    SeatRequests& requests = seat.requests;
    if (seat.status != SeatStatus::ok || closed_) return false;
    if (seat.channel->exchange_per_request()) {
        // A notification is still an exchange whose answer must arrive (an HTTP GET); it is
        // bounded like a request but not charged to the bot's clock.
        Reply ignored;
        begin_request(s, text, [](std::string_view) { return Frame::skip; }, &ignored);
        requests.active->charged = false;
        pump_until([&] { return !requests.pending(); }, std::nullopt);
        requests.active.reset();
        return seat.status == SeatStatus::ok;
    }
    transcript(seat, '>', text);
    seat.channel->notify(text);  // retires a seat that does not read, or whose input broke
    if (seat.status != SeatStatus::ok) return false;
    ctx_.poll();  // keep stderr drained
    ctx_.restart();
    return seat.status == SeatStatus::ok;
}

// One seat asked: run_batch's steps, without the copies of the text and the framer that a
// batch makes (this is every round trip of a one-seat-at-a-time game).
Reply ProcessTableImpl::ask(int s, std::string_view text, ReplyFramer framer) {
    Reply reply;
    Seat& seat = at(s);
    if (seat.status != SeatStatus::ok || closed_) {
        reply.status = ReplyStatus::not_running;
        return reply;
    }
    begin_request(s, text, std::move(framer), &reply);
    pump_until([&] { return !seat.requests.pending(); }, std::nullopt);
    seat.requests.active.reset();
    return reply;
}

std::vector<Reply> ProcessTableImpl::ask_all(std::span<const Request> requests) {
    std::vector<Reply> replies(requests.size());
    // A seat asked twice in one call answers its requests one after the other: split into
    // batches in which every seat appears once.
    std::vector<bool> handled(requests.size(), false);
    std::size_t remaining = requests.size();
    while (remaining > 0) {
        std::vector<Request> batch;
        std::vector<Reply*> batch_replies;
        std::vector<int> seen;
        for (std::size_t i = 0; i < requests.size(); ++i) {
            if (handled[i] || std::find(seen.begin(), seen.end(), requests[i].seat) != seen.end()) continue;
            seen.push_back(requests[i].seat);
            batch.push_back(requests[i]);
            batch_replies.push_back(&replies[i]);
            handled[i] = true;
            --remaining;
        }
        run_batch(batch, batch_replies);
    }
    return replies;
}

void ProcessTableImpl::run_batch(std::span<const Request> requests, std::span<Reply*> replies) {
    std::vector<int> asked;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        const int s = requests[i].seat;
        Seat& seat = at(s);
        if (seat.status != SeatStatus::ok || closed_) {
            replies[i]->status = ReplyStatus::not_running;
            continue;
        }
        asked.push_back(s);
        if (requests[i].fresh_reply) seat.channel->drop_earlier_lines(*replies[i]);
        begin_request(s, requests[i].text, requests[i].framer, replies[i]);
    }
    pump_until([&] { return std::none_of(asked.begin(), asked.end(), [&](int s) { return at(s).requests.pending(); }); },
               std::nullopt);
    for (int s : asked) at(s).requests.active.reset();
}

void ProcessTableImpl::begin_request(int s, std::string_view text, ReplyFramer framer, Reply* reply) {
    Seat& seat = at(s);
    find_program(s);  // before the clock starts: a sandbox's start is not the bot's time
    ActiveRequest& active = seat.requests.active.emplace();
    active.reply = reply;
    active.framer = std::move(framer);
    active.wait = seat.requests.clock.next_wait();
    active.started = SteadyClock::now();
    thaw(s);
    transcript(seat, '>', text);
    // Until the write completes the deadline counts from now: a bot that does not read its
    // input is as late as one that does not answer.
    if (active.wait) arm_timer(s, active.started + *active.wait);
    if (seat.process.main_exited) {
        finish(s, ReplyStatus::closed, "exited before the request");
        return;
    }
    if (!seat.channel->request(text)) finish(s, ReplyStatus::closed, exit_or(s, "input closed"));
}

bool ProcessTableImpl::written(int s) {
    const auto& active = at(s).requests.active;
    if (!active || active->write_done) return false;
    on_written(s);
    return true;
}

void ProcessTableImpl::on_written(int s) {
    Seat& seat = at(s);
    ActiveRequest& active = *seat.requests.active;
    active.write_done = true;
    active.written = SteadyClock::now();
    if (active.wait && *active.wait <= kCompensatedLimit) start_starvation_watch(seat, active);
    if (active.wait) arm_timer(s, active.written + *active.wait);
}

void ProcessTableImpl::frame_line(int s, std::string& line) {
    Seat& seat = at(s);
    if (!is_valid_utf8(line)) line = valid_utf8(line);  // records and reports quote replies
    ActiveRequest& active = *seat.requests.active;
    transcript(seat, '<', line);
    switch (active.framer(line)) {
        case Frame::keep: active.reply->lines.push_back(std::move(line)); break;
        case Frame::skip: break;
        case Frame::end_keep:
            active.reply->lines.push_back(std::move(line));
            finish(s, ReplyStatus::ok);
            break;
        case Frame::end_skip: finish(s, ReplyStatus::ok); break;
    }
}

void ProcessTableImpl::finish(int s, ReplyStatus status, std::string why) {
    Seat& seat = at(s);
    SeatRequests& requests = seat.requests;
    ActiveRequest& active = *requests.active;
    if (active.done) return;
    active.done = true;
    const auto now = SteadyClock::now();
    Reply& reply = *active.reply;
    reply.status = status;
    reply.wall = active.write_done ? now - active.written : now - active.started;
    if (active.write_done && seat.process.has_cpu_clock && !seat.process.main_exited && reply.wall >= kCpuSampleFloor) {
        // One clock read per request: the CPU since the previous sample. A bot waiting for its
        // next request sleeps in read(), so this is the request's CPU unless the bot thinks
        // between turns (then that thinking is counted here; freeze_idle forbids it). Replies
        // faster than kCpuSampleFloor are not sampled (their CPU is below their wall time, and
        // the read costs as much as the rest of a round trip); the seat's total stays exact.
        const Nanos cpu = cpu_now(seat);
        reply.cpu = std::max(Nanos{0}, cpu - requests.cpu_mark);
        requests.cpu_mark = cpu;
        requests.cpu_in_requests += reply.cpu;
    }
    if (active.charged) requests.clock.charge(reply.wall);
    seat.channel->reply_ended(status == ReplyStatus::ok);
    if (status == ReplyStatus::ok) {
        if (options_.freeze_idle) freeze(s);
        return;
    }
    const std::string_view pending = seat.channel->unfinished();
    reply.partial = valid_utf8(pending.substr(0, kPartialKept));  // quoted in details and records
    std::string detail = why.empty() ? std::string(to_string(status)) : why;
    if (status == ReplyStatus::timeout) {
        detail = fmt::format("no complete reply within {} ({} bytes of an unfinished line received)",
                             active.wait ? seconds_text(*active.wait) : std::string("the limit"), pending.size());
    }
    const bool oom = status == ReplyStatus::closed && seat.process.cgroup.oom_killed();
    const bool exited = seat.process.main_exited || (status == ReplyStatus::closed && exits_within(seat.process, kExitGrace));
    if (seat.channel->exchange_per_request() && !oom && !exited) {
        // Each request is its own exchange (HTTP): the failed one's connection is already closed,
        // so a late answer cannot be read as a later reply, and the bot's server plays on. The
        // referee decides what repeated failures cost (seat.hpp).
        transcript(seat, '#', "request failed: " + detail);
        if (options_.freeze_idle) freeze(s);
        return;
    }
    SeatStatus seat_status = SeatStatus::crashed;
    if (status == ReplyStatus::timeout) seat_status = SeatStatus::timeout, seat.limit = "time";
    if (status == ReplyStatus::overflow) seat_status = SeatStatus::killed, seat.limit = "line length";
    if (oom) {
        seat_status = SeatStatus::killed;
        seat.limit = "memory";
        detail = fmt::format("memory limit of {} MiB exceeded", options_.limits.memory_mib);
    }
    stop_seat(s, seat_status, std::move(detail));
}

// ---- deadlines -------------------------------------------------------------------------------

// Deadlines are plain time points: pump_until gives every wait the time left until the
// earliest one (the clock is plain arithmetic), so no timer is armed or cancelled per request.
void ProcessTableImpl::arm_timer(int s, SteadyClock::time_point deadline) { at(s).requests.active->deadline = deadline; }

void ProcessTableImpl::expire_due(SteadyClock::time_point now) {
    for (int s = 0; s < size(); ++s) {
        Seat& seat = at(s);
        if (!seat.requests.pending() || !seat.requests.active->deadline || *seat.requests.active->deadline > now) continue;
        // Last look before declaring a timeout: a reply that is already in the pipe counts.
        seat.channel->read_now();
        if (!seat.requests.pending()) continue;
        if (compensate_starvation(seat)) continue;
        finish(s, ReplyStatus::timeout);
    }
}

// Starvation compensation: time the bot spent runnable but waiting for a CPU (a loaded machine,
// not the bot's slowness) moves its deadline, up to kMaxCompensation. This is what keeps short
// limits free of false timeouts under load (docs/core.md).
bool ProcessTableImpl::compensate_starvation(Seat& seat) {
    ActiveRequest& active = *seat.requests.active;
    if (!active.run_delay_at_write || !active.wait) return false;
    const auto sample = sched_sample(seat);
    if (!sample) return false;
    const Nanos starved = sample->run_delay - *active.run_delay_at_write;
    Nanos extension = std::min(starved, kMaxCompensation) - active.compensated;
    // The kernel adds a wait to run_delay only when it ends: a bot that is runnable right now,
    // and has used less CPU than its limit, may be waiting this moment.
    if (extension <= Nanos{0} && active.compensated < kMaxCompensation && runnable(seat) &&
        sample->cpu - active.thread_cpu_at_write < *active.wait) {
        extension = kRunnableRecheck;
    }
    if (extension <= Nanos{0}) return false;
    active.compensated += extension;
    active.deadline = *active.deadline + extension;
    return true;
}

std::optional<SchedSample> ProcessTableImpl::sched_sample(const Seat& seat) const {
    if (!seat.process.schedstat.valid()) return std::nullopt;
    char text[128];
    const ssize_t n = ::pread(seat.process.schedstat.get(), text, sizeof text - 1, 0);
    if (n <= 0) return std::nullopt;
    text[n] = '\0';
    // "<cpu ns> <run-queue wait ns> <timeslices>"
    char* end = nullptr;
    const unsigned long long cpu = std::strtoull(text, &end, 10);
    const unsigned long long wait = std::strtoull(end, nullptr, 10);
    return SchedSample{Nanos(static_cast<std::int64_t>(cpu)), Nanos(static_cast<std::int64_t>(wait))};
}

void ProcessTableImpl::start_starvation_watch(const Seat& seat, ActiveRequest& active) const {
    if (const auto sample = sched_sample(seat)) {
        active.run_delay_at_write = sample->run_delay;
        active.thread_cpu_at_write = sample->cpu;
    }
}

bool ProcessTableImpl::runnable(const Seat& seat) const {
    if (!seat.process.proc_stat.valid()) return false;
    char text[512];
    const ssize_t n = ::pread(seat.process.proc_stat.get(), text, sizeof text - 1, 0);
    if (n <= 0) return false;
    text[n] = '\0';
    // "pid (comm) S ...": the state follows the last ')', as comm may contain anything.
    const char* close = std::strrchr(text, ')');
    return close != nullptr && close[1] == ' ' && close[2] == 'R';
}

// ---- the pump --------------------------------------------------------------------------------

void ProcessTableImpl::pump_until(const std::function<bool()>& done,
                                  std::optional<SteadyClock::time_point> deadline) {
    for (;;) {
        if (done()) return;
        const auto now = SteadyClock::now();
        expire_due(now);
        if (done() || (deadline && now >= *deadline)) return;
        std::optional<SteadyClock::time_point> wake = deadline;
        for (const auto& seat : seats_) {
            const auto& active = seat->requests.active;
            if (active && !active->done && active->deadline) {
                wake = wake ? std::min(*wake, *active->deadline) : *active->deadline;
            }
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

}  // namespace arb::process_table_detail
