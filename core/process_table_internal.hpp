#pragma once
// Inside the ProcessTable (core/process_table.hpp): the seat, made of parts with one job each,
// and the implementation class whose member functions are spread over one file per job:
//   process_table.cpp            the table object: construction, launch, usage
//   process_table_requests.cpp   the request lifecycle: write, read, frame, deadline, finish,
//                                ask/ask_all, the event-loop pump
//   process_table_tcp.cpp        the endpoint of TCP/HTTP seats; loopback TCP (the bot connects)
//   process_table_http.cpp       HTTP GET (the bot serves): the HTTP/1.1 client on Boost.Beast
//   process_table_processes.cpp  process start, limits, freezing, exit watch, retire, reaping, close
//   process_table_logs.cpp       stderr (and TCP/HTTP stdout) drained to the capped log; transcript
// Only these files include it; Asio stays out of every other header.
#include <sys/resource.h>
#include <sys/types.h>
#include <time.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>

#include "core/bot_limits.hpp"
#include "core/seat_users.hpp"
#include "core/bot_spawn.hpp"
#include "core/line_splitter.hpp"
#include "core/process_table.hpp"
#include "core/sandbox.hpp"
#include "core/seat_clock.hpp"
#include "core/unique_fd.hpp"

namespace arb::process_table_detail {

namespace asio = boost::asio;
using SteadyClock = std::chrono::steady_clock;
using Nanos = std::chrono::nanoseconds;
using Descriptor = std::unique_ptr<asio::posix::stream_descriptor>;

constexpr std::size_t kReadChunk = 64 * 1024;
// Reads per wake-up before yielding to other seats (fairness under a flooding bot).
constexpr int kReadsPerWakeup = 16;
// A bot that does not read its input cannot make us buffer without bound.
constexpr std::size_t kMaxOutbox = 16u << 20;
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
    std::string http_target;    // HTTP: the request text as path and query
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
    // Read from the cgroup just before it is removed.
    std::optional<std::int64_t> peak_memory_kib_cache;
    std::optional<Nanos> cpu_total_cache;
};

// HTTP seats: the kept-alive connection (defined in process_table_http.cpp, where Beast is
// included) and which request the handlers in flight belong to.
struct HttpConnection;
struct HttpExchange {
    explicit HttpExchange(asio::io_context& ctx) : retry_timer(ctx) {}

    std::shared_ptr<HttpConnection> connection;  // open between requests while the bot keeps it alive
    std::uint64_t generation = 0;                // bumped per request: older handlers are stale
    std::optional<asio::ip::tcp::endpoint> remote;  // a url= bot; else 127.0.0.1:port
    std::string host;                            // the Host header
    std::string path = "/";                      // the url's path; the request's query follows it
    asio::steady_timer retry_timer;              // connection refused: try again shortly
};

// Where requests go and replies come from: stdin/stdout pipes (stdio), or one TCP socket as two
// descriptors (tcp_client), or a connection per request (http_server), with the buffers.
struct SeatChannel {
    SeatChannel(asio::io_context& ctx, ChannelKind kind, std::size_t max_line_bytes)
        : kind(kind), lines(max_line_bytes), http(ctx) {}

    ChannelKind kind;
    Descriptor in, out;  // requests are written to in; replies are read from out
    std::vector<char> out_buffer = std::vector<char>(kReadChunk);  // one read in flight
    bool out_waiting = false, out_eof = false, write_waiting = false;
    std::string outbox;  // written as the pipe takes it
    std::size_t outbox_sent = 0;
    LineSplitter lines;
    std::uint16_t port = 0;                              // tcp_client / http_server
    std::unique_ptr<asio::ip::tcp::acceptor> acceptor;  // tcp_client: until the bot connects
    std::string join_token;  // tcp_client on the shared port: seated by `join <token>`
    bool awaiting_join = false;                          // ... and not seated yet
    HttpExchange http;
    UniqueFd netns;  // confined TCP/HTTP seat: its own network namespace (sockets made in it)
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
    Seat(asio::io_context& ctx, SeatLaunch l, const Limits& limits)
        : launch(std::move(l)), requests(launch.time), channel(ctx, launch.channel, limits.max_line_bytes) {}

    SeatLaunch launch;
    SeatStatus status = SeatStatus::ok;
    std::string detail;  // why it was retired
    std::string limit;   // the limit that retired it (SeatEnd::limit)
    SeatRequests requests;
    SeatChannel channel;
    SeatProcess process;
    SeatLog log;
};

// ---- the table ---------------------------------------------------------------------------------

class ProcessTableImpl final : public ProcessTable {
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

    // process_table_requests.cpp
    void run_batch(std::span<const Request> requests, std::span<Reply*> replies);
    void begin_request(int s, std::string_view text, ReplyFramer framer, Reply* reply);
    bool flush_outbox(int s);  // false when the pipe broke
    void on_written(int s);    // the request is completely written: the clock starts
    void watch_stdout(int s);
    void read_stdout(int s);  // what is there now, without blocking
    void drop_earlier_lines(int s, Reply& reply);  // Request::fresh_reply
    void feed_lines(int s);
    void frame_line(int s, std::string& line);  // one line through the framer
    void finish(int s, ReplyStatus status, std::string why = {});
    void arm_timer(int s, SteadyClock::time_point deadline);
    void expire_due(SteadyClock::time_point now);
    bool compensate_starvation(Seat& seat);  // true = the deadline moved
    std::optional<SchedSample> sched_sample(const Seat& seat) const;
    void start_starvation_watch(const Seat& seat, ActiveRequest& active) const;
    bool runnable(const Seat& seat) const;
    void pump_until(const std::function<bool()>& done, std::optional<SteadyClock::time_point> deadline);

    // process_table_tcp.cpp
    void prepare_endpoint(int s, SpawnRequest& request);  // port, address in env and argv
    void accept_connection(int s);
    void accept_joins();  // the shared port(s): one connection after another on each
    void accept_join(std::size_t acceptor);
    void read_join(std::shared_ptr<asio::ip::tcp::socket> socket, std::shared_ptr<std::string> received);
    void route_join(std::shared_ptr<asio::ip::tcp::socket> socket, std::string received);
    void seat_connection(int s, asio::ip::tcp::socket& socket, std::string_view received);

    // process_table_http.cpp
    void start_remote_seat(int s);  // a url= bot: resolves its address, starts no process
    void http_start(int s);
    void http_connect(int s, std::uint64_t generation);
    void http_write(int s, std::uint64_t generation, bool reused);
    void http_read(int s, std::uint64_t generation, bool reused);
    bool http_stale(int s, std::uint64_t generation) const;  // the request is over or another one began
    void http_deliver(int s, std::string_view body);         // the body's lines through the framer
    void http_after_reply(int s, bool ok);  // keeps a kept-alive connection after a good reply
    void http_end(int s);  // closes the connection, stops retrying

    // process_table_processes.cpp
    void start_seat(int s);
    void confine(int s, SpawnRequest& request);
    void attach_pipes(int s, SpawnedBot& bot);
    void find_program(int s);
    void watch_exit(int s);
    void on_main_exit(int s);
    void stop_seat(int s, SeatStatus why, std::string detail);
    void signal_group(int s, int sig);
    void reap_group(int s);
    // Why a channel to the seat closed: its exit ("exited with code 3") when the bot is gone,
    // else `otherwise` ("input closed", "closed its output").
    std::string exit_or(int s, std::string otherwise);
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

    asio::io_context ctx_{1};  // one thread; declared first: outlives every descriptor
    TableOptions options_;
    LimitsPlan limits_plan_;
    SandboxPlan sandbox_plan_;
    std::vector<std::unique_ptr<Seat>> seats_;
    SteadyClock::time_point opened_ = SteadyClock::now();
    std::FILE* transcript_ = nullptr;
    bool closed_ = false;
    std::array<char, kReadChunk> chunk_{};  // scratch for every read_available
    // process_table_tcp.cpp: the shared port of token seats (declared after ctx_: closed first)
    // The shared port (token seats on a fixed port, unconfined): routes connections by token.
    std::vector<std::unique_ptr<asio::ip::tcp::acceptor>> join_acceptors_;
    std::vector<bool> join_accepting_;
    int unjoined_connections_ = 0;
};

}  // namespace arb::process_table_detail
