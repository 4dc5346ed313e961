// The seat driver (rules/seat_driver.hpp): every referee's way to ask its seats.
#include <doctest/doctest.h>

#include <charconv>
#include <optional>
#include <string>
#include <vector>

#include "core/table/scripted_table.hpp"
#include "rules/seat_driver.hpp"

using namespace arb;

namespace {

std::optional<int> read_number(const Reply& reply) {
    int value = 0;
    const std::string& line = reply.first_line();
    const auto [end, error] = std::from_chars(line.data(), line.data() + line.size(), value);
    if (error != std::errc() || end != line.data() + line.size()) return std::nullopt;
    return value;
}

ScriptedTable four_seats() {
    return ScriptedTable({{{0, "a", "p0"}, [](std::string_view) { return ScriptedAnswer::text("7\n"); }},
                          {{1, "b", "p1"}, [](std::string_view) { return ScriptedAnswer::timeout(); }},
                          {{2, "c", "p2"}, [](std::string_view) { return ScriptedAnswer::text("seven\n"); }},
                          {{3, "d", "p3"}, [](std::string_view) { return ScriptedAnswer::crash(); }}});
}

}  // namespace

TEST_CASE("seat driver: a round's answers come in request order, faults typed, good replies read") {
    ScriptedTable table = four_seats();
    std::vector<Request> requests;
    for (const int seat : {3, 2, 1, 0}) requests.push_back({seat, "go\n", one_line_framer()});
    const auto answers = ask_round(table, requests, read_number);
    REQUIRE(answers.size() == 4);
    CHECK(answers[0].seat == 3);
    CHECK(answers[0].failed());
    CHECK(answers[0].fault().status == SeatStatus::crashed);
    CHECK(!answers[0].move);
    CHECK(answers[1].seat == 2);
    CHECK(!answers[1].failed());
    CHECK(!answers[1].readable());  // unreadable, not a fault: the game's rules decide
    CHECK(answers[1].reply.first_line() == "seven");
    CHECK(answers[2].fault().status == SeatStatus::timeout);
    CHECK(answers[3].seat == 0);
    CHECK(answers[3].fault().status == SeatStatus::ok);
    CHECK(answers[3].move == 7);
}

TEST_CASE("seat driver: the reader sees ok replies only, and a round of no requests asks nobody") {
    ScriptedTable table = four_seats();
    int read = 0;
    auto counting = [&read](const Reply& reply) {
        ++read;
        return read_number(reply);
    };
    std::vector<Request> requests;
    for (int seat = 0; seat < 4; ++seat) requests.push_back({seat, "go\n", one_line_framer()});
    ask_round(table, requests, counting);
    CHECK(read == 2);  // seats 0 and 2; the timeout and the crash are not read
    CHECK(ask_round(table, std::vector<Request>{}, counting).empty());
    CHECK(table.transcript().size() == 4 + 4);  // 4 requests and 4 answers or faults, nothing more
}

TEST_CASE("seat driver: one seat asked alone, and a seat the table stopped keeps the table's status") {
    ScriptedTable table = four_seats();
    const auto good = ask_seat(table, 0, "go\n", one_line_framer(), read_number);
    CHECK(good.move == 7);
    const auto lines = ask_seat(table, 2, "go\n", one_line_framer(), reply_lines);
    REQUIRE(lines.move);
    CHECK(*lines.move == std::vector<std::string>{"seven"});
    table.retire(1, SeatStatus::killed, "memory limit of 64 MiB exceeded");
    const auto stopped = ask_seat(table, 1, "go\n", one_line_framer(), nothing_to_read);
    CHECK(stopped.fault().status == SeatStatus::killed);
    CHECK(stopped.fault().reason == "memory limit of 64 MiB exceeded");
}
