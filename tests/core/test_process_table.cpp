// The process table over real processes, with well-behaved bots: requests and replies, framing,
// simultaneous asks, clocks, transcripts, stderr logs, shutdown. Misbehaving bots are in
// tests/fault_bots.
#include <doctest/doctest.h>

#include <fstream>
#include <thread>

#include "tests/core/bot_test_support.hpp"

using namespace std::chrono_literals;
using namespace arb;
using namespace arb::testing;

TEST_CASE("process table asks an echo bot and gets its reply") {
    std::vector<SeatLaunch> seats{fault_seat("p0", {}, per_request(2s))};
    auto table = ProcessTable::launch(std::move(seats), TableOptions{});
    REQUIRE(table->size() == 1);
    CHECK(table->info(0).label == "p0");
    for (int i = 0; i < 20; ++i) {
        const Reply reply = table->ask(0, "hello " + std::to_string(i) + "\n", one_line_framer());
        REQUIRE(reply.ok());
        REQUIRE(reply.lines.size() == 1);
        CHECK(reply.first_line() == "echo hello " + std::to_string(i));
        CHECK(reply.wall > 0ns);
        CHECK(reply.wall < 2s);
    }
    CHECK(table->alive(0));
    const UsageStats before_close = table->usage(0);
    CHECK(before_close.requests == 20);
    CHECK(before_close.wall_used_s > 0);
    table->close();
    CHECK(table->status(0) == SeatStatus::ok);  // a clean end is not a fault
    CHECK(table->usage(0).peak_memory_kib > 0);
}

TEST_CASE("process table frames multi-line replies with a terminator and strips CR") {
    std::vector<SeatLaunch> seats{fault_seat("p0", {"--lines", "3", "--crlf"}, per_request(2s))};
    auto table = ProcessTable::launch(std::move(seats), TableOptions{});
    const Reply reply = table->ask(0, "turn 1\n", terminator_framer("go"));
    REQUIRE(reply.ok());
    CHECK(reply.lines == std::vector<std::string>{"line 0", "line 1", "line 2"});
    const Reply again = table->ask(0, "turn 2\n", terminator_framer("go"));
    REQUIRE(again.ok());
    CHECK(again.lines.size() == 3);
}

TEST_CASE("process table send is answered by the bot and read by the next ask") {
    std::vector<SeatLaunch> seats{fault_seat("p0", {}, per_request(2s))};
    auto table = ProcessTable::launch(std::move(seats), TableOptions{});
    CHECK(table->send(0, "first\n"));
    // The bot answered "echo first" to the send; a two-line framer sees both answers in order.
    int seen = 0;
    const Reply reply = table->ask(0, "second\n", [&](std::string_view) { return ++seen == 2 ? Frame::end_keep : Frame::keep; });
    REQUIRE(reply.ok());
    CHECK(reply.lines == std::vector<std::string>{"echo first", "echo second"});
}

TEST_CASE("process table ask_all waits on every seat at once") {
    std::vector<SeatLaunch> seats;
    for (int i = 0; i < 3; ++i) seats.push_back(fault_seat("p" + std::to_string(i), {"--late", "200"}, per_request(2s)));
    auto table = ProcessTable::launch(std::move(seats), TableOptions{});
    std::vector<Request> requests;
    for (int i = 2; i >= 0; --i) requests.push_back(Request{i, "seat " + std::to_string(i) + "\n", one_line_framer()});
    const auto start = std::chrono::steady_clock::now();
    const auto replies = table->ask_all(requests);
    const double elapsed = seconds_since(start);
    REQUIRE(replies.size() == 3);
    for (int k = 0; k < 3; ++k) {
        REQUIRE(replies[k].ok());
        CHECK(replies[k].first_line() == "echo seat " + std::to_string(2 - k));  // in request order
    }
    CHECK(elapsed < 0.55);  // three 200 ms thinkers in parallel, not one after the other
}

TEST_CASE("process table time left follows the match budget") {
    std::vector<SeatLaunch> seats{fault_seat("p0", {"--late", "100"}, TimeControl{.total_budget = 5s})};
    auto table = ProcessTable::launch(std::move(seats), TableOptions{});
    CHECK(table->time_left(0) == 5s);
    REQUIRE(table->ask(0, "x\n", one_line_framer()).ok());
    const Millis left = table->time_left(0);
    CHECK(left <= 4900ms);
    CHECK(left > 4000ms);
}

TEST_CASE("process table writes a transcript and a capped stderr log") {
    const auto dir = scratch_dir("transcript");
    TableOptions options;
    options.transcript_path = dir / "match.transcript";
    options.log_dir = dir / "logs";
    options.limits.stderr_cap_bytes = 1000;
    std::vector<SeatLaunch> seats{fault_seat("p0", {"--stderr-bytes", "300000"}, per_request(5s))};
    auto table = ProcessTable::launch(std::move(seats), options);
    table->note("deal 1");
    REQUIRE(table->ask(0, "ping\n", one_line_framer()).ok());
    table->close();
    const std::string transcript = read_file(options.transcript_path);
    CHECK(transcript.find("p0 > ping") != std::string::npos);
    CHECK(transcript.find("p0 < echo ping") != std::string::npos);
    CHECK(transcript.find("# deal 1") != std::string::npos);
    const std::string log = read_file(options.log_dir / "p0.stderr.log");
    CHECK(log.substr(0, 1000) == std::string(1000, 'e'));
    CHECK(log.find("299000 more bytes dropped") != std::string::npos);
}

TEST_CASE("process table passes arguments, environment and working directory") {
    const auto dir = scratch_dir("env");
    SeatLaunch launch;
    launch.info = SeatInfo{0, "sh", "p0"};
    launch.bot = parse_bot_spec("name=sh cmd=\"/bin/sh -c 'read x; echo \\\"$x $GREETING $(pwd) $0\\\"'\" env.GREETING=hi");
    launch.bot.dir = dir;
    launch.extra_args = {"role-a"};
    launch.time = per_request(2s);
    std::vector<SeatLaunch> seats{launch};
    auto table = ProcessTable::launch(std::move(seats), TableOptions{});
    const Reply reply = table->ask(0, "x\n", one_line_framer());
    REQUIRE(reply.ok());
    CHECK(reply.first_line() == "x hi " + std::filesystem::canonical(dir).string() + " role-a");
}

TEST_CASE("process table escapes a reply that is not UTF-8 instead of failing on it") {
    const auto dir = scratch_dir("utf8");
    const auto script = dir / "latin1_bot.sh";
    std::ofstream(script) << "#!/bin/sh\nread x\nprintf '= \\377\\376 junk\\n'\n";
    std::filesystem::permissions(script, std::filesystem::perms::owner_all);
    SeatLaunch launch;
    launch.info = SeatInfo{0, "latin1", "p0"};
    launch.bot = parse_bot_spec("name=latin1 cmd=" + quote_word(script.string()));
    launch.time = per_request(2s);
    std::vector<SeatLaunch> seats{launch};
    auto table = ProcessTable::launch(std::move(seats), TableOptions{});
    const Reply reply = table->ask(0, "x\n", one_line_framer());
    REQUIRE(reply.ok());
    CHECK(reply.first_line() == "= \\xFF\\xFE junk");
}

TEST_CASE("process table escapes the unfinished line of a failed reply that is not UTF-8") {
    const auto dir = scratch_dir("utf8-partial");
    const auto script = dir / "latin1_partial_bot.sh";
    std::ofstream(script) << "#!/bin/sh\nread x\nprintf 'half \\377'\nsleep 5\n";
    std::filesystem::permissions(script, std::filesystem::perms::owner_all);
    SeatLaunch launch;
    launch.info = SeatInfo{0, "latin1", "p0"};
    launch.bot = parse_bot_spec("name=latin1 cmd=" + quote_word(script.string()));
    launch.time = per_request(300ms);
    std::vector<SeatLaunch> seats{launch};
    auto table = ProcessTable::launch(std::move(seats), TableOptions{});
    const Reply reply = table->ask(0, "x\n", one_line_framer());
    CHECK(reply.status == ReplyStatus::timeout);
    CHECK(reply.partial == "half \\xFF");
}

TEST_CASE("process table close is idempotent and leaves no process behind") {
    const auto dir = scratch_dir("close");
    std::vector<SeatLaunch> seats{fault_seat("p0", {"--pidfile", (dir / "pids").string()}, per_request(2s))};
    TableOptions options;
    options.quit_text = "quit\n";
    auto table = ProcessTable::launch(std::move(seats), options);
    REQUIRE(table->ask(0, "a\n", one_line_framer()).ok());
    const auto pids = recorded_pids(dir / "pids");
    REQUIRE(pids.size() == 1);
    const auto start = std::chrono::steady_clock::now();
    table->close();
    CHECK(seconds_since(start) < 0.3);  // the bot obeyed quit: no SIGTERM grace spent
    table->close();
    CHECK(process_gone(pids[0]));
    CHECK(table->ask(0, "b\n", one_line_framer()).status == ReplyStatus::not_running);
    CHECK_FALSE(table->send(0, "c\n"));
}

TEST_CASE("process table refuses a missing executable before starting anything") {
    std::vector<SeatLaunch> seats{fault_seat("good", {}), fault_seat("bad", {})};
    seats[1].bot = parse_bot_spec("name=bad cmd=/nonexistent/bot");
    const std::string what = launch_error(std::move(seats));
    CHECK(what.find("bad") != std::string::npos);
    CHECK(what.find("/nonexistent/bot") != std::string::npos);
}

TEST_CASE("process table reports how limits are enforced") {
    std::vector<SeatLaunch> seats{fault_seat("p0", {})};
    auto table = ProcessTable::launch(std::move(seats), TableOptions{});
    const std::string mechanism = table->limit_mechanism();
    CHECK((mechanism.rfind("cgroup", 0) == 0 || mechanism.rfind("rlimit", 0) == 0));
}

TEST_CASE("process table retire stops the seat at once") {
    const auto dir = scratch_dir("retire");
    std::vector<SeatLaunch> seats{fault_seat("p0", {"--pidfile", (dir / "pids").string()}, per_request(2s)),
                                  fault_seat("p1", {}, per_request(2s))};
    auto table = ProcessTable::launch(std::move(seats), TableOptions{});
    REQUIRE(table->ask(0, "a\n", one_line_framer()).ok());
    table->retire(0, SeatStatus::illegal, "bad move");
    CHECK(table->status(0) == SeatStatus::illegal);
    CHECK(table->ask(0, "b\n", one_line_framer()).status == ReplyStatus::not_running);
    CHECK(table->ask(1, "b\n", one_line_framer()).ok());
    const auto pids = recorded_pids(dir / "pids");
    REQUIRE(pids.size() == 1);
    for (int i = 0; i < 100 && !process_gone(pids[0]); ++i) {
        table->ask(1, "poll\n", one_line_framer());  // reaping happens while the table runs
        std::this_thread::sleep_for(5ms);
    }
    table->close();
    CHECK(process_gone(pids[0]));
}

namespace {
// The state letter of a process from /proc/<pid>/stat ('T' = stopped).
char process_state(pid_t pid) {
    const std::string stat = read_file("/proc/" + std::to_string(pid) + "/stat");
    const auto close = stat.rfind(')');
    return close == std::string::npos || close + 2 >= stat.size() ? '?' : stat[close + 2];
}
}  // namespace

TEST_CASE("process table freezes idle seats between their requests") {
    const auto dir = scratch_dir("freeze");
    std::vector<SeatLaunch> seats{fault_seat("p0", {"--pidfile", (dir / "pids").string()}, per_request(2s))};
    TableOptions options;
    options.freeze_idle = true;
    auto table = ProcessTable::launch(std::move(seats), options);
    for (int i = 0; i < 100 && recorded_pids(dir / "pids").empty(); ++i) std::this_thread::sleep_for(5ms);
    REQUIRE(table->ask(0, "one\n", one_line_framer()).ok());
    const auto pids = recorded_pids(dir / "pids");
    REQUIRE(pids.size() == 1);
    // A freeze takes effect when the kernel next looks at the process: wait for it briefly. The
    // freezer cgroup shows a frozen task as 'D' (v1), SIGSTOP (no freezer here) as 'T'.
    auto stopped = [](char state) { return state == 'T' || state == 'D'; };
    char state = process_state(pids[0]);
    for (int i = 0; i < 200 && !stopped(state); ++i) {
        std::this_thread::sleep_for(5ms);
        state = process_state(pids[0]);
    }
    CHECK(stopped(state));  // stopped while it is not asked
    const Reply again = table->ask(0, "two\n", one_line_framer());
    REQUIRE(again.ok());
    CHECK(again.first_line() == "echo two");
    table->close();  // a frozen bot is thawed and stopped like any other
    CHECK(process_gone(pids[0]));
}
