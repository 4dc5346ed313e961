#pragma once
// Inside the ProcessTable (core/table/process_table.hpp): the seat, made of parts with one job each,
// and the implementation class whose member functions are spread over one file per job:
//   process_table.cpp            the table object: construction, launch, usage
//   process_table_requests.cpp   the request lifecycle: begin, finish, deadline, ask/ask_all, the
//                                event-loop pump; what the seat's channel reports (ChannelHost)
//   process_table_processes.cpp  process start, limits, freezing, exit watch, retire, reaping, close
//   process_table_logs.cpp       stderr (and TCP/HTTP stdout) drained to the capped log; transcript
// How requests reach a bot and replies come back is the seat's Channel (core/channel/channel.hpp).
// Only these files include it; Asio stays out of every other header.
#include <sys/resource.h>
#include <sys/types.h>
#include <time.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include "core/confine/bot_limits.hpp"
#include "core/confine/bot_spawn.hpp"
#include "core/channel/channel.hpp"
#include "core/confine/folder_overlay.hpp"
#include "core/table/process_table.hpp"
#include "core/confine/sandbox.hpp"
#include "core/table/seat_clock.hpp"
#include "core/confine/seat_users.hpp"
#include "core/unique_fd.hpp"

namespace arb::process_table_detail {

using SteadyClock = std::chrono::steady_clock;
using Nanos = std::chrono::nanoseconds;

// Bytes of an unfinished reply kept in Reply::partial for diagnostics.
constexpr std::size_t kPartialKept = 256;
// Limits up to this long get starvation compensation (see expire_due()); longer ones are
// dominated by the bot's own computing and the grace covers jitter.
constexpr Nanos kCompensatedLimit = std::chrono::seconds(2);
// The most a deadline moves for starvation, so an overloaded machine slows a match down but
// cannot stall it.
constexpr Nanos kMaxCompensation = std::chrono::seconds(1);
// How long a runnable bot under its CPU limit gets before the deadline is looked at again.
constexpr Nanos kRunnableRecheck = std::chrono::milliseconds(1);
// Replies faster than this get no per-request CPU figure (see finish()).
constexpr Nanos kCpuSampleFloor = std::chrono::microseconds(200);
// How often close() looks for a group to have emptied.
constexpr Millis kReapPoll{2};
// After SIGKILL, how long close() waits for the kernel to finish killing before giving up
// (a process in uninterruptible sleep); whatever remains is logged.
constexpr Millis kKillWait{3000};

struct SchedSample {
    Nanos cpu;        // CPU of the bot's main thread
    Nanos run_delay;  // time it spent runnable, waiting for a CPU
};

// ---- the parts of a seat ---------------------------------------------------------------------

// One request being answered by a seat.
struct ActiveRequest {
    Reply* reply = nullptr;
    ReplyFramer framer;
    SteadyClock::time_point started;
    SteadyClock::time_point written;
    bool write_done = false;
    bool done = false;
    bool charged = true;        // false for an HTTP send(): not a request of the bot's clock
    std::optional<Nanos> wait;  // allowance + grace, nullopt = unlimited
    std::optional<SteadyClock::time_point> deadline;
    std::optional<Nanos> run_delay_at_write;  // the bot's run-queue wait when the clock started
    Nanos thread_cpu_at_write{0};             // its main thread's CPU then
    Nanos compensated{0};                     // deadline extension granted so far
};

// The request state: the seat's chess clock, the open request, the CPU charged to requests.
struct SeatRequests {
    explicit SeatRequests(const TimeControl& time) : clock(time) {}

    // A request is open and not answered yet.
    bool pending() const { return active && !active->done; }

    SeatClock clock;
    std::optional<ActiveRequest> active;
    Nanos cpu_in_requests{0};
    Nanos cpu_mark{0};  // the bot's CPU clock when its previous reply ended
};

// The bot process and its limits: the process group, its exit, CPU clocks, cgroup, freezing.
struct SeatProcess {
    pid_t pid = -1;  // == process group id (under the sandbox: the bwrap process)
    pid_t program_pid = -1;  // the bot's own program, whose CPU clock and state are read
    bool program_found = false;  // program_pid, its clock and /proc files are set (find_program)
    bool sandboxed = false;
    UniqueFd init_status_read;  // the arbiter's namespaces: the init's report of its program's end
    bool main_exited = false;
    bool main_reaped = false;
    int exit_status = 0;
    rusage main_usage{};
    bool group_gone = false;  // every process of the seat reaped: its group and its cgroup's strays
    std::vector<pid_t> strays;  // cgroup members seen outside the group (setsid), until reaped
    bool frozen = false;
    Descriptor exit_watch;  // pidfd of the main process
    bool exit_waiting = false;
    clockid_t cpu_clock{};
    bool has_cpu_clock = false;
    UniqueFd schedstat;  // /proc/<pid>/schedstat: CPU and run-queue wait of the main thread
    UniqueFd proc_stat;  // /proc/<pid>/stat: its state (running or runnable = 'R')
    BotCgroup cgroup;
    SeatUser user;  // held until every process of the seat is gone (--seat-users)
    LentNetworkNamespace netns;  // a confined pipe seat's empty network, until its processes are gone
    FolderScratch folder_scratch;  // the namespaces sandbox: its folder's changes, until they are written back
    // Read from the cgroup just before it is removed.
    std::optional<std::int64_t> peak_memory_kib_cache;
    std::optional<Nanos> cpu_total_cache;
};

// One stream drained into the seat's log.
struct LogSource {
    Descriptor pipe;
    bool waiting = false, eof = false;
};

// The seat's log: <log_dir>/<label>.stderr.log, capped; the rest is read and dropped.
struct SeatLog {
    LogSource err;  // the bot's stderr
    LogSource out;  // tcp_client / http_server: the bot's stdout (it answers elsewhere)
    UniqueFd file;  // invalid = drained and dropped
    std::uint64_t written = 0;
    std::uint64_t dropped = 0;
};

struct Seat {
    explicit Seat(SeatLaunch l) : launch(std::move(l)), requests(launch.time) {}

    SeatLaunch launch;
    SeatStatus status = SeatStatus::ok;
    std::string detail;  // why it was retired
    std::string limit;   // the limit that retired it (SeatEnd::limit)
    SeatRequests requests;
    std::unique_ptr<Channel> channel;  // made by the table, which it reports to
    SeatProcess process;
    SeatLog log;
};

// ---- the table ---------------------------------------------------------------------------------

class ProcessTableImpl final : public ProcessTable, private ChannelHost {
public:
    ProcessTableImpl(std::vector<SeatLaunch> launches, TableOptions options);
    ~ProcessTableImpl() override;

    int size() const override { return static_cast<int>(seats_.size()); }
    const SeatInfo& info(int seat) const override { return at(seat).launch.info; }
    SeatStatus status(int seat) const override { return at(seat).status; }
    std::string retire_detail(int seat) const override { return at(seat).detail; }
    bool send(int seat, std::string_view text) override;
    Reply ask(int seat, std::string_view text, ReplyFramer framer) override;
    std::vector<Reply> ask_all(std::span<const Request> requests) override;
    Millis time_left(int seat) const override { return at(seat).requests.clock.time_left(); }
    void retire(int seat, SeatStatus why, std::string_view detail) override;
    void note(std::string_view text) override;
    void close() override;
    UsageStats usage(int seat) const override;
    SeatEnd seat_end(int seat) const override;
    std::string limit_mechanism() const override {
        return limits_plan_.mechanism + (sandbox_plan_.confined() ? ", " + sandbox_plan_.description + " sandbox" : "");
    }

    void start_all();

private:
    Seat& at(int seat) { return const_cast<Seat&>(std::as_const(*this).at(seat)); }
    const Seat& at(int seat) const {
        if (seat < 0 || seat >= size()) throw std::out_of_range("seat " + std::to_string(seat));
        return *seats_[seat];
    }

    // ChannelHost (process_table_requests.cpp): what the seat's channel reports and asks.
    bool open() const override { return !closed_; }
    bool playing(int s) const override { return at(s).status == SeatStatus::ok; }
    bool pending(int s) const override { return at(s).requests.pending(); }
    bool reading(int s) const override { return pending(s) && at(s).requests.active->write_done; }
    bool exited(int s) const override { return at(s).process.main_exited; }
    bool written(int s) override;
    void frame_line(int s, std::string& line) override;  // one line through the framer
    void finish(int s, ReplyStatus status, std::string why = {}) override;
    void stop_seat(int s, SeatStatus why, std::string detail) override;
    // Why a channel to the seat closed: its exit ("exited with code 3") when the bot is gone,
    // else `otherwise` ("input closed", "closed its output").
    std::string exit_or(int s, std::string otherwise) override;
    void transcript(int s, char direction, std::string_view text) override { transcript(at(s), direction, text); }

    // process_table_requests.cpp
    void run_batch(std::span<const Request> requests, std::span<Reply*> replies);
    void begin_request(int s, std::string_view text, ReplyFramer framer, Reply* reply);
    void on_written(int s);    // the request is completely written: the clock starts
    void arm_timer(int s, SteadyClock::time_point deadline);
    void expire_due(SteadyClock::time_point now);
    bool compensate_starvation(Seat& seat);  // true = the deadline moved
    std::optional<SchedSample> sched_sample(const Seat& seat) const;
    void start_starvation_watch(const Seat& seat, ActiveRequest& active) const;
    bool runnable(const Seat& seat) const;
    void pump_until(const std::function<bool()>& done, std::optional<SteadyClock::time_point> deadline);

    // process_table_processes.cpp
    void start_seat(int s);
    void start_remote_seat(int s);  // a url= bot: its address, and no process to start
    ExposedPaths exposure(int s, const SpawnRequest& request) const;
    void confine(int s, SpawnRequest& request, ExposedPaths exposed);
    void confine_network(int s, SpawnRequest& request);
    void write_back_folder(int s);
    void attach_pipes(int s, SpawnedBot& bot);
    void find_program(int s);
    void watch_exit(int s);
    void on_main_exit(int s);
    void signal_group(int s, int sig);
    void reap_group(int s);
    void freeze(int s);
    void thaw(int s);
    Nanos cpu_now(const Seat& seat) const;
    void ask_to_quit(int s);
    bool all_groups_gone();
    void wait_groups(Millis limit);
    void release_seat(int s);

    // process_table_logs.cpp
    void watch_log(int s, LogSource& source);
    void drain_log(int s, LogSource& source, int max_reads);
    void write_log(Seat& seat, const char* data, std::size_t size);
    void write_log_trailer(Seat& seat);
    void transcript(const Seat& seat, char direction, std::string_view text);

    std::deque<ReadOpMemory> read_memory_;  // one per seat; outlives ctx_ and its queued operations
    asio::io_context ctx_{1};  // one thread; declared before the seats: outlives every descriptor
    TableOptions options_;
    LimitsPlan limits_plan_;
    SandboxPlan sandbox_plan_;
    std::vector<std::unique_ptr<Seat>> seats_;
    SteadyClock::time_point opened_ = SteadyClock::now();
    std::FILE* transcript_ = nullptr;
    bool closed_ = false;
    std::array<char, kReadChunk> chunk_{};  // scratch for every read_available
    SharedPort shared_port_;  // TCP seats seated by `join TOKEN` (declared after ctx_: closed first)
};

}  // namespace arb::process_table_detail
