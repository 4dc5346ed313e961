// The loopback TCP line channel (the bot connects to us, smart-dog) and the HTTP GET channel
// (the bot serves, Koehandel) behind the same Table, with the fault bot's --tcp/--http modes.
#include <doctest/doctest.h>

#include <thread>

#include <boost/asio/ip/tcp.hpp>

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
    SeatLaunch launch = fault_seat("net", std::move(flags), per_request(limit, 30ms));
    launch.channel = kind;
    return launch;
}

// A bot that never answers: the request times out within `within_s`, the seat is retired as
// timed out (an HTTP seat stays: its server may answer the next request), and close() leaves
// none of its processes.
void check_silent_bot_times_out(ChannelKind kind, Millis limit, std::string_view request, double within_s) {
    const auto dir = scratch_dir("silent");
    auto table = launch_one(channel_seat(kind, {"--never-answer"}, limit, dir / "pids"));
    const auto start = std::chrono::steady_clock::now();
    CHECK(table->ask(0, request, one_line_framer()).status == ReplyStatus::timeout);
    CHECK(seconds_since(start) < within_s);
    CHECK(table->status(0) == (kind == ChannelKind::http_server ? SeatStatus::ok : SeatStatus::timeout));
    table->close();
    check_recorded_pids_gone(dir / "pids");
}

// A bot that answers `first` and crashes on `second`: the crash is seen at once as closed, and
// the seat is out as crashed.
void check_crash_seen_as_closed(ChannelKind kind, std::string_view first, std::string_view second) {
    const auto dir = scratch_dir("crash");
    auto table = launch_one(channel_seat(kind, {"--crash-after", "1"}, 2s, dir / "pids"));
    CHECK(table->ask(0, first, one_line_framer()).ok());
    const auto start = std::chrono::steady_clock::now();
    CHECK(table->ask(0, second, one_line_framer()).status == ReplyStatus::closed);
    CHECK(seconds_since(start) < 1.0);
    CHECK(table->status(0) == SeatStatus::crashed);
    table->close();
    check_recorded_pids_gone(dir / "pids");
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
    check_recorded_pids_gone(dir / "pids");
}

TEST_CASE("tcp channel: a silent bot times out at its deadline") {
    check_silent_bot_times_out(ChannelKind::tcp_client, 200ms, "hello\n", 0.5);
}

TEST_CASE("tcp channel: a crashing bot is seen as closed") {
    check_crash_seen_as_closed(ChannelKind::tcp_client, "one\n", "two\n");
}

TEST_CASE("tcp channel: a line the bot sent before its main process exited is its reply") {
    // The bot connects, sends its join line, forks a child that holds the socket and exits at
    // once: the table sees the exit while the read that took the line is still to be handled.
    const auto dir = scratch_dir("tcp-exit-after-line");
    SeatLaunch launch = channel_seat(ChannelKind::tcp_client, {"--fork-holder"}, 2s, dir / "pids");
    launch.bot.env["ARBITER_TOKEN"] = "seat-token";
    auto table = launch_one(std::move(launch));
    // By the time the table looks, the bot has connected, written and exited: its connection,
    // its line and its exit are all waiting at once, as when a busy arbiter comes back to it.
    std::this_thread::sleep_for(300ms);
    const Reply join = table->ask(0, "", one_line_framer());
    INFO("status " << std::string(to_string(join.status)) << ", partial '" << join.partial << "'");
    REQUIRE(join.ok());
    CHECK(join.first_line() == "join seat-token");
    CHECK(table->ask(0, "turn\n", one_line_framer()).status == ReplyStatus::closed);
    CHECK(table->status(0) == SeatStatus::crashed);
    table->close();
    check_recorded_pids_gone(dir / "pids");
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
    check_recorded_pids_gone(dir / "pids");
}

TEST_CASE("http channel: a bot that never answers times out") {
    check_silent_bot_times_out(ChannelKind::http_server, 300ms, "?type=bid", 0.6);
}

TEST_CASE("http channel: a bot that crashes on a request is seen as closed") {
    check_crash_seen_as_closed(ChannelKind::http_server, "?n=1", "?n=2");
}

// A loopback port that was free a moment ago.
std::uint16_t free_loopback_port() {
    boost::asio::io_context ctx;
    boost::asio::ip::tcp::acceptor probe(ctx, {boost::asio::ip::address_v4::loopback(), 0});
    return probe.local_endpoint().port();
}

TEST_CASE("tcp channel: seats with tokens on a fixed port share it and are seated by `join TOKEN`, others get an error") {
    const std::string client = std::string(ARBITER_SOURCE_DIR) + "/tests/core/join_token_client.py";
    const std::uint16_t port = free_loopback_port();
    std::vector<SeatLaunch> seats;
    for (int s = 0; s < 2; ++s) {
        SeatLaunch launch;
        launch.info = SeatInfo{s, "joiner", "p" + std::to_string(s)};
        launch.bot = parse_bot_spec("name=joiner cmd=python3 arg=" + client + (s == 0 ? " arg=#duet" : " arg=-"));
        launch.bot.env["ARBITER_TOKEN"] = s == 0 ? "secret-zero" : "secret-one";
        launch.time = per_request(3s);
        launch.channel = ChannelKind::tcp_client;
        launch.listen_port = port;
        seats.push_back(std::move(launch));
    }
    TableOptions options;
    options.limits.sandbox = SandboxMode::none;  // one network for both: the port is really shared
    auto table = ProcessTable::launch(std::move(seats), options);
    const std::vector<Request> joins = {{0, "", one_line_framer()}, {1, "", one_line_framer()}};
    const std::vector<Reply> replies = table->ask_all(joins);
    REQUIRE(replies[0].ok());
    REQUIRE(replies[1].ok());
    // Each seat got its own bot's connection, hub word or not; a wrong token was turned away.
    CHECK(replies[0].first_line() == "join secret-zero #duet wrong=error_Unknown_token");
    CHECK(replies[1].first_line() == "join secret-one wrong=error_Unknown_token");
    // A token already used cannot take the seat over.
    CHECK(table->ask(0, "reuse\n", one_line_framer()).first_line() == "reuse=error_Unknown_token");
    CHECK(table->ask(0, "hello\n", one_line_framer()).first_line() == "echo hello");
    CHECK(table->ask(1, "hi\n", one_line_framer()).first_line() == "echo hi");
    table->close();
}

TEST_CASE("tcp channel: without a fixed port each token seat has a port of its own and is seated by its connection") {
    std::vector<SeatLaunch> seats;
    // Seat 0 joins with a name that is not its token (turned away on a shared port).
    SeatLaunch named;
    named.info = SeatInfo{0, "named", "p0"};
    named.bot = parse_bot_spec(
        "name=named cmd=python3 arg=-c arg=" +
        quote_word("import os, socket\n"
                   "s = socket.create_connection(('127.0.0.1', int(os.environ['ARBITER_PORT'])))\n"
                   "s.sendall(b'join SomeName\\n')\n"
                   "s.recv(100)\n"));
    named.bot.env["ARBITER_TOKEN"] = "secret-0";
    named.time = per_request(3s);
    named.channel = ChannelKind::tcp_client;
    seats.push_back(std::move(named));
    SeatLaunch echo = channel_seat(ChannelKind::tcp_client, {}, 3s, scratch_dir("own-port") / "pids");
    echo.info = SeatInfo{1, "net", "p1"};
    echo.bot.env["ARBITER_TOKEN"] = "secret-1";
    seats.push_back(std::move(echo));
    TableOptions options;
    options.limits.sandbox = SandboxMode::none;
    auto table = ProcessTable::launch(std::move(seats), options);
    const std::vector<Request> joins = {{0, "", one_line_framer()}, {1, "", one_line_framer()}};
    const std::vector<Reply> replies = table->ask_all(joins);
    CHECK(replies[0].first_line() == "join SomeName");
    CHECK(replies[1].first_line() == "join secret-1");
    CHECK(table->ask(1, "hello\n", one_line_framer()).first_line() == "echo hello");
    table->close();
}

TEST_CASE("a url= bot talks HTTP only: a seat of another channel refuses it by name, before anything starts") {
    for (const ChannelKind kind : {ChannelKind::stdio, ChannelKind::tcp_client}) {
        SeatLaunch launch;
        launch.info = SeatInfo{0, "remote", "p0"};
        launch.bot = parse_bot_spec("name=remote url=http://127.0.0.1:1/");
        launch.time = per_request(1s);
        launch.channel = kind;
        TableOptions options;
        options.limits.sandbox = SandboxMode::none;
        std::vector<SeatLaunch> seats;
        seats.push_back(std::move(launch));
        CHECK_THROWS_WITH_AS(ProcessTable::launch(std::move(seats), options),
                             "bot 'remote': url= bots serve HTTP, which this game does not use", UserError);
    }
}
