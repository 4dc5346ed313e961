#pragma once
// Inside the ProcessTable (core/table/process_table.hpp): the seat, made of parts with one job
// each, and the table that holds the seats, the event loop and the match's transcript:
//   seat_exchange.*   the request lifecycle of one seat (its clock, framing, deadline, the typed
//                     fault); the seat's channel (core/channel/) reports to it
//   bot_process.*     the seat's processes: exit, CPU clocks, cgroup, freezing, signals, reaping
//   seat_log.*        its stderr (and a TCP or HTTP bot's stdout) drained into a capped log
//   transcript.*      the match's transcript
//   process_table.cpp            the table: construction, start, asks and the event loop
//   process_table_processes.cpp  starting a seat, and close(): quit text, SIGTERM, SIGKILL, reap
// Only these files include it; Asio stays out of every other header.
#include <array>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "core/channel/channel.hpp"
#include "core/confine/launcher.hpp"
#include "core/table/bot_process.hpp"
#include "core/table/process_table.hpp"
#include "core/table/seat_exchange.hpp"
#include "core/table/seat_log.hpp"
#include "core/table/transcript.hpp"

namespace arb::process_table_detail {

// How often close() looks for a group to have emptied.
constexpr Millis kReapPoll{2};
// After SIGKILL, how long close() waits for the kernel to finish killing before giving up
// (a process in uninterruptible sleep); whatever remains is logged.
constexpr Millis kKillWait{3000};

// What the channels and logs read into: the table's read buffer, and one ReadOpMemory per seat.
// Declared before the table's io_context, so that an operation still queued when a channel goes
// is freed into memory that is still there.
struct ReadMemory {
    std::array<char, kReadChunk> chunk{};
    std::deque<ReadOpMemory> per_seat;
};

struct Seat {
    Seat(SeatLaunch l, const TableOptions& options, int program_depth, Transcript& table_transcript, std::span<char> scratch)
        : launch(std::move(l)), process(options.freeze_idle, program_depth), transcript(table_transcript, launch.info.label),
          exchange(launch.time, process, transcript, options.limits.memory_mib),
          log(scratch, options.limits.stderr_cap_bytes, transcript) {}

    // After every process of the seat is gone: the last of its logs, a memory limit a child
    // broke, its folder written back, its cgroup, user and network given back.
    void release(const TableOptions& options);

    SeatLaunch launch;
    BotProcess process;
    SeatTranscript transcript;
    SeatExchange exchange;
    std::unique_ptr<Channel> channel;  // made by the table, reporting to the exchange
    SeatLog log;
};

class ProcessTableImpl final : public ProcessTable {
public:
    ProcessTableImpl(std::vector<SeatLaunch> launches, TableOptions options);
    ~ProcessTableImpl() override;

    int size() const override { return static_cast<int>(seats_.size()); }
    const SeatInfo& info(int seat) const override { return at(seat).launch.info; }
    SeatStatus status(int seat) const override { return at(seat).exchange.status(); }
    std::string retire_detail(int seat) const override { return at(seat).exchange.detail(); }
    bool send(int seat, std::string_view text) override;
    Reply ask(int seat, std::string_view text, ReplyFramer framer) override;
    std::vector<Reply> ask_all(std::span<const Request> requests) override;
    Millis time_left(int seat) const override { return at(seat).exchange.clock().time_left(); }
    void retire(int seat, SeatStatus why, std::string_view detail) override;
    void note(std::string_view text) override { transcript_.note(text); }
    void mark_step(int step) override;
    void close() override;
    UsageStats usage(int seat) const override;
    SeatEnd seat_end(int seat) const override;
    std::string limit_mechanism() const override { return launcher_->description(); }

    void start_all();

private:
    Seat& at(int seat) const;  // throws std::out_of_range
    // Runs the event loop until `done`, or until `deadline`; every seat's request deadline is
    // looked at as it passes.
    void pump_until(const std::function<bool()>& done, std::optional<SteadyClock::time_point> deadline);
    void start_seat(Seat& seat);  // process_table_processes.cpp
    void read_printed(Seat& seat);
    // Waits up to `limit` for every seat's processes to be gone.
    void wait_groups(Millis limit);

    ReadMemory read_memory_;  // outlives ctx_ and its queued operations
    asio::io_context ctx_{1};  // one thread; declared before the seats: outlives every descriptor
    TableOptions options_;
    std::unique_ptr<Launcher> launcher_;  // none, namespaces or bwrap: chosen once
    Transcript transcript_;
    std::vector<std::unique_ptr<Seat>> seats_;
    bool closed_ = false;
    SharedPort shared_port_;  // TCP seats seated by `join TOKEN` (declared after ctx_: closed first)
};

}  // namespace arb::process_table_detail
