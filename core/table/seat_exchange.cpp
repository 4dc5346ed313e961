// The request lifecycle of one seat (seat_exchange.hpp); DESIGN.md "arbiter core";
// planowanie.md 6.2, 6.3.
#include "core/table/seat_exchange.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "core/utf8_text.hpp"

namespace arb::process_table_detail {
namespace {

std::string seconds_text(Nanos d) { return fmt::format("{:.3f}s", std::chrono::duration<double>(d).count()); }

// How long a closed HTTP connection waits to see whether the bot itself died: its sockets close
// before its exit is visible.
constexpr Millis kExitGrace{100};

}  // namespace

void SeatExchange::begin(std::string_view text, ReplyFramer framer, Reply& reply, BeginOptions how) {
    ActiveRequest& active = active_.emplace();
    active.reply = &reply;
    if (status_ != SeatStatus::ok || closing_) {
        reply.status = ReplyStatus::not_running;
        active.done = true;
        return;
    }
    if (how.fresh_reply) channel_->drop_earlier_lines(reply);
    process_.wake();
    active.framer = std::move(framer);
    active.charged = how.charged;
    active.wait = clock_.next_wait();
    active.started = SteadyClock::now();
    transcript('>', text);
    // Until the write completes the deadline counts from now: a bot that does not read its
    // input is as late as one that does not answer.
    if (active.wait) active.deadline = active.started + *active.wait;
    if (process_.exited()) return finish(ReplyStatus::closed, "exited before the request");
    if (!channel_->request(text)) finish(ReplyStatus::closed, exit_or("input closed"));
}

void SeatExchange::end() {
    if (!active_) return;
    Reply& reply = *active_->reply;
    if (!reply.ok()) reply.fault = reply_fault(reply.status, status_, detail_);
    active_.reset();
}

bool SeatExchange::notify(std::string_view text) {
    if (status_ != SeatStatus::ok || closing_) return false;
    transcript('>', text);
    channel_->notify(text);  // retires a seat that does not read, or whose input broke
    return status_ == SeatStatus::ok;
}

bool SeatExchange::written() {
    if (!active_ || active_->write_done) return false;
    ActiveRequest& active = *active_;
    active.write_done = true;
    active.written = SteadyClock::now();
    if (active.wait && *active.wait <= kCompensatedLimit) {
        if (const auto sample = process_.sched_sample()) {
            active.run_delay_at_write = sample->run_delay;
            active.thread_cpu_at_write = sample->cpu;
        }
    }
    if (active.wait) active.deadline = active.written + *active.wait;
    return true;
}

void SeatExchange::frame_line(std::string& line) {
    if (!is_valid_utf8(line)) line = valid_utf8(line);  // records and reports quote replies
    ActiveRequest& active = *active_;
    transcript('<', line);
    switch (active.framer(line)) {
        case Frame::keep: active.reply->lines.push_back(std::move(line)); break;
        case Frame::skip: break;
        case Frame::end_keep:
            active.reply->lines.push_back(std::move(line));
            finish(ReplyStatus::ok, {});
            break;
        case Frame::end_skip: finish(ReplyStatus::ok, {}); break;
    }
}

void SeatExchange::finish(ReplyStatus status, std::string why) {
    if (!pending()) return;
    ActiveRequest& active = *active_;
    active.done = true;
    Reply& reply = *active.reply;
    reply.status = status;
    reply.wall = SteadyClock::now() - (active.write_done ? active.written : active.started);
    if (active.write_done && reply.wall >= kCpuSampleFloor) sample_cpu(reply);
    if (active.charged) {
        clock_.charge(reply.wall);
        if (transcript_.open()) transcript_.charged(std::chrono::duration<double, std::milli>(reply.wall).count());
    }
    if (status == ReplyStatus::ok) return process_.rest();
    channel_->reply_failed();
    fail(status, std::move(why));
}

// One clock read per request: the CPU since the previous sample. A bot waiting for its next
// request sleeps in read(), so this is the request's CPU unless the bot thinks between turns
// (then that thinking is counted here; freeze_idle forbids it). Replies faster than
// kCpuSampleFloor are not sampled (their CPU is below their wall time, and the read costs as much
// as the rest of a round trip); the seat's total stays exact.
void SeatExchange::sample_cpu(Reply& reply) {
    const std::optional<Nanos> cpu = process_.cpu_now();
    if (!cpu) return;
    reply.cpu = std::max(Nanos{0}, *cpu - cpu_mark_);
    cpu_mark_ = *cpu;
    cpu_in_requests_ += reply.cpu;
}

// A failed reply: its words, and whether it retires the seat.
void SeatExchange::fail(ReplyStatus status, std::string why) {
    ActiveRequest& active = *active_;
    const std::string_view pending = channel_->unfinished();
    active.reply->partial = valid_utf8(pending.substr(0, kPartialKept));  // quoted in details and records
    std::string detail = why.empty() ? std::string(to_string(status)) : std::move(why);
    if (status == ReplyStatus::timeout) {
        detail = fmt::format("no complete reply within {} ({} bytes of an unfinished line received)",
                             active.wait ? seconds_text(*active.wait) : std::string("the limit"), pending.size());
    }
    const bool oom = status == ReplyStatus::closed && process_.oom_killed();
    const bool gone = process_.exited() || (status == ReplyStatus::closed && process_.exits_within(kExitGrace));
    if (channel_->exchange_per_request() && !oom && !gone) {
        // Each request is its own exchange (HTTP): the failed one's connection is already closed,
        // so a late answer cannot be read as a later reply, and the bot's server plays on. The
        // referee decides what repeated failures cost (seat.hpp).
        transcript('#', "request failed: " + detail);
        return process_.rest();
    }
    if (oom) return retire(SeatStatus::killed, fmt::format("memory limit of {} MiB exceeded", memory_mib_), "memory");
    const char* limit = status == ReplyStatus::timeout ? "time" : status == ReplyStatus::overflow ? "line length" : "";
    retire(status_after(status), std::move(detail), limit);
}

void SeatExchange::retire(SeatStatus why, std::string detail, std::string limit) {
    if (status_ != SeatStatus::ok) return;
    mark_retired(why, std::move(detail), std::move(limit));
    if (pending()) {
        // Retired while its request was open (only possible from a framer).
        active_->done = true;
        active_->reply->status = ReplyStatus::not_running;
    }
    // SIGKILL at once: a retired seat must not answer anything again, and has nothing to save.
    process_.kill();
    channel_->stop();
    process_.bury();
}

void SeatExchange::mark_retired(SeatStatus why, std::string detail, std::string limit) {
    if (status_ != SeatStatus::ok) return;
    status_ = why;
    detail_ = std::move(detail);
    limit_ = std::move(limit);
    spdlog::debug("seat {} retired: {}: {}", transcript_.label(), to_string(why), detail_);
    transcript('#', fmt::format("retired: {}: {}", to_string(why), detail_));
}

void SeatExchange::close() {
    closing_ = true;
    active_.reset();
}

// ---- deadlines -------------------------------------------------------------------------------

// Deadlines are plain time points: the table's loop waits until the earliest one (the clock is
// plain arithmetic), so no timer is armed or cancelled per request.
std::optional<SteadyClock::time_point> SeatExchange::deadline() const {
    if (!pending()) return std::nullopt;
    return active_->deadline;
}

void SeatExchange::expire(SteadyClock::time_point now) {
    if (!pending() || !active_->deadline || *active_->deadline > now) return;
    // Last look before declaring a timeout: a reply that is already in the pipe counts.
    channel_->read_now();
    if (!pending() || compensate_starvation()) return;
    finish(ReplyStatus::timeout, {});
}

// Starvation compensation: time the bot spent runnable but waiting for a CPU (a loaded machine,
// not the bot's slowness) moves its deadline, up to kMaxCompensation. This is what keeps short
// limits free of false timeouts under load (docs/core.md).
bool SeatExchange::compensate_starvation() {
    ActiveRequest& active = *active_;
    if (!active.run_delay_at_write || !active.wait) return false;
    const auto sample = process_.sched_sample();
    if (!sample) return false;
    const Nanos starved = sample->run_delay - *active.run_delay_at_write;
    Nanos extension = std::min(starved, kMaxCompensation) - active.compensated;
    // The kernel adds a wait to run_delay only when it ends: a bot that is runnable right now,
    // and has used less CPU than its limit, may be waiting this moment.
    if (extension <= Nanos{0} && active.compensated < kMaxCompensation && process_.runnable() &&
        sample->cpu - active.thread_cpu_at_write < *active.wait) {
        extension = kRunnableRecheck;
    }
    if (extension <= Nanos{0}) return false;
    active.compensated += extension;
    active.deadline = *active.deadline + extension;
    return true;
}

void SeatExchange::exited_while_pending() {
    if (!pending()) return;
    channel_->read_after_exit();
    if (pending()) finish(ReplyStatus::closed, process_.exit_or("exited"));
}

}  // namespace arb::process_table_detail
