// ProcessTable: the Table over real bot processes. One single-threaded Asio io_context per table
// drives every seat's pipes, exit watch and deadline timer; nothing blocks on one bot.
//
// How a request goes (DESIGN.md "arbiter core"; planowanie.md 6.2, 6.3):
//   thaw (if frozen) -> write the text (non-blocking; the rest when the pipe has room) ->
//   the clock starts when the write completes -> stdout bytes are cut into lines by
//   LineSplitter and fed to the framer -> the reply completes, or the seat's deadline timer
//   fires (readable bytes are drained once more first, so a reply that arrived in time is never
//   a false timeout), or the bot exits/closes stdout, or a line exceeds the cap.
// A failed reply retires the seat: its whole process group gets SIGKILL at once, so a late
// answer can never be read as the reply to a later request.
#include "core/process_table.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <thread>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "core/bot_limits.hpp"
#include "core/bot_spawn.hpp"
#include "core/line_splitter.hpp"
#include "core/seat_clock.hpp"
#include "core/user_error.hpp"

namespace arb {
namespace {

namespace asio = boost::asio;
using SteadyClock = std::chrono::steady_clock;
using Nanos = std::chrono::nanoseconds;

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

struct SchedSample {
    Nanos cpu;        // CPU of the bot's main thread
    Nanos run_delay;  // time it spent runnable, waiting for a CPU
};
// Replies faster than this get no per-request CPU figure (see finish()).
constexpr Nanos kCpuSampleFloor = std::chrono::microseconds(200);
// How often close() looks for a group to have emptied.
constexpr Millis kReapPoll{2};
// After SIGKILL, how long close() waits for the kernel to finish killing before giving up
// (a process in uninterruptible sleep); whatever remains is logged.
constexpr Millis kKillWait{3000};

int pidfd_open(pid_t pid) { return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)); }

std::string seconds_text(Nanos d) { return fmt::format("{:.3f}s", std::chrono::duration<double>(d).count()); }

// How often an HTTP seat's port is tried again while the bot is not listening yet.
constexpr Millis kConnectRetry{10};
// Header bytes an HTTP reply may have on top of max_line_bytes of body.
constexpr std::size_t kHttpHeaderAllowance = 64 * 1024;

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

struct Seat {
    Seat(asio::io_context& ctx, SeatLaunch l, const Limits& limits)
        : launch(std::move(l)),
          clock(launch.time),
          retry_timer(ctx),
          lines(limits.max_line_bytes) {}

    SeatLaunch launch;
    SeatClock clock;
    asio::steady_timer retry_timer;
    LineSplitter lines;

    // Channels other than stdio (the bot's stdout then only goes to its log, like stderr).
    ChannelKind channel() const { return launch.channel; }
    std::unique_ptr<asio::ip::tcp::acceptor> acceptor;  // tcp_client: until the bot connects
    std::unique_ptr<asio::ip::tcp::socket> http;        // http_server: the current request
    std::string http_response;
    std::vector<char> http_buffer = std::vector<char>(16 * 1024);  // one read in flight per seat
    std::uint16_t port = 0;
    std::unique_ptr<asio::posix::stream_descriptor> log_out;  // bot stdout for tcp/http
    bool log_out_waiting = false, log_out_eof = false;

    pid_t pid = -1;  // == process group id
    bool main_exited = false;
    bool main_reaped = false;
    int exit_status = 0;
    rusage main_usage{};
    bool group_gone = false;
    clockid_t cpu_clock{};
    bool has_cpu_clock = false;
    UniqueFd schedstat;  // /proc/<pid>/schedstat: CPU and run-queue wait of the main thread
    UniqueFd proc_stat;  // /proc/<pid>/stat: its state (running or runnable = 'R')

    std::unique_ptr<asio::posix::stream_descriptor> in, out, err, exit_watch;
    std::vector<char> out_buffer = std::vector<char>(kReadChunk);
    bool out_waiting = false, err_waiting = false, write_waiting = false, exit_waiting = false;
    bool out_eof = false, err_eof = false;
    std::string outbox;
    std::size_t outbox_sent = 0;

    UniqueFd log_fd;
    std::uint64_t log_written = 0;
    std::uint64_t log_dropped = 0;

    BotCgroup cgroup;

    SeatStatus status = SeatStatus::ok;
    std::string detail;
    bool frozen = false;
    std::optional<ActiveRequest> active;
    Nanos cpu_in_requests{0};
    Nanos cpu_mark{0};  // the bot's CPU clock when its previous reply ended
    // Read from the cgroup just before it is removed.
    std::optional<std::int64_t> peak_memory_kib_cache;
    std::optional<Nanos> cpu_total_cache;
};

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
    Millis time_left(int seat) const override { return at(seat).clock.time_left(); }
    void retire(int seat, SeatStatus why, std::string_view detail) override;
    void note(std::string_view text) override;
    void close() override;
    UsageStats usage(int seat) const override;
    std::string limit_mechanism() const override { return limits_plan_.mechanism; }

    void start_all();

private:
    Seat& at(int seat) {
        if (seat < 0 || seat >= size()) throw std::out_of_range("seat " + std::to_string(seat));
        return *seats_[seat];
    }
    const Seat& at(int seat) const {
        if (seat < 0 || seat >= size()) throw std::out_of_range("seat " + std::to_string(seat));
        return *seats_[seat];
    }

    void start_seat(int s);
    void run_batch(std::span<const Request> requests, std::span<Reply*> replies);
    void begin_request(int s, std::string_view text, ReplyFramer framer, Reply* reply);
    void arm_timer(int s, SteadyClock::time_point deadline);
    void expire_due(SteadyClock::time_point now);
    void finish(int s, ReplyStatus status, std::string why = {});
    void feed_lines(int s);
    // Reads what is available without blocking; false on EOF or error.
    void read_stdout(int s, bool discard);
    void watch_stdout(int s);
    void watch_stderr(int s);
    void drain_stderr(int s, int max_reads);
    void watch_exit(int s);
    void on_main_exit(int s);
    bool flush_outbox(int s);  // false when the pipe broke
    void stop_seat(int s, SeatStatus why, std::string detail);
    void signal_group(int s, int sig);
    void reap_group(int s);
    void accept_connection(int s);
    void http_start(int s);
    void http_finish_body(int s);
    void watch_log_out(int s);
    void freeze(int s);
    void thaw(int s);
    Nanos cpu_now(const Seat& seat) const;
    std::optional<SchedSample> sched_sample(const Seat& seat) const;
    void start_starvation_watch(const Seat& seat, ActiveRequest& active) const;
    bool runnable(const Seat& seat) const;
    void pump_until(const std::function<bool()>& done, std::optional<SteadyClock::time_point> deadline);
    void write_log(Seat& seat, const char* data, std::size_t size);
    void transcript(const Seat& seat, char direction, std::string_view text);

    asio::io_context ctx_{1};  // one thread; declared first: outlives every descriptor
    TableOptions options_;
    LimitsPlan limits_plan_;
    std::vector<std::unique_ptr<Seat>> seats_;
    SteadyClock::time_point opened_ = SteadyClock::now();
    std::FILE* transcript_ = nullptr;
    bool closed_ = false;
    std::array<char, kReadChunk> chunk_{};
};

ProcessTableImpl::ProcessTableImpl(std::vector<SeatLaunch> launches, TableOptions options)
    : options_(std::move(options)), limits_plan_(plan_limits(options_.limits)) {
    for (auto& launch : launches) {
        seats_.push_back(std::make_unique<Seat>(ctx_, std::move(launch), options_.limits));
    }
    if (!options_.transcript_path.empty()) {
        if (options_.transcript_path.has_parent_path()) {
            std::error_code ec;
            std::filesystem::create_directories(options_.transcript_path.parent_path(), ec);
        }
        transcript_ = std::fopen(options_.transcript_path.c_str(), "we");
        if (transcript_ == nullptr) {
            throw UserError("cannot write transcript '" + options_.transcript_path.string() +
                            "': " + std::strerror(errno));
        }
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
    if (transcript_ != nullptr) std::fclose(transcript_);
}

void ProcessTableImpl::start_all() {
    if (transcript_ != nullptr) {
        std::fprintf(transcript_, "# limits: %s; memory %lld MiB\n", limits_plan_.mechanism.c_str(),
                     static_cast<long long>(options_.limits.memory_mib));
        for (const auto& seat : seats_) {
            std::fprintf(transcript_, "# seat %s: bot %s: %s\n", seat->launch.info.label.c_str(),
                         seat->launch.bot.name.c_str(), seat->launch.bot.command.c_str());
        }
        std::fflush(transcript_);
    }
    for (int s = 0; s < size(); ++s) start_seat(s);
}

void ProcessTableImpl::start_seat(int s) {
    Seat& seat = at(s);
    const SeatLaunch& launch = seat.launch;
    SpawnRequest request;
    request.bot_name = launch.bot.name;
    request.executable = resolve_executable(launch.bot);
    request.argv = launch.bot.argv;
    request.argv.insert(request.argv.end(), launch.extra_args.begin(), launch.extra_args.end());
    request.dir = launch.bot.dir;
    request.env = launch.bot.env;
    if (launch.channel != ChannelKind::stdio) {
        // The bot learns where to talk from ARBITER_HOST/ARBITER_PORT (and ARBITER_URL for HTTP)
        // or from {host}, {port}, {url} in its command line: the originals had the address
        // configured in the client (smartdog.md 9: port 3002; koehandel.md 2.2: a URL).
        const asio::ip::tcp::endpoint loopback(asio::ip::address_v4::loopback(), 0);
        if (launch.channel == ChannelKind::tcp_client) {
            seat.acceptor = std::make_unique<asio::ip::tcp::acceptor>(ctx_, loopback);
            seat.port = seat.acceptor->local_endpoint().port();
        } else {
            // A free port we choose for the bot to serve on (listen on 127.0.0.1 only).
            asio::ip::tcp::acceptor probe(ctx_, loopback);
            seat.port = probe.local_endpoint().port();
        }
        const std::string host = "127.0.0.1";
        const std::string port = std::to_string(seat.port);
        const std::string url = "http://" + host + ":" + port + "/";
        request.env["ARBITER_HOST"] = host;
        request.env["ARBITER_PORT"] = port;
        if (launch.channel == ChannelKind::http_server) request.env["ARBITER_URL"] = url;
        for (std::size_t i = 1; i < request.argv.size(); ++i) {
            for (const auto& [key, value] : {std::pair<std::string, std::string>{"{host}", host}, {"{port}", port}, {"{url}", url}}) {
                for (auto at = request.argv[i].find(key); at != std::string::npos; at = request.argv[i].find(key, at + value.size())) {
                    request.argv[i].replace(at, key.size(), value);
                }
            }
        }
    }
    seat.cgroup = create_bot_cgroup(limits_plan_, options_.limits, launch.info.label);
    request.limits = child_limits(limits_plan_, options_.limits);
    request.cgroup_procs_files = seat.cgroup.procs_files();

    if (!options_.log_dir.empty()) {
        const auto path = options_.log_dir / (launch.info.label + ".stderr.log");
        seat.log_fd.reset(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
        if (!seat.log_fd.valid()) {
            throw UserError("cannot write bot log '" + path.string() + "': " + std::strerror(errno));
        }
    }

    SpawnedBot bot = spawn_bot(request);
    seat.pid = bot.pid;
    seat.has_cpu_clock = ::clock_getcpuclockid(seat.pid, &seat.cpu_clock) == 0;
    seat.schedstat.reset(::open(fmt::format("/proc/{}/schedstat", seat.pid).c_str(), O_RDONLY | O_CLOEXEC));
    seat.proc_stat.reset(::open(fmt::format("/proc/{}/stat", seat.pid).c_str(), O_RDONLY | O_CLOEXEC));
    for (int fd : {bot.stdin_write.get(), bot.stdout_read.get(), bot.stderr_read.get()}) {
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    }
    if (launch.channel == ChannelKind::stdio) {
        seat.in = std::make_unique<asio::posix::stream_descriptor>(ctx_, bot.stdin_write.release());
        seat.out = std::make_unique<asio::posix::stream_descriptor>(ctx_, bot.stdout_read.release());
    } else {
        bot.stdin_write.reset();  // the bot reads end-of-file on stdin; its stdout goes to the log
        seat.log_out = std::make_unique<asio::posix::stream_descriptor>(ctx_, bot.stdout_read.release());
        watch_log_out(s);
        if (launch.channel == ChannelKind::tcp_client) accept_connection(s);
    }
    seat.err = std::make_unique<asio::posix::stream_descriptor>(ctx_, bot.stderr_read.release());
    const int pidfd = pidfd_open(seat.pid);
    if (pidfd >= 0) {
        seat.exit_watch = std::make_unique<asio::posix::stream_descriptor>(ctx_, pidfd);
        watch_exit(s);
    }
    watch_stderr(s);
    spdlog::debug("seat {} ({}): started pid {} : {}", launch.info.label, launch.bot.name, seat.pid,
                  launch.bot.command);
    transcript(seat, '#', fmt::format("started pid {}", seat.pid));
    if (options_.freeze_idle) freeze(s);
}

// ---- requests ------------------------------------------------------------------------------

bool ProcessTableImpl::send(int s, std::string_view text) {
    Seat& seat = at(s);
    if (seat.status != SeatStatus::ok || closed_) return false;
    if (seat.channel() == ChannelKind::http_server) {
        // A notification is still a GET whose answer must arrive; it is bounded like a request
        // but not charged to the bot's clock.
        Reply ignored;
        begin_request(s, text, [](std::string_view) { return Frame::skip; }, &ignored);
        seat.active->charged = false;
        pump_until([&] { return !seat.active || seat.active->done; }, std::nullopt);
        seat.active.reset();
        return seat.status == SeatStatus::ok;
    }
    transcript(seat, '>', text);
    seat.outbox.append(text);
    if (seat.outbox.size() - seat.outbox_sent > kMaxOutbox) {
        stop_seat(s, SeatStatus::killed, "does not read its input");
        return false;
    }
    if (!flush_outbox(s)) {
        stop_seat(s, SeatStatus::crashed, "input closed");
        return false;
    }
    ctx_.poll();  // keep stderr drained
    ctx_.restart();
    return seat.status == SeatStatus::ok;
}

Reply ProcessTableImpl::ask(int seat, std::string_view text, ReplyFramer framer) {
    const Request request{seat, std::string(text), std::move(framer)};
    return std::move(ask_all(std::span<const Request>(&request, 1)).front());
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
        begin_request(s, requests[i].text, requests[i].framer, replies[i]);
    }
    pump_until(
        [&] {
            return std::all_of(asked.begin(), asked.end(), [&](int s) { return !at(s).active || at(s).active->done; });
        },
        std::nullopt);
    for (int s : asked) at(s).active.reset();
}

void ProcessTableImpl::begin_request(int s, std::string_view text, ReplyFramer framer, Reply* reply) {
    Seat& seat = at(s);
    seat.active.emplace();
    ActiveRequest& active = *seat.active;
    active.reply = reply;
    active.framer = std::move(framer);
    active.wait = seat.clock.next_wait();
    active.started = SteadyClock::now();
    thaw(s);
    transcript(seat, '>', text);
    if (seat.channel() == ChannelKind::http_server) {
        std::string_view target = text;
        while (!target.empty() && (target.back() == '\n' || target.back() == '\r')) target.remove_suffix(1);
        active.http_target = (target.empty() || target.front() != '/') ? "/" + std::string(target) : std::string(target);
        if (active.wait) arm_timer(s, active.started + *active.wait);
        if (seat.main_exited) {
            finish(s, ReplyStatus::closed, "exited before the request");
            return;
        }
        http_start(s);
        return;
    }
    seat.outbox.append(text);
    // Until the write completes the deadline counts from now: a bot that does not read its
    // input is as late as one that does not answer.
    if (active.wait) arm_timer(s, active.started + *active.wait);
    if (seat.main_exited) {
        finish(s, ReplyStatus::closed, "exited before the request");
        return;
    }
    if (!flush_outbox(s)) {
        finish(s, ReplyStatus::closed, "input closed");
        return;
    }
    watch_stdout(s);
    // Lines already buffered from earlier output may complete the reply at once.
    if (seat.active && !seat.active->done && seat.active->write_done) feed_lines(s);
}

// Deadlines are plain time points: pump_until gives every wait the time left until the
// earliest one (the clock is plain arithmetic), so no timer is armed or cancelled per request.
void ProcessTableImpl::arm_timer(int s, SteadyClock::time_point deadline) { at(s).active->deadline = deadline; }

void ProcessTableImpl::expire_due(SteadyClock::time_point now) {
    for (int s = 0; s < size(); ++s) {
        Seat& seat = at(s);
        if (!seat.active || seat.active->done || !seat.active->deadline || *seat.active->deadline > now) continue;
        // Last look before declaring a timeout: a reply that is already in the pipe counts.
        read_stdout(s, false);
        if (seat.active && !seat.active->done && seat.active->write_done) feed_lines(s);
        if (!seat.active || seat.active->done) continue;
        // Starvation compensation: time the bot spent runnable but waiting for a CPU (a loaded
        // machine, not the bot's slowness) moves its deadline, up to kMaxCompensation. This
        // is what keeps short limits free of false timeouts under load (docs/core.md).
        ActiveRequest& active = *seat.active;
        if (active.run_delay_at_write && active.wait) {
            if (const auto sample = sched_sample(seat)) {
                const Nanos starved = sample->run_delay - *active.run_delay_at_write;
                Nanos extension = std::min(starved, kMaxCompensation) - active.compensated;
                // The kernel adds a wait to run_delay only when it ends: a bot that is runnable
                // right now, and has used less CPU than its limit, may be waiting this moment.
                if (extension <= Nanos{0} && active.compensated < kMaxCompensation && runnable(seat) &&
                    sample->cpu - active.thread_cpu_at_write < *active.wait) {
                    extension = kRunnableRecheck;
                }
                if (extension > Nanos{0}) {
                    active.compensated += extension;
                    active.deadline = *active.deadline + extension;
                    continue;
                }
            }
        }
        finish(s, ReplyStatus::timeout);
    }
}

std::optional<SchedSample> ProcessTableImpl::sched_sample(const Seat& seat) const {
    if (!seat.schedstat.valid()) return std::nullopt;
    char text[128];
    const ssize_t n = ::pread(seat.schedstat.get(), text, sizeof text - 1, 0);
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
    if (!seat.proc_stat.valid()) return false;
    char text[512];
    const ssize_t n = ::pread(seat.proc_stat.get(), text, sizeof text - 1, 0);
    if (n <= 0) return false;
    text[n] = '\0';
    // "pid (comm) S ...": the state follows the last ')', as comm may contain anything.
    const char* close = std::strrchr(text, ')');
    return close != nullptr && close[1] == ' ' && close[2] == 'R';
}

bool ProcessTableImpl::flush_outbox(int s) {
    Seat& seat = at(s);
    if (seat.acceptor && !seat.in) return true;  // tcp: sent once the bot has connected
    if (!seat.in || !seat.in->is_open()) return false;
    const int fd = seat.in->native_handle();
    while (seat.outbox_sent < seat.outbox.size()) {
        const ssize_t n = ::write(fd, seat.outbox.data() + seat.outbox_sent, seat.outbox.size() - seat.outbox_sent);
        if (n > 0) {
            seat.outbox_sent += static_cast<std::size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (!seat.write_waiting) {
                seat.write_waiting = true;
                seat.in->async_wait(asio::posix::stream_descriptor::wait_write,
                                    [this, s](const boost::system::error_code& ec) {
                                        Seat& seat = at(s);
                                        seat.write_waiting = false;
                                        if (ec || seat.status != SeatStatus::ok) return;
                                        if (!flush_outbox(s)) {
                                            if (seat.active && !seat.active->done) {
                                                finish(s, ReplyStatus::closed, "input closed");
                                            } else {
                                                stop_seat(s, SeatStatus::crashed, "input closed");
                                            }
                                        }
                                    });
            }
            return true;
        }
        return false;  // EPIPE: the bot closed its input or exited
    }
    seat.outbox.clear();
    seat.outbox_sent = 0;
    if (seat.active && !seat.active->write_done) {
        ActiveRequest& active = *seat.active;
        active.write_done = true;
        active.written = SteadyClock::now();
        if (active.wait && *active.wait <= kCompensatedLimit) start_starvation_watch(seat, active);
        if (active.wait) arm_timer(s, active.written + *active.wait);
        feed_lines(s);
    }
    return true;
}

void ProcessTableImpl::watch_stdout(int s) {
    Seat& seat = at(s);
    if (seat.out_waiting || seat.out_eof || !seat.out || !seat.out->is_open()) return;
    seat.out_waiting = true;
    // async_read_some rather than a readiness wait: Asio then re-arms nothing per request (no
    // epoll_ctl), so a round trip costs write + epoll_wait + read, as close to a raw pipe as an
    // event loop gets (docs/benchmarks/core.md).
    seat.out->async_read_some(asio::buffer(seat.out_buffer), [this, s](const boost::system::error_code& ec, std::size_t n) {
        Seat& seat = at(s);
        seat.out_waiting = false;
        if (ec == asio::error::operation_aborted) return;
        if (ec) seat.out_eof = true;  // end of file, or an error that is as good as one
        const bool discard = closed_ || seat.status != SeatStatus::ok;
        if (discard) {
            watch_stdout(s);
            return;
        }
        seat.lines.append(std::string_view(seat.out_buffer.data(), n));
        if (seat.active && !seat.active->done && seat.active->write_done) feed_lines(s);
        if (seat.active && !seat.active->done) {
            if (seat.out_eof) {
                finish(s, ReplyStatus::closed, "closed its output");
            } else {
                watch_stdout(s);
            }
        }
    });
}

void ProcessTableImpl::read_stdout(int s, bool discard) {
    Seat& seat = at(s);
    if (seat.out_eof || !seat.out || !seat.out->is_open()) return;
    const int fd = seat.out->native_handle();
    for (int i = 0; i < kReadsPerWakeup; ++i) {
        // Stop at the cap: the splitter reports overflow; reading more would only grow memory.
        if (!discard && seat.lines.buffered() > options_.limits.max_line_bytes) return;
        const ssize_t n = ::read(fd, chunk_.data(), chunk_.size());
        if (n > 0) {
            if (!discard) seat.lines.append(std::string_view(chunk_.data(), static_cast<std::size_t>(n)));
            if (static_cast<std::size_t>(n) < chunk_.size()) return;  // pipe drained
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        seat.out_eof = true;  // 0 = EOF; other errors are as good as EOF
        return;
    }
}

void ProcessTableImpl::feed_lines(int s) {
    Seat& seat = at(s);
    if (!seat.active || seat.active->done) return;
    ActiveRequest& active = *seat.active;
    std::string line;
    while (!active.done) {
        switch (seat.lines.next(line)) {
            case LineSplitter::Next::need_more:
                if (seat.out_eof) finish(s, ReplyStatus::closed, "closed its output");
                return;
            case LineSplitter::Next::overflow:
                finish(s, ReplyStatus::overflow,
                       fmt::format("line longer than {} bytes", options_.limits.max_line_bytes));
                return;
            case LineSplitter::Next::line: break;
        }
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
}

void ProcessTableImpl::finish(int s, ReplyStatus status, std::string why) {
    Seat& seat = at(s);
    ActiveRequest& active = *seat.active;
    if (active.done) return;
    active.done = true;
    const auto now = SteadyClock::now();
    Reply& reply = *active.reply;
    reply.status = status;
    reply.wall = active.write_done ? now - active.written : now - active.started;
    if (active.write_done && seat.has_cpu_clock && !seat.main_exited && reply.wall >= kCpuSampleFloor) {
        // One clock read per request: the CPU since the previous sample. A bot waiting for its
        // next request sleeps in read(), so this is the request's CPU unless the bot thinks
        // between turns (then that thinking is counted here; freeze_idle forbids it). Replies
        // faster than kCpuSampleFloor are not sampled (their CPU is below their wall time, and
        // the read costs as much as the rest of a round trip); the seat's total stays exact.
        const Nanos cpu = cpu_now(seat);
        reply.cpu = std::max(Nanos{0}, cpu - seat.cpu_mark);
        seat.cpu_mark = cpu;
        seat.cpu_in_requests += reply.cpu;
    }
    if (active.charged) seat.clock.charge(reply.wall);
    if (seat.http) {
        boost::system::error_code ignored;
        seat.http->close(ignored);
    }
    seat.retry_timer.cancel();
    if (status == ReplyStatus::ok) {
        if (options_.freeze_idle) freeze(s);
        return;
    }
    const std::string_view pending = seat.lines.pending();
    reply.partial = std::string(pending.substr(0, kPartialKept));
    std::string detail = why.empty() ? std::string(to_string(status)) : why;
    if (status == ReplyStatus::timeout) {
        detail = fmt::format("no complete reply within {} ({} bytes of an unfinished line received)",
                             active.wait ? seconds_text(*active.wait) : std::string("the limit"), pending.size());
    }
    SeatStatus seat_status = SeatStatus::crashed;
    if (status == ReplyStatus::timeout) seat_status = SeatStatus::timeout;
    if (status == ReplyStatus::overflow) seat_status = SeatStatus::killed;
    if (status == ReplyStatus::closed && seat.cgroup.oom_killed()) {
        seat_status = SeatStatus::killed;
        detail = fmt::format("memory limit of {} MiB exceeded", options_.limits.memory_mib);
    }
    stop_seat(s, seat_status, std::move(detail));
}

// ---- channels: loopback TCP (the bot connects to us) and HTTP GET (the bot serves) -----------

void ProcessTableImpl::accept_connection(int s) {
    Seat& seat = at(s);
    seat.acceptor->async_accept([this, s](const boost::system::error_code& ec, asio::ip::tcp::socket socket) {
        Seat& seat = at(s);
        if (ec || seat.status != SeatStatus::ok || closed_) return;
        socket.set_option(asio::ip::tcp::no_delay(true));
        const int fd = socket.release();
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
        // One socket, two descriptors: writes and reads are watched independently.
        seat.in = std::make_unique<asio::posix::stream_descriptor>(ctx_, ::fcntl(fd, F_DUPFD_CLOEXEC, 3));
        seat.out = std::make_unique<asio::posix::stream_descriptor>(ctx_, fd);
        seat.acceptor->close();
        seat.acceptor.reset();
        transcript(seat, '#', "connected");
        if (!flush_outbox(s)) {
            if (seat.active && !seat.active->done) finish(s, ReplyStatus::closed, "connection closed");
            return;
        }
        if (seat.active && !seat.active->done) watch_stdout(s);
    });
}

void ProcessTableImpl::http_start(int s) {
    Seat& seat = at(s);
    seat.http_response.clear();
    seat.http = std::make_unique<asio::ip::tcp::socket>(ctx_);
    const asio::ip::tcp::endpoint endpoint(asio::ip::address_v4::loopback(), seat.port);
    seat.http->async_connect(endpoint, [this, s](const boost::system::error_code& ec) {
        Seat& seat = at(s);
        if (!seat.active || seat.active->done || ec == asio::error::operation_aborted) return;
        if (ec) {
            // Not listening yet (still loading): try again; the deadline timer bounds this.
            if (seat.main_exited) {
                finish(s, ReplyStatus::closed, "exited");
                return;
            }
            seat.retry_timer.expires_after(kConnectRetry);
            seat.retry_timer.async_wait([this, s](const boost::system::error_code& ec) {
                Seat& seat = at(s);
                if (!ec && seat.active && !seat.active->done) http_start(s);
            });
            return;
        }
        seat.http->set_option(asio::ip::tcp::no_delay(true));
        auto request = std::make_shared<std::string>(
            fmt::format("GET {} HTTP/1.0\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
                        seat.active->http_target, seat.port));
        asio::async_write(*seat.http, asio::buffer(*request),
                          [this, s, request](const boost::system::error_code& ec, std::size_t) {
                              Seat& seat = at(s);
                              if (!seat.active || seat.active->done || ec == asio::error::operation_aborted) return;
                              if (ec) {
                                  finish(s, ReplyStatus::closed, "connection closed: " + ec.message());
                                  return;
                              }
                              ActiveRequest& active = *seat.active;
                              active.write_done = true;
                              active.written = SteadyClock::now();
                              if (active.wait && *active.wait <= kCompensatedLimit) start_starvation_watch(seat, active);
                              if (active.wait) arm_timer(s, active.written + *active.wait);
                              auto read_more = std::make_shared<std::function<void()>>();
                              *read_more = [this, s, read_more] {
                                  Seat& seat = at(s);
                                  seat.http->async_read_some(
                                      asio::buffer(seat.http_buffer), [this, s, read_more](const boost::system::error_code& ec, std::size_t n) {
                                          Seat& seat = at(s);
                                          if (!seat.active || seat.active->done || ec == asio::error::operation_aborted) {
                                              *read_more = nullptr;  // break the self-reference
                                              return;
                                          }
                                          seat.http_response.append(seat.http_buffer.data(), n);
                                          if (seat.http_response.size() > options_.limits.max_line_bytes + kHttpHeaderAllowance) {
                                              *read_more = nullptr;
                                              finish(s, ReplyStatus::overflow, "HTTP reply too large");
                                              return;
                                          }
                                          // Complete at end of stream, or when Content-Length is satisfied.
                                          const auto header_end = seat.http_response.find("\r\n\r\n");
                                          bool complete = static_cast<bool>(ec);
                                          if (!complete && header_end != std::string::npos) {
                                              std::string head = seat.http_response.substr(0, header_end);
                                              std::transform(head.begin(), head.end(), head.begin(), ::tolower);
                                              const auto cl = head.find("\r\ncontent-length:");
                                              if (cl != std::string::npos) {
                                                  const std::size_t length = std::strtoull(head.c_str() + cl + 17, nullptr, 10);
                                                  complete = seat.http_response.size() >= header_end + 4 + length;
                                              }
                                          }
                                          if (complete) {
                                              *read_more = nullptr;
                                              http_finish_body(s);
                                          } else {
                                              (*read_more)();
                                          }
                                      });
                              };
                              (*read_more)();
                          });
    });
}

void ProcessTableImpl::http_finish_body(int s) {
    Seat& seat = at(s);
    const std::string& response = seat.http_response;
    const auto header_end = response.find("\r\n\r\n");
    if (response.rfind("HTTP/", 0) != 0 || header_end == std::string::npos) {
        finish(s, ReplyStatus::closed, "not an HTTP reply");
        return;
    }
    const std::string status_line = response.substr(0, response.find("\r\n"));
    if (status_line.find(" 200") == std::string::npos) transcript(seat, '#', "HTTP status: " + status_line);
    std::string body = response.substr(header_end + 4);
    std::string head = response.substr(0, header_end);
    std::transform(head.begin(), head.end(), head.begin(), ::tolower);
    if (const auto cl = head.find("\r\ncontent-length:"); cl != std::string::npos) {
        body.resize(std::min<std::size_t>(body.size(), std::strtoull(head.c_str() + cl + 17, nullptr, 10)));
    }
    // The body is the reply: its lines go through the framer, and its end ends the reply.
    if (!body.empty() && body.back() != '\n') body += '\n';
    seat.lines.clear();
    seat.lines.append(body);
    std::string line;
    ActiveRequest& active = *seat.active;
    while (!active.done) {
        const auto next = seat.lines.next(line);
        if (next == LineSplitter::Next::overflow) {
            finish(s, ReplyStatus::overflow, fmt::format("line longer than {} bytes", options_.limits.max_line_bytes));
            return;
        }
        if (next == LineSplitter::Next::need_more) break;
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
    seat.lines.clear();
    if (!active.done) finish(s, ReplyStatus::ok);
}

void ProcessTableImpl::watch_log_out(int s) {
    Seat& seat = at(s);
    if (seat.log_out_waiting || seat.log_out_eof || !seat.log_out || !seat.log_out->is_open()) return;
    seat.log_out_waiting = true;
    seat.log_out->async_wait(asio::posix::stream_descriptor::wait_read, [this, s](const boost::system::error_code& ec) {
        Seat& seat = at(s);
        seat.log_out_waiting = false;
        if (ec) return;
        const int fd = seat.log_out->native_handle();
        for (int i = 0; i < kReadsPerWakeup; ++i) {
            const ssize_t n = ::read(fd, chunk_.data(), chunk_.size());
            if (n > 0) {
                write_log(seat, chunk_.data(), static_cast<std::size_t>(n));
                continue;
            }
            if (n < 0 && errno == EINTR) continue;
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
            seat.log_out_eof = true;
            return;
        }
        watch_log_out(s);
    });
}

// ---- processes -----------------------------------------------------------------------------

void ProcessTableImpl::watch_stderr(int s) {
    Seat& seat = at(s);
    if (seat.err_waiting || seat.err_eof || !seat.err || !seat.err->is_open()) return;
    seat.err_waiting = true;
    seat.err->async_wait(asio::posix::stream_descriptor::wait_read, [this, s](const boost::system::error_code& ec) {
        Seat& seat = at(s);
        seat.err_waiting = false;
        if (ec) return;
        drain_stderr(s, kReadsPerWakeup);
        watch_stderr(s);
    });
}

void ProcessTableImpl::drain_stderr(int s, int max_reads) {
    Seat& seat = at(s);
    if (seat.err_eof || !seat.err || !seat.err->is_open()) return;
    const int fd = seat.err->native_handle();
    for (int i = 0; i < max_reads; ++i) {
        const ssize_t n = ::read(fd, chunk_.data(), chunk_.size());
        if (n > 0) {
            write_log(seat, chunk_.data(), static_cast<std::size_t>(n));
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        seat.err_eof = true;
        return;
    }
}

void ProcessTableImpl::write_log(Seat& seat, const char* data, std::size_t size) {
    const std::uint64_t cap = options_.limits.stderr_cap_bytes;
    const std::size_t room = seat.log_written < cap ? static_cast<std::size_t>(cap - seat.log_written) : 0;
    const std::size_t kept = std::min(room, size);
    if (kept > 0 && seat.log_fd.valid()) {
        if (::write(seat.log_fd.get(), data, kept) < 0) seat.log_fd.reset();
    }
    seat.log_written += kept;
    seat.log_dropped += size - kept;
}

void ProcessTableImpl::watch_exit(int s) {
    Seat& seat = at(s);
    if (seat.exit_waiting || seat.main_exited || !seat.exit_watch) return;
    seat.exit_waiting = true;
    seat.exit_watch->async_wait(asio::posix::stream_descriptor::wait_read,
                                [this, s](const boost::system::error_code& ec) {
                                    at(s).exit_waiting = false;
                                    if (!ec) on_main_exit(s);
                                });
}

void ProcessTableImpl::on_main_exit(int s) {
    Seat& seat = at(s);
    seat.main_exited = true;
    reap_group(s);
    // Whatever the bot wrote before it exited is still in the pipe: read it before judging.
    // A forked child may keep stdout open, so the exit itself ends a pending reply.
    if (seat.active && !seat.active->done) {
        for (int i = 0; i < 64 && !seat.out_eof; ++i) {
            const std::size_t before = seat.lines.buffered();
            read_stdout(s, false);
            if (seat.active->write_done) feed_lines(s);
            if (!seat.active || seat.active->done || seat.lines.buffered() == before) break;
        }
        if (seat.active && !seat.active->done) {
            std::string why = "exited";
            if (seat.main_reaped) {
                if (WIFEXITED(seat.exit_status)) why = fmt::format("exited with code {}", WEXITSTATUS(seat.exit_status));
                if (WIFSIGNALED(seat.exit_status)) why = fmt::format("killed by signal {}", WTERMSIG(seat.exit_status));
            }
            finish(s, ReplyStatus::closed, why);
        }
    }
}

void ProcessTableImpl::reap_group(int s) {
    Seat& seat = at(s);
    if (seat.pid <= 0 || seat.group_gone) return;
    for (;;) {
        int status = 0;
        rusage usage{};
        const pid_t pid = ::wait4(-seat.pid, &status, WNOHANG, &usage);
        if (pid <= 0) break;
        if (pid == seat.pid) {
            seat.main_exited = true;
            seat.main_reaped = true;
            seat.exit_status = status;
            seat.main_usage = usage;
        }
    }
    // No member left (also no zombie of ours): the group is gone.
    if (::kill(-seat.pid, 0) != 0 && errno == ESRCH) seat.group_gone = true;
}

void ProcessTableImpl::signal_group(int s, int sig) {
    Seat& seat = at(s);
    if (seat.pid <= 0 || seat.group_gone) return;
    seat.cgroup.signal_all(sig);  // members that left the process group (setsid) too
    if (::kill(-seat.pid, sig) != 0 && errno == ESRCH) seat.group_gone = true;
}

void ProcessTableImpl::freeze(int s) {
    Seat& seat = at(s);
    if (seat.frozen || seat.status != SeatStatus::ok) return;
    signal_group(s, SIGSTOP);
    seat.frozen = true;
}

void ProcessTableImpl::thaw(int s) {
    Seat& seat = at(s);
    if (!seat.frozen) return;
    signal_group(s, SIGCONT);
    seat.frozen = false;
}

Nanos ProcessTableImpl::cpu_now(const Seat& seat) const {
    if (!seat.has_cpu_clock) return Nanos{0};
    timespec ts{};
    if (::clock_gettime(seat.cpu_clock, &ts) != 0) return Nanos{0};
    return std::chrono::seconds(ts.tv_sec) + Nanos(ts.tv_nsec);
}

void ProcessTableImpl::stop_seat(int s, SeatStatus why, std::string detail) {
    Seat& seat = at(s);
    if (seat.status != SeatStatus::ok) return;
    seat.status = why;
    seat.detail = std::move(detail);
    spdlog::debug("seat {} ({}) retired: {}: {}", seat.launch.info.label, seat.launch.bot.name, to_string(why),
                  seat.detail);
    transcript(seat, '#', fmt::format("retired: {}: {}", to_string(why), seat.detail));
    if (seat.active && !seat.active->done) {
        // The referee retired a seat while its request was open (only possible from a framer).
        seat.active->done = true;
        seat.active->reply->status = ReplyStatus::not_running;
        }
    // SIGKILL at once: a retired seat must not answer anything again, and has nothing to save.
    signal_group(s, SIGKILL);
    if (seat.in) {
        ::shutdown(seat.in->native_handle(), SHUT_WR);  // tcp: the bot sees end of stream
        seat.in->close();
    }
    if (seat.acceptor) seat.acceptor->close();
    if (seat.http) {
        boost::system::error_code ignored;
        seat.http->close(ignored);
    }
    seat.retry_timer.cancel();
    seat.outbox.clear();
    seat.outbox_sent = 0;
    seat.frozen = false;
    reap_group(s);
}

void ProcessTableImpl::retire(int s, SeatStatus why, std::string_view detail) {
    stop_seat(s, why, std::string(detail));
}

void ProcessTableImpl::pump_until(const std::function<bool()>& done,
                                  std::optional<SteadyClock::time_point> deadline) {
    for (;;) {
        if (done()) return;
        const auto now = SteadyClock::now();
        expire_due(now);
        if (done() || (deadline && now >= *deadline)) return;
        std::optional<SteadyClock::time_point> wake = deadline;
        for (const auto& seat : seats_) {
            if (seat->active && !seat->active->done && seat->active->deadline) {
                wake = wake ? std::min(*wake, *seat->active->deadline) : *seat->active->deadline;
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

void ProcessTableImpl::close() {
    if (closed_) return;
    closed_ = true;
    for (auto& seat : seats_) {
        if (seat->active && !seat->active->done) seat->active.reset();
    }
    // 1. Quit text, then end of input: polite bots exit on either.
    for (int s = 0; s < size(); ++s) {
        Seat& seat = at(s);
        if (seat.pid <= 0) continue;
        thaw(s);
        if (seat.status == SeatStatus::ok && !seat.main_exited && !options_.quit_text.empty() && seat.in &&
            seat.in->is_open()) {
            transcript(seat, '>', options_.quit_text);
            seat.outbox.append(options_.quit_text);
            (void)flush_outbox(s);
        }
        if (seat.in) {
            ::shutdown(seat.in->native_handle(), SHUT_WR);
            seat.in->close();
        }
        if (seat.acceptor) seat.acceptor->close();
        seat.outbox.clear();
        watch_stdout(s);  // discard mode: a bot blocked on a full stdout pipe can still exit
    }
    auto all_mains_exited = [&] {
        return std::all_of(seats_.begin(), seats_.end(), [](const auto& seat) { return seat->pid <= 0 || seat->main_exited; });
    };
    pump_until(all_mains_exited, SteadyClock::now() + options_.quit_grace);

    // 2. SIGTERM the groups, including children left behind by a main process that exited.
    auto all_groups_gone = [&] {
        for (int s = 0; s < size(); ++s) {
            Seat& seat = at(s);
            if (seat.pid > 0 && !seat.group_gone) reap_group(s);
        }
        return std::all_of(seats_.begin(), seats_.end(), [](const auto& seat) { return seat->pid <= 0 || seat->group_gone; });
    };
    auto wait_groups = [&](Millis limit) {
        const auto until = SteadyClock::now() + limit;
        while (!all_groups_gone() && SteadyClock::now() < until) {
            pump_until([] { return false; }, std::min(until, SteadyClock::now() + kReapPoll));
        }
    };
    for (int s = 0; s < size(); ++s) {
        reap_group(s);
        if (!at(s).group_gone) signal_group(s, SIGTERM);
    }
    wait_groups(options_.term_grace);

    // 3. SIGKILL whatever is left, and reap it.
    for (int s = 0; s < size(); ++s) {
        if (!at(s).group_gone) {
            spdlog::debug("seat {}: SIGKILL after SIGTERM grace", at(s).launch.info.label);
            signal_group(s, SIGKILL);
        }
    }
    wait_groups(kKillWait);
    for (int s = 0; s < size(); ++s) {
        Seat& seat = at(s);
        if (seat.pid > 0 && !seat.group_gone) {
            spdlog::warn("seat {}: process group {} still present after SIGKILL", seat.launch.info.label, seat.pid);
        }
        drain_stderr(s, 1 << 20);
        if (seat.log_out) seat.log_out->close();
        if (seat.http) {
            boost::system::error_code ignored;
            seat.http->close(ignored);
        }
        seat.retry_timer.cancel();
        if (seat.log_dropped > 0 && seat.log_fd.valid()) {
            const std::string trailer =
                fmt::format("\n[arbiter: stderr capped at {} bytes; {} more bytes dropped]\n",
                            options_.limits.stderr_cap_bytes, seat.log_dropped);
            (void)!::write(seat.log_fd.get(), trailer.data(), trailer.size());
        }
        seat.peak_memory_kib_cache = seat.cgroup.peak_memory_kib();
        seat.cpu_total_cache = seat.cgroup.cpu_used();
        seat.cgroup.remove();
        if (seat.out) seat.out->close();
        if (seat.err) seat.err->close();
        if (seat.exit_watch) seat.exit_watch->close();
            std::string end = "ended";
        if (seat.main_reaped && WIFEXITED(seat.exit_status)) end = fmt::format("exited with code {}", WEXITSTATUS(seat.exit_status));
        if (seat.main_reaped && WIFSIGNALED(seat.exit_status)) end = fmt::format("killed by signal {}", WTERMSIG(seat.exit_status));
        transcript(seat, '#', end);
    }
    ctx_.poll();  // complete the cancelled operations
    ctx_.restart();
}

UsageStats ProcessTableImpl::usage(int s) const {
    const Seat& seat = at(s);
    UsageStats u;
    u.wall_used_s = std::chrono::duration<double>(seat.clock.used()).count();
    u.longest_reply_s = std::chrono::duration<double>(seat.clock.longest()).count();
    u.requests = seat.clock.requests();
    double cpu = std::chrono::duration<double>(seat.cpu_in_requests).count();
    if (seat.main_reaped) {
        const auto& ru = seat.main_usage;
        cpu = std::max(cpu, ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
                                ru.ru_stime.tv_usec / 1e6);
        u.peak_memory_kib = ru.ru_maxrss;  // Linux: KiB, the main process's peak RSS
    }
    if (seat.cpu_total_cache) cpu = std::max(cpu, std::chrono::duration<double>(*seat.cpu_total_cache).count());
    // The larger of the two: a v1 cgroup does not count shared library pages already charged to
    // another group, ru_maxrss does (but only for the main process).
    if (seat.peak_memory_kib_cache) u.peak_memory_kib = std::max(u.peak_memory_kib, *seat.peak_memory_kib_cache);
    u.cpu_used_s = cpu;
    return u;
}

void ProcessTableImpl::note(std::string_view text) {
    if (transcript_ == nullptr) return;
    const double t = std::chrono::duration<double>(SteadyClock::now() - opened_).count();
    std::fprintf(transcript_, "%10.6f # %.*s\n", t, static_cast<int>(text.size()), text.data());
    std::fflush(transcript_);
}

void ProcessTableImpl::transcript(const Seat& seat, char direction, std::string_view text) {
    if (transcript_ == nullptr) return;
    const double t = std::chrono::duration<double>(SteadyClock::now() - opened_).count();
    if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
    // One transcript line per text line, so multi-line requests stay readable.
    std::size_t from = 0;
    do {
        const std::size_t nl = text.find('\n', from);
        const std::string_view line = text.substr(from, nl == std::string_view::npos ? std::string_view::npos : nl - from);
        std::fprintf(transcript_, "%10.6f %s %c %.*s\n", t, seat.launch.info.label.c_str(), direction,
                     static_cast<int>(line.size()), line.data());
        if (nl == std::string_view::npos) break;
        from = nl + 1;
    } while (from <= text.size() && from < text.size());
    std::fflush(transcript_);
}

}  // namespace

std::unique_ptr<ProcessTable> ProcessTable::launch(std::vector<SeatLaunch> seats, TableOptions options) {
    for (const auto& seat : seats) {
        if (seat.bot.argv.empty()) throw UserError("bot '" + seat.bot.name + "': empty command");
        resolve_executable(seat.bot);  // one-line error naming the bot, before anything starts
    }
    auto table = std::make_unique<ProcessTableImpl>(std::move(seats), std::move(options));
    // If a later seat cannot start, the destructor stops the seats already started.
    table->start_all();
    return table;
}

}  // namespace arb
