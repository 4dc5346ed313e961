// Benchmarks of the process layer (docs/benchmarks/core.md). Usage:
//   bench_core overhead RAW_ECHO ROUNDS [SANDBOX]  round trip through ProcessTable::ask; SANDBOX none,
//                                                  namespaces or bwrap (default: the table's default)
//   bench_core spawn RAW_ECHO TIMES [DIR]          spawn-to-first-reply and teardown (close); with DIR,
//                                                  the bot has that folder of its own (dir=)
//   bench_core timeouts FAULT_BOT REQUESTS LIMIT_MS REPLY_MS LOAD_PROCS GRACE_MS
//        REQUESTS asks with a LIMIT_MS per-request limit to a bot answering after REPLY_MS,
//        while LOAD_PROCS busy-loop processes load the cores; counts timeouts (all false).
// Each prints one line of key=value figures.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/bot_spec.hpp"
#include "core/table/process_table.hpp"
#include "core/confine/user_namespace.hpp"

using namespace arb;
using SteadyClock = std::chrono::steady_clock;

namespace {

double us_since(SteadyClock::time_point start) {
    return std::chrono::duration<double, std::micro>(SteadyClock::now() - start).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

SeatLaunch seat(const std::string& command, TimeControl time) {
    SeatLaunch launch;
    launch.info = SeatInfo{0, "bench", "p0"};
    launch.bot = parse_bot_spec("name=bench cmd=" + quote_word(command));
    launch.time = time;
    return launch;
}

int overhead(const std::string& echo, int rounds, const std::string& sandbox) {
    TimeControl tc;
    tc.per_request = std::chrono::seconds(5);
    std::vector<SeatLaunch> seats{seat(echo, tc)};
    TableOptions options;
    if (sandbox == "none") options.limits.sandbox = SandboxMode::none;
    else if (sandbox == "namespaces") options.limits.sandbox = SandboxMode::namespaces;
    else if (sandbox == "bwrap") options.limits.sandbox = SandboxMode::bwrap;
    else if (!sandbox.empty()) {
        std::fprintf(stderr, "bench_core overhead: SANDBOX is none, namespaces or bwrap, not '%s'\n", sandbox.c_str());
        return 2;
    }
    auto table = ProcessTable::launch(std::move(seats), options);
    std::vector<double> samples;
    samples.reserve(rounds);
    auto framer = one_line_framer();
    for (int i = 0; i < rounds; ++i) {
        const auto start = SteadyClock::now();
        const Reply reply = table->ask(0, "ping 12345\n", framer);
        samples.push_back(us_since(start));
        if (!reply.ok()) {
            std::fprintf(stderr, "reply %d failed: %s\n", i, to_string(reply.status));
            return 1;
        }
    }
    table->close();
    double sum = 0;
    for (double s : samples) sum += s;
    std::printf("arbiter_ask rounds=%d median_us=%.2f mean_us=%.2f limits=\"%s\"\n", rounds, median(samples),
                sum / rounds, table->limit_mechanism().c_str());
    return 0;
}

int spawn(const std::string& echo, int times, const std::string& dir) {
    std::vector<double> first_reply, teardown;
    for (int i = 0; i < times; ++i) {
        TimeControl tc;
        tc.per_request = std::chrono::seconds(5);
        std::vector<SeatLaunch> seats{seat(echo, tc)};
        seats[0].bot.dir = dir;
        const auto start = SteadyClock::now();
        auto table = ProcessTable::launch(std::move(seats), TableOptions{});
        const Reply reply = table->ask(0, "hello\n", one_line_framer());
        first_reply.push_back(us_since(start));
        if (!reply.ok()) return 1;
        const auto closing = SteadyClock::now();
        table->close();
        teardown.push_back(us_since(closing));
    }
    std::printf("spawn times=%d first_reply_median_us=%.0f teardown_median_us=%.0f\n", times, median(first_reply),
                median(teardown));
    return 0;
}

int timeouts(const std::string& fault_bot, int requests, int limit_ms, int reply_ms, int load_procs, int grace_ms) {
    std::vector<pid_t> load;
    for (int i = 0; i < load_procs; ++i) {
        const pid_t pid = ::fork();
        if (pid == 0) {
            volatile unsigned long x = 0;
            for (;;) x = x + 1;
        }
        load.push_back(pid);
    }
    TimeControl tc;
    tc.per_request = std::chrono::milliseconds(limit_ms);
    tc.grace = std::chrono::milliseconds(grace_ms);
    int timed_out = 0;
    std::vector<double> replies_us;
    replies_us.reserve(requests);
    std::unique_ptr<ProcessTable> table;
    const std::string command = fault_bot + " --late " + std::to_string(reply_ms);
    auto framer = one_line_framer();
    for (int i = 0; i < requests; ++i) {
        if (!table || !table->alive(0)) {
            if (table) table->close();
            std::vector<SeatLaunch> seats{seat(command, tc)};
            table = ProcessTable::launch(std::move(seats), TableOptions{});
        }
        const Reply reply = table->ask(0, "x\n", framer);
        if (reply.status == ReplyStatus::timeout) ++timed_out;
        else if (!reply.ok()) return 1;
        replies_us.push_back(std::chrono::duration<double, std::micro>(reply.wall).count());
    }
    table->close();
    for (pid_t pid : load) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
    }
    std::sort(replies_us.begin(), replies_us.end());
    std::printf("timeouts requests=%d limit_ms=%d grace_ms=%d reply_ms=%d load_procs=%d false_timeouts=%d "
                "reply_median_us=%.0f reply_p99_us=%.0f reply_max_us=%.0f\n",
                requests, limit_ms, grace_ms, reply_ms, load_procs, timed_out, replies_us[replies_us.size() / 2],
                replies_us[replies_us.size() * 99 / 100], replies_us.back());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    arb::enter_own_user_namespace();  // as the arbiter does under a non-root user, before any thread
    const std::vector<std::string> args(argv + 1, argv + argc);
    if ((args.size() == 3 || args.size() == 4) && args[0] == "overhead")
        return overhead(args[1], std::stoi(args[2]), args.size() == 4 ? args[3] : "");
    if ((args.size() == 3 || args.size() == 4) && args[0] == "spawn")
        return spawn(args[1], std::stoi(args[2]), args.size() == 4 ? args[3] : "");
    if (args.size() == 7 && args[0] == "timeouts") {
        return timeouts(args[1], std::stoi(args[2]), std::stoi(args[3]), std::stoi(args[4]), std::stoi(args[5]),
                        std::stoi(args[6]));
    }
    std::fprintf(stderr, "usage: see the comment at the top of tools/bench/core/bench_core.cpp\n");
    return 2;
}
