#include <doctest/doctest.h>

#include "core/bot_spec.hpp"
#include "core/user_error.hpp"

using namespace arb;

TEST_CASE("bot spec: name, quoted cmd, dir, args and env") {
    BotSpec b = parse_bot_spec(R"(name=alpha cmd="python3 bot.py --level 3" dir=/tmp arg=x arg="y z" env.SEED=4)");
    CHECK(b.name == "alpha");
    CHECK(b.argv == std::vector<std::string>{"python3", "bot.py", "--level", "3", "x", "y z"});
    CHECK(b.dir == "/tmp");
    CHECK(b.env.at("SEED") == "4");
    CHECK(parse_bot_spec(to_spec_string(b)) == b);
}

TEST_CASE("bot spec: name defaults to the program's file name") {
    CHECK(parse_bot_spec("cmd=/usr/bin/true").name == "true");
}

TEST_CASE("bot spec: errors name the problem") {
    CHECK_THROWS_WITH_AS(parse_bot_spec("name=a"), doctest::Contains("missing cmd"), UserError);
    CHECK_THROWS_WITH_AS(parse_bot_spec("name=a cmd=x colour=red"), doctest::Contains("unknown key 'colour'"),
                         UserError);
    CHECK_THROWS_WITH_AS(parse_bot_spec("name=a cmd=\"x"), doctest::Contains("unterminated quote"), UserError);
    CHECK_THROWS_WITH_AS(parse_bot_spec("name=a oops"), doctest::Contains("expected KEY=VALUE"), UserError);
}

TEST_CASE("bot spec: executables are resolved before any match") {
    CHECK(resolve_executable(parse_bot_spec("cmd=true")).filename() == "true");
    CHECK_THROWS_WITH_AS(check_bots({parse_bot_spec("name=ghost cmd=/no/such/program")}),
                         "bot 'ghost': cannot run '/no/such/program': no folder /no/such", UserError);
    CHECK_THROWS_WITH_AS(check_bots({parse_bot_spec("name=g2 cmd=no-such-program-xyz")}),
                         doctest::Contains("no program 'no-such-program-xyz' in any folder of $PATH"), UserError);
    CHECK_THROWS_AS(check_bots({parse_bot_spec("name=d cmd=true dir=/no/such/dir")}), UserError);
}

TEST_CASE("command line splitting") {
    CHECK(split_command_line(R"(a 'b c' "d \"e\"" f\ g)") == std::vector<std::string>{"a", "b c", "d \"e\"", "f g"});
    CHECK(split_command_line("   ").empty());
}
