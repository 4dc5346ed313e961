// The HTTP seat (core/channel/channel_http.cpp) against real servers: Python's http.server in
// HTTP/1.1 keep-alive and HTTP/1.0, chunked bodies, Node's http, Flask, and the faults: never
// listening, junk, late, connection closed, 10 MB, redirects.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "core/bot_spec.hpp"
#include "core/table/process_table.hpp"

using namespace std::chrono_literals;

namespace arb {
namespace {

const std::string kDir = std::string(ARBITER_SOURCE_DIR) + "/tests/koehandel/";

std::unique_ptr<ProcessTable> http_seat(const std::string& command, Millis limit) {
    SeatLaunch launch;
    launch.info = SeatInfo{0, "http", "p0"};
    launch.bot = parse_bot_spec("name=http cmd=" + quote_word(command));
    launch.time.per_request = limit;
    launch.time.first_request = 3000ms;  // the interpreter starting
    launch.time.grace = 20ms;
    launch.channel = ChannelKind::http_server;
    std::vector<SeatLaunch> seats{launch};
    return ProcessTable::launch(std::move(seats), TableOptions{});
}

std::unique_ptr<ProcessTable> python_fault(const std::string& mode, Millis limit = 2000ms) {
    return http_seat("python3 " + kDir + "http_fault_server.py " + mode, limit);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST_CASE("http seat: Python http.server with keep-alive answers on one connection") {
    auto table = python_fault("echo");
    for (int i = 0; i < 5; ++i) {
        const Reply reply = table->ask(0, "?type=start&n=" + std::to_string(i), one_line_framer());
        REQUIRE(reply.ok());
        CHECK(reply.first_line() == "echo=type=start&n=" + std::to_string(i) + "&conn=1");
    }
    CHECK(table->send(0, "?type=information&message=begin"));
    CHECK(table->ask(0, "?n=6", one_line_framer()).first_line() == "echo=n=6&conn=1");
}

TEST_CASE("http seat: the request is a plain HTTP/1.1 GET with Host and User-Agent, kept alive by default") {
    auto table = python_fault("head");
    for (int i = 0; i < 2; ++i) {
        const Reply reply = table->ask(0, "?type=start&n=" + std::to_string(i), one_line_framer());
        REQUIRE(reply.ok());
        const std::string head = reply.first_line();
        INFO(head);
        CHECK(head.starts_with("head=GET /?type=start&n=" + std::to_string(i) + " HTTP/1.1|Host: 127.0.0.1:"));
        CHECK(head.ends_with("|User-Agent: arbiter"));
        CHECK(std::count(head.begin(), head.end(), '|') == 2);  // no other field
    }
}

TEST_CASE("http seat: a bot that writes header and body apart is not held up by delayed ACKs") {
    // http.server sends the header and the body in two writes without TCP_NODELAY: the body
    // waits for the header's ACK, which the arbiter would delay by some 40 ms per reply on a
    // kept connection if it did not acknowledge at once once it saw a reply come in pieces.
    auto table = python_fault("echo");
    REQUIRE(table->ask(0, "?warm=1", one_line_framer()).ok());
    const auto start = std::chrono::steady_clock::now();
    constexpr int kRequests = 60;
    for (int i = 0; i < kRequests; ++i) REQUIRE(table->ask(0, "?n=" + std::to_string(i), one_line_framer()).ok());
    const double per_request = seconds_since(start) / kRequests;
    INFO("seconds per request: " << per_request);
    CHECK(per_request < 0.02);
}

TEST_CASE("http seat: a kept connection the bot closed is replaced without a fault") {
    auto table = python_fault("drop");
    for (int i = 0; i < 4; ++i) {
        const Reply reply = table->ask(0, "?n=" + std::to_string(i), one_line_framer());
        REQUIRE(reply.ok());
        CHECK(reply.first_line() == "echo=n=" + std::to_string(i) + "&conn=" + std::to_string(i + 1));
    }
    CHECK(table->alive(0));
}

TEST_CASE("http seat: HTTP/1.0 bodies end with the stream, a connection per request") {
    auto table = python_fault("http10");
    for (int i = 0; i < 3; ++i) {
        const Reply reply = table->ask(0, "?n=" + std::to_string(i), one_line_framer());
        REQUIRE(reply.ok());
        CHECK(reply.first_line() == "echo=n=" + std::to_string(i) + "&conn=" + std::to_string(i + 1));
    }
}

TEST_CASE("http seat: chunked bodies are joined") {
    auto table = python_fault("chunked");
    const Reply reply = table->ask(0, "?type=auction&money=tttt", one_line_framer());
    REQUIRE(reply.ok());
    CHECK(reply.first_line() == "echo=type=auction&money=tttt&conn=1");
    CHECK(table->ask(0, "?x=1", one_line_framer()).first_line() == "echo=x=1&conn=1");
}

TEST_CASE("http seat: Node's http module works unchanged") {
    if (std::system("node --version > /dev/null 2>&1") != 0) {
        MESSAGE("skipped: no node on this machine");
        return;
    }
    auto table = http_seat("node " + kDir + "node_http_bot.js", 2000ms);
    for (int i = 0; i < 3; ++i) {
        const Reply reply = table->ask(0, "?n=" + std::to_string(i), one_line_framer());
        REQUIRE(reply.ok());
        CHECK(reply.first_line() == "echo=n=" + std::to_string(i) + "&conn=1");
    }
}

TEST_CASE("http seat: a Flask app works unchanged") {
    if (std::system("python3 -c 'import flask' > /dev/null 2>&1") != 0) {
        MESSAGE("skipped: Flask is not installed (Debian package python3-flask; tools/setup installs it)");
        return;
    }
    auto table = http_seat("python3 " + kDir + "flask_http_bot.py", 2000ms);
    for (int i = 0; i < 3; ++i) {
        const Reply reply = table->ask(0, "?type=bid&n=" + std::to_string(i), one_line_framer());
        REQUIRE(reply.ok());
        CHECK(reply.first_line() == "echo=type=bid&n=" + std::to_string(i));
    }
}

TEST_CASE("http seat: a bot that never listens times out within its limit") {
    auto table = python_fault("never", 300ms);
    const auto start = std::chrono::steady_clock::now();
    CHECK(table->ask(0, "?type=start", one_line_framer()).status == ReplyStatus::timeout);
    CHECK(seconds_since(start) < 3.6);
    CHECK(table->status(0) == SeatStatus::ok);  // its process runs: the next request is tried
}

TEST_CASE("http seat: a late answer is a timeout at the configured limit") {
    auto table = python_fault("late 1500", 300ms);
    REQUIRE(table->ask(0, "?warm=1", one_line_framer()).ok());
    const auto start = std::chrono::steady_clock::now();
    CHECK(table->ask(0, "?type=start", one_line_framer()).status == ReplyStatus::timeout);
    const double took = seconds_since(start);
    CHECK(took >= 0.3);
    CHECK(took < 1.2);
    CHECK(table->status(0) == SeatStatus::ok);
}

TEST_CASE("http seat: after a late answer the bot plays on, and the late answer is never read") {
    auto table = python_fault("late-once 600", 300ms);
    REQUIRE(table->ask(0, "?warm=1", one_line_framer()).ok());
    CHECK(table->ask(0, "?type=start&n=1", one_line_framer()).status == ReplyStatus::timeout);
    for (int i = 2; i <= 4; ++i) {
        const Reply reply = table->ask(0, "?type=bid&n=" + std::to_string(i), one_line_framer());
        REQUIRE(reply.ok());
        CHECK(reply.first_line().starts_with("echo=type=bid&n=" + std::to_string(i) + "&"));
    }
    CHECK(table->alive(0));
}

TEST_CASE("http seat: junk, a closed connection and 10 MB are failed replies, quickly") {
    struct Case {
        std::string mode;
        ReplyStatus status;
    };
    for (const auto& c : {Case{"junk", ReplyStatus::closed}, Case{"close", ReplyStatus::closed}, Case{"big", ReplyStatus::overflow}}) {
        CAPTURE(c.mode);
        auto table = python_fault(c.mode);
        const auto start = std::chrono::steady_clock::now();
        const Reply reply = table->ask(0, "?type=start", one_line_framer());
        CHECK(reply.status == c.status);
        CHECK(seconds_since(start) < 3.0);
        CHECK(table->alive(0));  // a failed request costs its default action, not the game
    }
}

TEST_CASE("http seat: a redirect is not followed and answers nothing") {
    auto table = python_fault("redirect");
    const Reply reply = table->ask(0, "?type=start", one_line_framer());
    REQUIRE(reply.ok());
    CHECK(reply.lines.empty());
    CHECK(table->alive(0));
}

}  // namespace arb
