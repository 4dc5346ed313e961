// SeatClock and LineSplitter: the pure parts of the process table, tested exactly.
#include <doctest/doctest.h>

#include "core/channel/line_splitter.hpp"
#include "core/table/seat_clock.hpp"

using namespace std::chrono_literals;
using arb::LineSplitter;
using arb::Millis;
using arb::SeatClock;
using arb::TimeControl;

TEST_CASE("seat clock without limits never times out and reports unlimited time") {
    SeatClock clock(TimeControl{});
    CHECK_FALSE(clock.next_allowance().has_value());
    CHECK_FALSE(clock.next_wait().has_value());
    CHECK(clock.time_left() == Millis::max());
    clock.charge(5ms);
    CHECK(clock.requests() == 1);
    CHECK(clock.used() == 5ms);
}

TEST_CASE("seat clock per request limit plus grace") {
    SeatClock clock(TimeControl{.per_request = 100ms, .grace = 20ms});
    CHECK(*clock.next_allowance() == 100ms);
    CHECK(*clock.next_wait() == 120ms);
    CHECK(clock.time_left() == 100ms);
    clock.charge(30ms);
    CHECK(*clock.next_allowance() == 100ms);
}

TEST_CASE("seat clock first request allowance replaces the per request limit once") {
    SeatClock clock(TimeControl{.per_request = 100ms, .first_request = 3s});
    CHECK(*clock.next_allowance() == 3s);
    CHECK(clock.time_left() == 3s);
    clock.charge(2s);
    CHECK(*clock.next_allowance() == 100ms);
    clock.charge(1ms);
    CHECK(*clock.next_allowance() == 100ms);
}

TEST_CASE("seat clock first request allowance alone leaves later requests unlimited") {
    SeatClock clock(TimeControl{.first_request = 1s});
    CHECK(*clock.next_allowance() == 1s);
    clock.charge(10ms);
    CHECK_FALSE(clock.next_allowance().has_value());
}

TEST_CASE("seat clock budget bounds each request by what is left") {
    SeatClock clock(TimeControl{.per_request = 500ms, .total_budget = 1200ms, .grace = 10ms});
    CHECK(*clock.next_allowance() == 500ms);
    CHECK(clock.time_left() == 1200ms);
    clock.charge(400ms);
    clock.charge(450ms);
    CHECK(clock.time_left() == 350ms);
    CHECK(*clock.next_allowance() == 350ms);
    CHECK(*clock.next_wait() == 360ms);
    CHECK(clock.longest() == 450ms);
}

TEST_CASE("seat clock overdrawn budget is clamped at zero and grace is never refunded") {
    SeatClock clock(TimeControl{.total_budget = 100ms, .grace = 5ms});
    clock.charge(104ms);  // within grace: not a timeout, but charged in full
    CHECK(clock.time_left() == 0ms);
    CHECK(*clock.next_allowance() == 0ms);
    CHECK(*clock.next_wait() == 5ms);
    CHECK(clock.used() == 104ms);
}

TEST_CASE("seat clock budget only") {
    SeatClock clock(TimeControl{.total_budget = 2s});
    CHECK(*clock.next_allowance() == 2s);
    clock.charge(1500ms);
    CHECK(*clock.next_allowance() == 500ms);
    CHECK(clock.time_left() == 500ms);
}

TEST_CASE("seat clock time left rounds down to whole milliseconds") {
    SeatClock clock(TimeControl{.total_budget = 1000ms});
    clock.charge(std::chrono::microseconds(1500));
    CHECK(clock.time_left() == 998ms);
}

TEST_CASE("line splitter cuts lines and drops carriage returns") {
    LineSplitter lines(100);
    lines.append("= 5\r\n\r\nsec");
    std::string line;
    REQUIRE(lines.next(line) == LineSplitter::Next::line);
    CHECK(line == "= 5");
    REQUIRE(lines.next(line) == LineSplitter::Next::line);
    CHECK(line.empty());
    CHECK(lines.next(line) == LineSplitter::Next::need_more);
    CHECK(lines.pending() == "sec");
    lines.append("ond\n");
    REQUIRE(lines.next(line) == LineSplitter::Next::line);
    CHECK(line == "second");
    CHECK(lines.buffered() == 0);
}

TEST_CASE("line splitter reports overflow for a long line with or without its newline") {
    LineSplitter lines(8);
    std::string line;
    lines.append("12345678");
    CHECK(lines.next(line) == LineSplitter::Next::need_more);  // exactly the cap is allowed
    lines.append("9");
    CHECK(lines.next(line) == LineSplitter::Next::overflow);

    LineSplitter other(8);
    other.append("ok\n123456789\n");
    REQUIRE(other.next(line) == LineSplitter::Next::line);
    CHECK(line == "ok");
    CHECK(other.next(line) == LineSplitter::Next::overflow);
}

TEST_CASE("line splitter keeps bytes that are not text") {
    LineSplitter lines(100);
    const std::string bytes("\x00\xff\x01g\n", 5);
    lines.append(bytes);
    std::string line;
    REQUIRE(lines.next(line) == LineSplitter::Next::line);
    CHECK(line == std::string("\x00\xff\x01g", 4));
}

TEST_CASE("line splitter handles many appends without growing without bound") {
    LineSplitter lines(64);
    std::string line;
    for (int i = 0; i < 100000; ++i) {
        lines.append("abc\n");
        REQUIRE(lines.next(line) == LineSplitter::Next::line);
    }
    CHECK(lines.buffered() == 0);
}
