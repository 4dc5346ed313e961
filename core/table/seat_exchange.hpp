#pragma once
// A seat's exchange: the request lifecycle of one seat, apart from processes and the event loop.
//   begin: the seat's clock gives the wait, the channel writes the text (as much as the bot takes
//   now, the rest as it reads) -> written(): the clock starts -> each line of the reply through
//   the framer -> the reply completes, or its deadline passes (one last read first, then the
//   starvation compensation), or the bot exits or closes its output, or a line exceeds the cap
//   -> finish: the time charged, and a failed reply's fault decided here once: it retires the
//   seat (SIGKILL to its processes at once, so a late answer can never be read as the reply to a
//   later request), except on a channel whose requests are exchanges of their own (HTTP), where
//   only that exchange failed and the seat plays on while its bot runs.
// The channel reports to it (ChannelEvents) and asks nothing of the table; the table begins and
// ends requests, runs the event loop and asks each exchange for its deadline. What it needs of
// the bot's processes it asks SeatProcess, which the table's BotProcess implements and tests fake.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/channel/channel.hpp"
#include "core/seat.hpp"
#include "core/table/seat_clock.hpp"
#include "core/table/transcript.hpp"

namespace arb::process_table_detail {

using SteadyClock = std::chrono::steady_clock;
using Nanos = std::chrono::nanoseconds;

// Limits up to this long get starvation compensation (see expire()); longer ones are dominated
// by the bot's own computing and the grace covers jitter.
constexpr Nanos kCompensatedLimit = std::chrono::seconds(2);
// The most a deadline moves for starvation, so an overloaded machine slows a match down but
// cannot stall it.
constexpr Nanos kMaxCompensation = std::chrono::seconds(1);
// How long a runnable bot under its CPU limit gets before the deadline is looked at again.
constexpr Nanos kRunnableRecheck = std::chrono::milliseconds(1);
// Replies faster than this get no per-request CPU figure (see finish()).
constexpr Nanos kCpuSampleFloor = std::chrono::microseconds(200);
// Bytes of an unfinished reply kept in Reply::partial for diagnostics.
constexpr std::size_t kPartialKept = 256;

struct SchedSample {
    Nanos cpu;        // CPU of the bot's main thread
    Nanos run_delay;  // time it spent runnable, waiting for a CPU
};

// What an exchange asks of its seat's processes.
class SeatProcess {
public:
    // The bot's main process has exited.
    virtual bool exited() const = 0;
    // "exited with code 3" / "killed by signal 9" once the exit is collected, else `otherwise`.
    virtual std::string exit_or(std::string otherwise) = 0;
    // The main process exits within `wait` (a closed connection may be its death).
    virtual bool exits_within(Millis wait) const = 0;
    // The kernel killed a process of the seat for its memory limit.
    virtual bool oom_killed() const = 0;
    // The bot program's CPU clock; nullopt when it has none or has exited.
    virtual std::optional<Nanos> cpu_now() const = 0;
    // Its main thread's CPU and run-queue wait; nullopt when unknown.
    virtual std::optional<SchedSample> sched_sample() const = 0;
    // It is running or waiting for a CPU right now.
    virtual bool runnable() const = 0;
    // A request begins: the program found (a sandbox's start is not the bot's time), thawed.
    virtual void wake() = 0;
    // A request ended and the seat plays on: frozen when the table freezes idle bots.
    virtual void rest() = 0;
    // The seat is retired: every process of it gets SIGKILL.
    virtual void kill() = 0;
    // ... and once its channel stopped: thawed (a frozen process dies only thawed) and reaped.
    virtual void bury() = 0;

protected:
    ~SeatProcess() = default;
};

// How a request is begun.
struct BeginOptions {
    bool charged = true;       // false: a notification over HTTP, bounded but not on the bot's clock
    bool fresh_reply = false;  // Request::fresh_reply
};

// One request being answered by a seat. Outside SeatExchange: clang cannot default-construct a
// class nested in the one whose members it initialises.
struct ActiveRequest {
    Reply* reply = nullptr;
    ReplyFramer framer;
    SteadyClock::time_point started;
    SteadyClock::time_point written;
    bool write_done = false;
    bool done = false;
    bool charged = true;
    std::optional<Nanos> wait;  // allowance + grace, nullopt = unlimited
    std::optional<SteadyClock::time_point> deadline;
    std::optional<Nanos> run_delay_at_write;  // the bot's run-queue wait when the clock started
    Nanos thread_cpu_at_write{0};             // its main thread's CPU then
    Nanos compensated{0};                     // deadline extension granted so far
};

class SeatExchange final : public ChannelEvents {
public:
    // `memory_mib` names the limit when the kernel kills the bot for it; `transcript` outlives this.
    SeatExchange(const TimeControl& time, SeatProcess& process, SeatTranscript& transcript, std::int64_t memory_mib)
        : clock_(time), process_(process), transcript_(transcript), memory_mib_(memory_mib) {}
    SeatExchange(const SeatExchange&) = delete;
    SeatExchange& operator=(const SeatExchange&) = delete;

    // The channel it drives, set once before any request.
    void attach(Channel& channel) { channel_ = &channel; }

    // ---- the table's side
    // Opens a request, answered into `reply`; a retired seat or a closing table answers
    // not_running at once.
    void begin(std::string_view text, ReplyFramer framer, Reply& reply, BeginOptions how = {});
    // The table stops waiting for the request: a failed reply gets its fault (reply_fault).
    void end();
    // Text that answers nothing, on a channel whose requests are not exchanges; false when the
    // seat does not play (any more).
    bool notify(std::string_view text);
    // When the open request must be looked at next; nullopt = no deadline.
    std::optional<SteadyClock::time_point> deadline() const;
    // Its deadline passed: a last read, then starvation compensation, else a timeout.
    void expire(SteadyClock::time_point now);
    // The bot's main process exited while a request was open: what it wrote first is read.
    void exited_while_pending();
    // Retires the seat (a referee's decision, a failed reply or a limit): recorded once, then its
    // processes stopped. `limit` names the limit that stopped it (SeatEnd::limit).
    void retire(SeatStatus why, std::string detail, std::string limit = {});
    // A limit was broken by a process of the seat that is already gone: recorded only.
    void mark_retired(SeatStatus why, std::string detail, std::string limit);
    // The table closes: an open request is dropped, and what arrives from now on too.
    void close();

    SeatStatus status() const { return status_; }
    const std::string& detail() const { return detail_; }
    const std::string& limit() const { return limit_; }
    const SeatClock& clock() const { return clock_; }
    Nanos cpu_in_requests() const { return cpu_in_requests_; }

    // ---- ChannelEvents: what the channel reports
    bool playing() const override { return status_ == SeatStatus::ok; }
    bool closing() const override { return closing_; }
    bool pending() const override { return active_ && !active_->done; }
    bool reading() const override { return pending() && active_->write_done; }
    bool exited() const override { return process_.exited(); }
    bool written() override;
    void frame_line(std::string& line) override;
    void finish(ReplyStatus status, std::string why) override;
    void broke(SeatStatus why, std::string detail) override { retire(why, std::move(detail)); }
    std::string exit_or(std::string otherwise) override { return process_.exit_or(std::move(otherwise)); }
    void transcript(char direction, std::string_view text) override { transcript_.line(direction, text); }

private:
    void sample_cpu(Reply& reply);
    void fail(ReplyStatus status, std::string why);
    bool compensate_starvation();

    SeatClock clock_;
    SeatProcess& process_;
    SeatTranscript& transcript_;
    std::int64_t memory_mib_;
    Channel* channel_ = nullptr;
    std::optional<ActiveRequest> active_;
    SeatStatus status_ = SeatStatus::ok;
    std::string detail_;  // why it was retired
    std::string limit_;   // the limit that retired it
    bool closing_ = false;
    Nanos cpu_in_requests_{0};
    Nanos cpu_mark_{0};  // the bot's CPU clock when its previous sampled reply ended
};

}  // namespace arb::process_table_detail
