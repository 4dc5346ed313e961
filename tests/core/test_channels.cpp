// The loopback TCP line channel (the bot connects to us, smart-dog) and the HTTP GET channel
// (the bot serves, Koehandel) behind the same Table, with the fault bot's --tcp/--http modes.
#include <doctest/doctest.h>

#include "tests/core/bot_test_support.hpp"

using namespace std::chrono_literals;
using namespace arb;
using namespace arb::testing;

namespace {

SeatLaunch channel_seat(ChannelKind kind, std::vector<std::string> flags, Millis limit,
                        const std::filesystem::path& pidfile) {
    flags.push_back(kind == ChannelKind::tcp_client ? "--tcp" : "--http");
    flags.push_back("--pidfile");
    flags.push_back(pidfile.string());
    TimeControl tc;
    tc.per_request = limit;
    tc.grace = 30ms;
    SeatLaunch launch = fault_seat("net", std::move(flags), tc);
    launch.channel = kind;
    return launch;
}

std::unique_ptr<ProcessTable> launch_one(SeatLaunch seat) {
    std::vector<SeatLaunch> seats{std::move(seat)};
    TableOptions options;
    options.term_grace = 100ms;
    options.quit_grace = 100ms;
    return ProcessTable::launch(std::move(seats), options);
}

void check_gone(const std::filesystem::path& pidfile) {
    const auto pids = recorded_pids(pidfile);
    CHECK_FALSE(pids.empty());
    for (pid_t pid : pids) CHECK(process_gone(pid));
}

}  // namespace

TEST_CASE("tcp channel: the bot connects and echoes lines, also after a slow start") {
    const auto dir = scratch_dir("tcp");
    auto table = launch_one(channel_seat(ChannelKind::tcp_client, {"--start-delay", "100"}, 2s, dir / "pids"));
    CHECK(table->send(0, "hello\n"));  // queued until the bot connects
    int seen = 0;
    const Reply reply = table->ask(0, "world\n", [&](std::string_view) { return ++seen == 2 ? Frame::end_keep : Frame::keep; });
    REQUIRE(reply.ok());
    CHECK(reply.lines == std::vector<std::string>{"echo hello", "echo world"});
    for (int i = 0; i < 10; ++i) REQUIRE(table->ask(0, std::to_string(i) + "\n", one_line_framer()).ok());
    table->close();
    CHECK(table->status(0) == SeatStatus::ok);
    check_gone(dir / "pids");
}

TEST_CASE("tcp channel: a silent bot times out at its deadline") {
    const auto dir = scratch_dir("tcp-timeout");
    auto table = launch_one(channel_seat(ChannelKind::tcp_client, {"--never-answer"}, 200ms, dir / "pids"));
    const auto start = std::chrono::steady_clock::now();
    const Reply reply = table->ask(0, "hello\n", one_line_framer());
    CHECK(reply.status == ReplyStatus::timeout);
    CHECK(seconds_since(start) < 0.5);
    CHECK(table->status(0) == SeatStatus::timeout);
    table->close();
    check_gone(dir / "pids");
}

TEST_CASE("tcp channel: a crashing bot is seen as closed") {
    const auto dir = scratch_dir("tcp-crash");
    auto table = launch_one(channel_seat(ChannelKind::tcp_client, {"--crash-after", "1"}, 2s, dir / "pids"));
    CHECK(table->ask(0, "one\n", one_line_framer()).ok());
    const auto start = std::chrono::steady_clock::now();
    CHECK(table->ask(0, "two\n", one_line_framer()).status == ReplyStatus::closed);
    CHECK(seconds_since(start) < 1.0);
    CHECK(table->status(0) == SeatStatus::crashed);
    table->close();
    check_gone(dir / "pids");
}

TEST_CASE("http channel: requests are GETs and the body is the reply") {
    const auto dir = scratch_dir("http");
    auto table = launch_one(channel_seat(ChannelKind::http_server, {"--start-delay", "100"}, 2s, dir / "pids"));
    const Reply reply = table->ask(0, "?market=1&id=2&type=bid\n", one_line_framer());
    REQUIRE(reply.ok());
    CHECK(reply.first_line() == "echo ?market=1&id=2&type=bid");
    CHECK(table->send(0, "?type=information&message=begin"));
    const Reply again = table->ask(0, "/?type=offer", one_line_framer());
    REQUIRE(again.ok());
    CHECK(again.first_line() == "echo ?type=offer");
    CHECK(table->usage(0).requests == 2);  // the send() is not charged to the bot's clock
    table->close();
    check_gone(dir / "pids");
}

TEST_CASE("http channel: a bot that never answers times out") {
    const auto dir = scratch_dir("http-timeout");
    auto table = launch_one(channel_seat(ChannelKind::http_server, {"--never-answer"}, 300ms, dir / "pids"));
    const auto start = std::chrono::steady_clock::now();
    CHECK(table->ask(0, "?type=bid", one_line_framer()).status == ReplyStatus::timeout);
    CHECK(seconds_since(start) < 0.6);
    CHECK(table->status(0) == SeatStatus::timeout);
    table->close();
    check_gone(dir / "pids");
}

TEST_CASE("http channel: a bot that crashes on a request is seen as closed") {
    const auto dir = scratch_dir("http-crash");
    auto table = launch_one(channel_seat(ChannelKind::http_server, {"--crash-after", "1"}, 2s, dir / "pids"));
    CHECK(table->ask(0, "?n=1", one_line_framer()).ok());
    const auto start = std::chrono::steady_clock::now();
    CHECK(table->ask(0, "?n=2", one_line_framer()).status == ReplyStatus::closed);
    CHECK(seconds_since(start) < 1.0);
    CHECK(table->status(0) == SeatStatus::crashed);
    table->close();
    check_gone(dir / "pids");
}
