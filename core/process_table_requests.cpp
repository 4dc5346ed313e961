// The request lifecycle of the ProcessTable: write, read, frame, deadline, finish; ask/ask_all
// and the event-loop pump that waits for them.
//
// How a request goes (DESIGN.md "arbiter core"; planowanie.md 6.2, 6.3):
//   thaw (if frozen) -> write the text (non-blocking; the rest when the pipe has room) ->
//   the clock starts when the write completes -> stdout bytes are cut into lines by
//   LineSplitter and fed to the framer -> the reply completes, or the seat's deadline passes
//   (readable bytes are drained once more first, so a reply that arrived in time is never a
//   false timeout), or the bot exits/closes stdout, or a line exceeds the cap.
// A failed reply retires the seat: its whole process group gets SIGKILL at once, so a late
// answer can never be read as the reply to a later request. HTTP seats are the exception: the
// failed request's connection is closed instead, and the seat stays while its process runs.
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <fmt/format.h>

#include "core/nonblocking_read.hpp"
#include "core/process_table_internal.hpp"
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
    if (seat.channel.kind == ChannelKind::http_server) {
        // A notification is still a GET whose answer must arrive; it is bounded like a request
        // but not charged to the bot's clock.
        Reply ignored;
        begin_request(s, text, [](std::string_view) { return Frame::skip; }, &ignored);
        requests.active->charged = false;
        pump_until([&] { return !requests.pending(); }, std::nullopt);
        requests.active.reset();
        return seat.status == SeatStatus::ok;
    }
    transcript(seat, '>', text);
    seat.channel.outbox.append(text);
    if (seat.channel.outbox.size() - seat.channel.outbox_sent > kMaxOutbox) {
        stop_seat(s, SeatStatus::killed, "does not read its input");
        return false;
    }
    if (!flush_outbox(s)) {
        stop_seat(s, SeatStatus::crashed, exit_or(s, "input closed"));
        return false;
    }
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
        if (requests[i].fresh_reply) drop_earlier_lines(s, *replies[i]);
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
    const bool http = seat.channel.kind == ChannelKind::http_server;
    if (http) {
        std::string_view target = text;
        while (!target.empty() && (target.back() == '\n' || target.back() == '\r')) target.remove_suffix(1);
        active.http_target = (target.empty() || target.front() != '/') ? "/" + std::string(target) : std::string(target);
    } else {
        seat.channel.outbox.append(text);
    }
    // Until the write completes the deadline counts from now: a bot that does not read its
    // input is as late as one that does not answer.
    if (active.wait) arm_timer(s, active.started + *active.wait);
    if (seat.process.main_exited) {
        finish(s, ReplyStatus::closed, "exited before the request");
        return;
    }
    if (http) {
        http_start(s);
        return;
    }
    if (!flush_outbox(s)) {
        finish(s, ReplyStatus::closed, exit_or(s, "input closed"));
        return;
    }
    watch_stdout(s);
    // Lines already buffered from earlier output may complete the reply at once.
    if (seat.requests.pending() && seat.requests.active->write_done) feed_lines(s);
}

bool ProcessTableImpl::flush_outbox(int s) {
    Seat& seat = at(s);
    SeatChannel& channel = seat.channel;
    if ((channel.acceptor || channel.awaiting_join) && !channel.in) return true;  // tcp: sent once the bot has connected
    if (!channel.in || !channel.in->is_open()) return false;
    const int fd = channel.in->native_handle();
    while (channel.outbox_sent < channel.outbox.size()) {
        const ssize_t n = ::write(fd, channel.outbox.data() + channel.outbox_sent, channel.outbox.size() - channel.outbox_sent);
        if (n > 0) {
            channel.outbox_sent += static_cast<std::size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (!channel.write_waiting) {
                channel.write_waiting = true;
                channel.in->async_wait(asio::posix::stream_descriptor::wait_write,
                                       [this, s](const boost::system::error_code& ec) {
                                           Seat& seat = at(s);
                                           seat.channel.write_waiting = false;
                                           if (ec || seat.status != SeatStatus::ok) return;
                                           if (flush_outbox(s)) return;
                                           if (seat.requests.pending()) {
                                               finish(s, ReplyStatus::closed, exit_or(s, "input closed"));
                                           } else {
                                               stop_seat(s, SeatStatus::crashed, exit_or(s, "input closed"));
                                           }
                                       });
            }
            return true;
        }
        return false;  // EPIPE: the bot closed its input or exited
    }
    channel.outbox.clear();
    channel.outbox_sent = 0;
    if (seat.requests.active && !seat.requests.active->write_done) {
        on_written(s);
        feed_lines(s);
    }
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

void ProcessTableImpl::watch_stdout(int s) {
    SeatChannel& channel = at(s).channel;
    if (channel.out_waiting || channel.out_eof || !channel.out || !channel.out->is_open()) return;
    channel.out_waiting = true;
    // async_read_some rather than a readiness wait: Asio then re-arms nothing per request (no
    // epoll_ctl), so a round trip costs write + epoll_wait + read, as close to a raw pipe as an
    // event loop gets (docs/benchmarks/core.md). This is the hot path, so it is not the
    // read_available() loop that the slower paths share.
    channel.out->async_read_some(asio::buffer(channel.out_buffer), [this, s](const boost::system::error_code& ec,
                                                                               std::size_t n) {
        Seat& seat = at(s);
        SeatChannel& channel = seat.channel;
        channel.out_waiting = false;
        if (ec == asio::error::operation_aborted) return;
        if (ec) channel.out_eof = true;  // end of file, or an error that is as good as one
        const bool discard = closed_ || seat.status != SeatStatus::ok;
        if (discard) {
            watch_stdout(s);
            return;
        }
        channel.lines.append(std::string_view(channel.out_buffer.data(), n));
        if (seat.requests.pending() && seat.requests.active->write_done) feed_lines(s);
        if (seat.requests.pending()) {
            if (channel.out_eof) {
                finish(s, ReplyStatus::closed, exit_or(s, "closed its output"));
            } else {
                watch_stdout(s);
            }
        }
    });
}

void ProcessTableImpl::read_stdout(int s) {
    SeatChannel& channel = at(s).channel;
    if (channel.out_eof || !channel.out || !channel.out->is_open()) return;
    // Stop at the cap: the splitter reports overflow; reading more would only grow memory.
    const std::size_t cap = options_.limits.max_line_bytes;
    if (channel.lines.buffered() > cap) return;
    const ReadStatus status =
        read_available(channel.out->native_handle(), chunk_, kReadsPerWakeup, [&](std::string_view bytes) {
            channel.lines.append(bytes);
            return channel.lines.buffered() <= cap;
        });
    if (status == ReadStatus::eof) channel.out_eof = true;
}

void ProcessTableImpl::drop_earlier_lines(int s, Reply& reply) {
    Seat& seat = at(s);
    SeatChannel& channel = seat.channel;
    if (channel.kind == ChannelKind::http_server) return;  // every HTTP reply is its own exchange
    // What has arrived by now, unless a read is already in flight (its bytes come first).
    if (!channel.out_waiting) read_stdout(s);
    std::string line;
    while (channel.lines.next(line) == LineSplitter::Next::line) {
        if (!is_valid_utf8(line)) line = valid_utf8(line);
        transcript(seat, '<', line);
        transcript(seat, '#', "dropped: sent before the request");
        if (reply.dropped.size() < kMaxDroppedKept) reply.dropped.push_back(std::move(line));
        ++reply.dropped_count;
    }
}

void ProcessTableImpl::feed_lines(int s) {
    Seat& seat = at(s);
    if (!seat.requests.pending()) return;
    const ActiveRequest& active = *seat.requests.active;
    std::string line;
    while (!active.done) {
        switch (seat.channel.lines.next(line)) {
            case LineSplitter::Next::need_more:
                if (seat.channel.out_eof) finish(s, ReplyStatus::closed, exit_or(s, "closed its output"));
                return;
            case LineSplitter::Next::overflow:
                finish(s, ReplyStatus::overflow, fmt::format("line longer than {} bytes", options_.limits.max_line_bytes));
                return;
            case LineSplitter::Next::line: break;
        }
        frame_line(s, line);
    }
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
    if (seat.channel.kind == ChannelKind::http_server) http_after_reply(s, status == ReplyStatus::ok);
    if (status == ReplyStatus::ok) {
        if (options_.freeze_idle) freeze(s);
        return;
    }
    const std::string_view pending = seat.channel.lines.pending();
    reply.partial = valid_utf8(pending.substr(0, kPartialKept));  // quoted in details and records
    std::string detail = why.empty() ? std::string(to_string(status)) : why;
    if (status == ReplyStatus::timeout) {
        detail = fmt::format("no complete reply within {} ({} bytes of an unfinished line received)",
                             active.wait ? seconds_text(*active.wait) : std::string("the limit"), pending.size());
    }
    const bool oom = status == ReplyStatus::closed && seat.process.cgroup.oom_killed();
    const bool exited = seat.process.main_exited || (status == ReplyStatus::closed && exits_within(seat.process, kExitGrace));
    if (seat.channel.kind == ChannelKind::http_server && !oom && !exited) {
        // Each HTTP request is its own exchange: the failed one's connection is already closed,
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
        read_stdout(s);
        if (seat.requests.pending() && seat.requests.active->write_done) feed_lines(s);
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
