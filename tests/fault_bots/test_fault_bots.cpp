// The fault-bot zoo against the process table (every misbehaviour of docs/core.md): for
// each misbehaviour the seat gets the right status within its deadline plus a small grace, the
// arbiter's memory stays bounded, and after close() no process of the bot remains.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <sys/wait.h>

#include <csignal>
#include <fstream>
#include <thread>

#include "core/confine/bot_spawn.hpp"
#include "tests/core/bot_test_support.hpp"

using namespace std::chrono_literals;
using namespace arb;
using namespace arb::testing;

namespace {

constexpr Millis kLimit{200};
constexpr Millis kGrace{30};
// Scheduling slack on a shared 2-core machine on top of limit + grace; a seat that is late by
// more than this is a bug in the table, not noise.
constexpr double kSlackS = 0.25;

double limit_s() { return std::chrono::duration<double>(kLimit + kGrace).count(); }

struct Zoo {
    std::filesystem::path dir;
    std::filesystem::path pidfile;
    std::unique_ptr<ProcessTable> table;

    Zoo(const std::string& name, std::vector<std::string> flags, TableOptions options = {},
        TimeControl time = per_request(kLimit, kGrace)) {
        dir = scratch_dir(name);
        pidfile = dir / "pids";
        flags.push_back("--pidfile");
        flags.push_back(pidfile.string());
        if (options.log_dir.empty()) options.log_dir = dir / "logs";
        table = launch_one(fault_seat("bot", std::move(flags), time), std::move(options));
    }

    // Asks once and checks that the reply failed as closed, seen at once rather than waited out
    // to the deadline.
    void ask_expect_closed_at_once(std::string_view text) {
        const auto start = std::chrono::steady_clock::now();
        const Reply reply = table->ask(0, text, one_line_framer());
        CHECK(reply.status == ReplyStatus::closed);
        CHECK(seconds_since(start) < limit_s());
    }

    // Closes the table and checks that every process the bot recorded is gone (reaped).
    void close_and_check_gone() {
        const auto start = std::chrono::steady_clock::now();
        table->close();
        CHECK(seconds_since(start) < 1.5);
        check_recorded_pids_gone(pidfile);
    }
};

// Resident memory of this test process, in KiB.
long own_rss_kib() {
    std::ifstream in("/proc/self/status");
    std::string key;
    while (in >> key) {
        if (key == "VmRSS:") {
            long kib = 0;
            in >> kib;
            return kib;
        }
        std::string rest;
        std::getline(in, rest);
    }
    return 0;
}

// Waits until the bot wrote its pidfile (it does so first thing).
void wait_for_pidfile(const std::filesystem::path& pidfile, std::size_t lines = 1) {
    for (int i = 0; i < 200 && recorded_pids(pidfile).size() < lines; ++i) std::this_thread::sleep_for(5ms);
}

}  // namespace

TEST_CASE("fault bot that exits at start is reported crashed at once") {
    Zoo zoo("exit-at-start", {"--exit-at-start", "3"});
    wait_for_pidfile(zoo.pidfile);
    std::this_thread::sleep_for(50ms);  // it is surely gone before we ask
    zoo.ask_expect_closed_at_once("hello\n");
    CHECK(zoo.table->status(0) == SeatStatus::crashed);
    zoo.close_and_check_gone();
    const SeatEnd end = zoo.table->seat_end(0);  // how it ended, for the record
    CHECK(end.exit_code == 3);
    CHECK_FALSE(end.exit_signal);
    CHECK(end.limit.empty());
}

TEST_CASE("fault bot that crashes mid match") {
    Zoo zoo("crash", {"--crash-after", "2"});
    CHECK(zoo.table->ask(0, "1\n", one_line_framer()).ok());
    CHECK(zoo.table->ask(0, "2\n", one_line_framer()).ok());
    zoo.ask_expect_closed_at_once("3\n");
    CHECK(zoo.table->status(0) == SeatStatus::crashed);
    CHECK(zoo.table->ask(0, "4\n", one_line_framer()).status == ReplyStatus::not_running);
    zoo.close_and_check_gone();
    CHECK(zoo.table->seat_end(0).exit_signal == SIGABRT);
    CHECK(zoo.table->seat_end(0).limit.empty());
}

TEST_CASE("fault bot that never answers times out at its deadline") {
    Zoo zoo("never", {"--never-answer"});
    const auto start = std::chrono::steady_clock::now();
    const Reply reply = zoo.table->ask(0, "hello\n", one_line_framer());
    const double elapsed = seconds_since(start);
    CHECK(reply.status == ReplyStatus::timeout);
    CHECK(elapsed >= limit_s() - 0.001);
    CHECK(elapsed < limit_s() + kSlackS);
    CHECK(zoo.table->status(0) == SeatStatus::timeout);
    zoo.close_and_check_gone();
    CHECK(zoo.table->seat_end(0).limit == "time");
    CHECK(zoo.table->seat_end(0).exit_signal == SIGKILL);  // the arbiter stopped it
}

TEST_CASE("fault bot that answers late times out and its late answer is never read") {
    Zoo zoo("late", {"--late", "400"});
    const auto start = std::chrono::steady_clock::now();
    const Reply reply = zoo.table->ask(0, "first\n", one_line_framer());
    CHECK(reply.status == ReplyStatus::timeout);
    CHECK(seconds_since(start) < limit_s() + kSlackS);
    std::this_thread::sleep_for(300ms);  // the late answer would have arrived by now
    const Reply next = zoo.table->ask(0, "second\n", one_line_framer());
    CHECK(next.status == ReplyStatus::not_running);
    CHECK(next.lines.empty());
    zoo.close_and_check_gone();
}

TEST_CASE("fault bot that floods stdout without newline overflows with bounded memory") {
    TableOptions options;
    options.limits.max_line_bytes = 256 * 1024;
    const long rss_before = own_rss_kib();
    Zoo zoo("flood", {"--flood"}, options);
    const auto start = std::chrono::steady_clock::now();
    const Reply reply = zoo.table->ask(0, "go\n", one_line_framer());
    CHECK(reply.status == ReplyStatus::overflow);
    CHECK(seconds_since(start) < limit_s());
    CHECK(reply.partial.size() <= 256);
    CHECK(zoo.table->status(0) == SeatStatus::killed);
    CHECK(own_rss_kib() - rss_before < 16 * 1024);
    zoo.close_and_check_gone();
    CHECK(zoo.table->seat_end(0).limit == "line length");
}

TEST_CASE("fault bot that writes 100 MB to stderr still answers and the log is capped") {
    TableOptions options;
    options.limits.stderr_cap_bytes = 64 * 1024;
    const TimeControl time{.per_request = 10s};  // draining 100 MB takes a moment on a loaded machine
    const long rss_before = own_rss_kib();
    Zoo zoo("stderr", {"--stderr-bytes", "100000000"}, options, time);
    const Reply reply = zoo.table->ask(0, "hello\n", one_line_framer());
    REQUIRE(reply.ok());
    CHECK(reply.first_line() == "echo hello");
    CHECK(own_rss_kib() - rss_before < 16 * 1024);
    zoo.close_and_check_gone();
    const auto log_size = std::filesystem::file_size(zoo.dir / "logs" / "bot.stderr.log");
    CHECK(log_size >= 64 * 1024);
    CHECK(log_size < 64 * 1024 + 200);
    CHECK(read_file(zoo.dir / "logs" / "bot.stderr.log").find("99934464 more bytes dropped") != std::string::npos);
}

TEST_CASE("fault bot that prints garbage bytes gets them back as its reply, bytes that are not UTF-8 escaped") {
    Zoo zoo("garbage", {"--garbage"});
    const Reply reply = zoo.table->ask(0, "move\n", one_line_framer());
    REQUIRE(reply.ok());
    CHECK(reply.first_line() == std::string("\x00\\xFF\x01\x7fg\x1b[\\xFE", 14));
    CHECK(zoo.table->alive(0));  // judging the text is the referee's job
    zoo.close_and_check_gone();
}

TEST_CASE("fault bot that closes stdout is reported crashed without waiting for the deadline") {
    Zoo zoo("close-stdout", {"--close-stdout"});
    // Started first (it records its pid before closing stdout): a start slowed by a loaded
    // machine is not counted against the 230 ms in which the closed pipe must be seen.
    wait_for_pidfile(zoo.pidfile, 1);
    zoo.ask_expect_closed_at_once("hello\n");
    CHECK(zoo.table->status(0) == SeatStatus::crashed);
    zoo.close_and_check_gone();
}

TEST_CASE("fault bot that forks a child holding the pipes: exit seen, child killed") {
    Zoo zoo("fork-holder", {"--fork-holder"});
    wait_for_pidfile(zoo.pidfile, 2);
    zoo.ask_expect_closed_at_once("hello\n");  // the main process is gone; stdout is not closed
    REQUIRE(recorded_pids(zoo.pidfile).size() == 2);
    zoo.close_and_check_gone();
}

TEST_CASE("fault bot that forks a child holding the pipes is cleaned up by close alone") {
    Zoo zoo("fork-holder-close", {"--fork-holder"});
    wait_for_pidfile(zoo.pidfile, 2);
    REQUIRE(recorded_pids(zoo.pidfile).size() == 2);
    zoo.close_and_check_gone();
}

TEST_CASE("fault bot that ignores SIGTERM and quit is killed by close") {
    TableOptions options;
    options.quit_text = "quit\n";
    Zoo zoo("ignore-term", {"--ignore-term"}, options);
    CHECK(zoo.table->ask(0, "hello\n", one_line_framer()).ok());
    const auto start = std::chrono::steady_clock::now();
    zoo.close_and_check_gone();
    CHECK(seconds_since(start) >= 0.2);  // quit grace + SIGTERM grace were both given
    CHECK(zoo.table->status(0) == SeatStatus::ok);
}

TEST_CASE("fault bot that allocates past the memory limit is stopped") {
    TableOptions options;
    options.limits.memory_mib = 64;
    Zoo zoo("memory", {"--alloc-mib", "256"}, options, TimeControl{.per_request = 5s});
    const auto start = std::chrono::steady_clock::now();
    const Reply reply = zoo.table->ask(0, "eat\n", one_line_framer());
    CHECK(reply.status == ReplyStatus::closed);
    CHECK(seconds_since(start) < 5.0);
    const std::string mechanism = zoo.table->limit_mechanism();
    INFO("limits by " << mechanism);
    if (mechanism.rfind("cgroup", 0) == 0) {
        CHECK(zoo.table->status(0) == SeatStatus::killed);  // the OOM kill is told from a crash
        CHECK(zoo.table->seat_end(0).limit == "memory");
    } else {
        CHECK(zoo.table->status(0) == SeatStatus::crashed);  // RLIMIT_AS: malloc fails, bot aborts
    }
    zoo.close_and_check_gone();
    const UsageStats usage = zoo.table->usage(0);
    CHECK(usage.peak_memory_kib > 32 * 1024);
    // It asked for 256 MiB; the peak stays near the 64 MiB limit (plus shared library pages,
    // which the resident size of the process counts and a v1 cgroup may not).
    CHECK(usage.peak_memory_kib <= 64 * 1024 + 8 * 1024);
}

TEST_CASE("fault bot that spins the CPU times out and its CPU time is measured") {
    Zoo zoo("spin", {"--spin"});
    const auto start = std::chrono::steady_clock::now();
    const Reply reply = zoo.table->ask(0, "think\n", one_line_framer());
    CHECK(reply.status == ReplyStatus::timeout);
    // A spinning bot that the loaded machine starves of CPU gets its deadline moved by the
    // starvation compensation (at most 1 s, docs/core.md); on an idle machine it ends at limit.
    CHECK(seconds_since(start) < limit_s() + 1.0 + kSlackS);
    CHECK(reply.cpu > 50ms);  // it had a core for most of its 230 ms (the machine is shared)
    zoo.close_and_check_gone();
    CHECK(zoo.table->usage(0).cpu_used_s > 0.05);
}

TEST_CASE("a bot whose file is not executable gives a one-line error naming it") {
    const auto dir = scratch_dir("not-exec");
    const auto path = dir / "bot.sh";
    std::ofstream(path) << "#!/bin/sh\necho hi\n";
    ::chmod(path.c_str(), 0644);
    std::vector<SeatLaunch> seats{fault_seat("plain", {})};
    seats[0].bot = parse_bot_spec("name=plain cmd=" + quote_word(path.string()));
    const std::string what = launch_error(std::move(seats));
    CHECK(what.find("plain") != std::string::npos);
    CHECK(what.find('\n') == std::string::npos);
}

TEST_CASE("a bot with a missing working directory gives a one-line error naming it") {
    std::vector<SeatLaunch> seats{fault_seat("nodir", {})};
    seats[0].bot.dir = "/nonexistent/dir";
    const std::string what = launch_error(std::move(seats));
    CHECK(what.find("nodir") != std::string::npos);
    CHECK(what.find('\n') == std::string::npos);
    CHECK(::waitpid(-1, nullptr, WNOHANG) <= 0);  // the child that could not exec was reaped
}

TEST_CASE("bots die with the arbiter when it is killed") {
    const auto dir = scratch_dir("pdeathsig");
    const auto pidfile = dir / "pids";
    // This process adopts the orphaned bot (it is a child subreaper once it launched a table),
    // so it can reap it and tell "gone" from "still running".
    prepare_arbiter_process();
    const pid_t arbiter = ::fork();
    REQUIRE(arbiter >= 0);
    if (arbiter == 0) {
        // A stand-in arbiter: starts a bot, then waits to be SIGKILLed without any cleanup.
        // The bot ignores end of input and SIGTERM, so only PR_SET_PDEATHSIG can stop it.
        try {
            std::vector<SeatLaunch> seats{fault_seat("bot", {"--ignore-term", "--pidfile", pidfile.string()})};
            auto table = ProcessTable::launch(std::move(seats), TableOptions{});
            (void)table->ask(0, "hello\n", one_line_framer());
        } catch (...) {
            ::_exit(1);  // never back into the test runner in the forked copy
        }
        for (;;) ::pause();
    }
    // A failed check below must not leave the stand-in running: it would hold the test's output
    // open and keep its bot alive.
    struct StandIn {
        pid_t pid;
        void kill() {
            if (pid <= 0) return;
            ::kill(pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
            pid = -1;
        }
        ~StandIn() { kill(); }
    } stand_in{arbiter};
    wait_for_pidfile(pidfile);
    const auto pids = recorded_pids(pidfile);
    REQUIRE(pids.size() == 1);
    std::this_thread::sleep_for(100ms);  // the bot is up and waiting for input
    stand_in.kill();
    bool reaped = false;
    for (int i = 0; i < 400 && !reaped; ++i) {
        reaped = ::waitpid(pids[0], nullptr, WNOHANG) == pids[0] || process_gone(pids[0]);
        if (!reaped) std::this_thread::sleep_for(5ms);
    }
    CHECK(reaped);
    if (!reaped) ::kill(pids[0], SIGKILL);
}
