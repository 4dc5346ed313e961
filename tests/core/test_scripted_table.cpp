#include <doctest/doctest.h>

#include "core/table/scripted_table.hpp"

using namespace arb;

TEST_CASE("scripted table: framers cut replies, faults retire the seat") {
    int asked = 0;
    ScriptedTable table({
        {{0, "echo", "p0"}, [&](std::string_view req) { ++asked; return ScriptedAnswer::text("\nhello\r\nrest\n"); }},
        {{1, "ants", "p1"}, [](std::string_view) { return ScriptedAnswer::text("o 1 2 N\no 3 4 S\ngo\n"); }},
        {{2, "dead", "p2"}, [](std::string_view) { return ScriptedAnswer::crash(); }},
    });
    Reply r0 = table.ask(0, "hi\n", one_line_framer());
    CHECK(r0.ok());
    CHECK(r0.lines == std::vector<std::string>{"hello"});
    Reply r1 = table.ask(1, "turn 1\ngo\n", terminator_framer("go"));
    CHECK(r1.lines == std::vector<std::string>{"o 1 2 N", "o 3 4 S"});
    Reply r2 = table.ask(2, "x\n", one_line_framer());
    CHECK(r2.status == ReplyStatus::closed);
    CHECK(table.status(2) == SeatStatus::crashed);
    CHECK(table.ask(2, "x\n", one_line_framer()).status == ReplyStatus::not_running);
    table.retire(0, SeatStatus::illegal, "bad move");
    CHECK_FALSE(table.alive(0));
    CHECK(table.ask(0, "hi\n", one_line_framer()).status == ReplyStatus::not_running);
    CHECK(asked == 1);
}
