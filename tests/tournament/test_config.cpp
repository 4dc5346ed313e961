// Tournament config files: JSON with comments; unknown keys and wrong types name key and line.
#include <doctest/doctest.h>

#include <cstdlib>

#include "core/user_error.hpp"
#include "arbiter/tournament/tournament_config.hpp"

using namespace arb::tournament;

TEST_CASE("a full config is read, comments allowed") {
    const std::string text = R"({
  // the seed's format
  "name": "itpw",
  "game": "planowanie",
  "pairing": "groups",
  "seed": 2009,
  "rounds": 100,
  "random_rounds": 10,
  "vary_cyclic_order": false,
  "bots": ["name=a cmd=/bin/true", "name=b cmd=\"/bin/echo hi\""],
  "house_bots": ["name=h cmd=/bin/true"],
  "options": {"total-time-ms": 180000, "end": "quit"},
  "memory_mib": 400,
  "jobs": 2
})";
    const TournamentConfig c = parse_tournament_config(text, "x.json");
    CHECK(c.name == "itpw");
    CHECK(c.format == Format::groups);
    CHECK(c.seed == 2009);
    CHECK(c.rounds == 100);
    CHECK_FALSE(c.vary_cyclic_order);
    REQUIRE(c.bots.size() == 2);
    CHECK(c.bots[1].argv == std::vector<std::string>{"/bin/echo", "hi"});
    CHECK(c.options.at("total-time-ms") == "180000");
    CHECK(c.option_locations.at("end") == "x.json:12");
    CHECK(c.jobs == 2);
}

TEST_CASE("an unknown key names the file line and a close key") {
    const std::string text = "{\n  \"game\": \"planowanie\",\n\n  \"roundz\": 5\n}\n";
    CHECK_THROWS_WITH_AS(parse_tournament_config(text, "t.json"),
                         "t.json:4: unknown key 'roundz' (did you mean 'rounds'?)", arb::UserError);
}

TEST_CASE("a wrong type names the key and its line") {
    CHECK_THROWS_WITH_AS(parse_tournament_config("{\n\"game\": \"g\",\n\"rounds\": \"ten\"\n}", "t.json"),
                         "t.json:3: 'rounds' must be an integer from 1 to 1000000", arb::UserError);
    CHECK_THROWS_WITH_AS(parse_tournament_config("{\"bots\": [\n\"name=a cmd=x\",\n 7]}", "t.json"),
                         "t.json:3: 'bots' item 2 must be a string", arb::UserError);
    CHECK_THROWS_WITH_AS(parse_tournament_config("{\"format\": \"swiss\"}", "t.json"),
                         "t.json:1: 'format' must be one of groups, round-robin, gauntlet; got 'swiss'",
                         arb::UserError);
}

TEST_CASE("numbers out of range are refused with their range, never wrapped") {
    CHECK_THROWS_WITH_AS(parse_tournament_config("{\"rounds\": 2147483648}", "t.json"),
                         "t.json:1: 'rounds' must be an integer from 1 to 1000000", arb::UserError);
    CHECK_THROWS_WITH_AS(parse_tournament_config("{\"memory_mib\": 17592186044416}", "t.json"),
                         "t.json:1: 'memory_mib' must be an integer from 0 to 1048576", arb::UserError);
    CHECK_THROWS_WITH_AS(parse_tournament_config("{\"jobs\": -1}", "t.json"),
                         "t.json:1: 'jobs' must be an integer from 0 to 1024", arb::UserError);
    CHECK_THROWS_WITH_AS(parse_tournament_config("{\"ladder\": {\"max_matches\": -5}}", "t.json"),
                         "t.json:1: 'ladder.max_matches' must be from 0 to 1000000000", arb::UserError);
    CHECK_THROWS_WITH_AS(parse_tournament_config("{\"ladder\": {\"better_los\": 0.6, \"worse_los\": 0.9}}", "t.json"),
                         "t.json:1: 'ladder.worse_los' (0.9) must not be above 'ladder.better_los' (0.6)", arb::UserError);
    CHECK_THROWS_WITH_AS(parse_tournament_config("{\"rounds\": 0}", "t.json"),
                         "t.json:1: 'rounds' must be an integer from 1 to 1000000", arb::UserError);
    CHECK(parse_tournament_config("{\"rounds\": 1000000}", "t.json").rounds == 1000000);
    // Values from the command line skip the reader: validate() checks the same ranges.
    TournamentConfig c = parse_tournament_config("{\"name\": \"t\", \"rounds\": 2}", "t.json");
    c.bots = {arb::parse_bot_spec("name=a cmd=/bin/true"), arb::parse_bot_spec("name=b cmd=/bin/true")};
    c.players = 2;
    c.format = Format::round_robin;
    c.rounds = -3;
    CHECK_THROWS_WITH_AS(validate(c, 2, 2), "rounds must be from 1 to 1000000, not -3", arb::UserError);
    c.rounds = 2;
    c.memory_mib = -1;
    CHECK_THROWS_WITH_AS(validate(c, 2, 2), "memory (MiB) must be from 0 to 1048576, not -1", arb::UserError);
    c.memory_mib = 400;
    CHECK_NOTHROW(validate(c, 2, 2));
}

TEST_CASE("broken JSON reports the position") {
    try {
        parse_tournament_config("{\n  \"game\": \"g\",,\n}", "t.json");
        FAIL("no error");
    } catch (const arb::UserError& e) {
        CHECK(std::string(e.what()).find("t.json: not valid JSON") == 0);
        CHECK(std::string(e.what()).find("line 2") != std::string::npos);
    }
}

TEST_CASE("variables in bot specs expand, unknown ones are an error") {
    setenv("ARBITER_TEST_DIR", "/opt/bots", 1);
    CHECK(expand_variables("cmd=${ARBITER_TEST_DIR}/x") == "cmd=/opt/bots/x");
    CHECK_THROWS_AS(expand_variables("cmd=${ARBITER_SURELY_UNSET_VARIABLE}/x"), arb::UserError);
    CHECK(expand_variables("${ARBITER_BOTS}").find("bots") != std::string::npos);
}

TEST_CASE("the identity ignores jobs and out dir but not the schedule") {
    TournamentConfig a;
    a.game = "g";
    a.rounds = 3;
    TournamentConfig b = a;
    b.jobs = 7;
    b.out_dir = "elsewhere";
    CHECK(a.identity_json() == b.identity_json());
    b.seed = 5;
    CHECK(a.identity_json() != b.identity_json());
}

TEST_CASE("'pairing' chooses the pairing, 'format', its earlier name, means the same") {
    CHECK(parse_tournament_config(R"({"pairing": "gauntlet"})", "t.json").format == Format::gauntlet);
    CHECK(parse_tournament_config(R"({"format": "round-robin"})", "t.json").format == Format::round_robin);
    CHECK_THROWS_WITH_AS(parse_tournament_config("{\"pairing\": \"groups\",\n\"format\": \"groups\"}", "t.json"),
                         "t.json:2: give 'pairing' or its old name 'format', not both", arb::UserError);
    CHECK_THROWS_WITH_AS(parse_tournament_config(R"({"pairing": "swiss"})", "t.json"),
                         "t.json:1: 'pairing' must be one of groups, round-robin, gauntlet; got 'swiss'",
                         arb::UserError);
}

TEST_CASE("relative paths of a config are taken from its folder, absolute ones are left alone") {
    TournamentConfig c = parse_tournament_config(R"({
  "bots": ["name=a cmd=\"bots/a --fast\"", "name=b dir=b cmd=./run", "name=c cmd=/bin/true", "name=d cmd=python3",
           "name=e dir=/opt/e cmd=./run"],
  "house_bots": ["name=h cmd=../h"],
  "options": {"map": "maps/m.map", "other": "maps/not-a-path", "abs": "/data/m.map"},
  "out": "out"
})",
                                                 "t.json");
    const std::vector<arb::GameOptionSpec> specs = {{"map", arb::OptionKind::path, "", "", true},
                                                    {"other", arb::OptionKind::text, "", "", false},
                                                    {"abs", arb::OptionKind::path, "", "", false}};
    resolve_relative_paths(c, "/conf/dir", specs);
    CHECK(c.bots[0].argv == std::vector<std::string>{"/conf/dir/bots/a", "--fast"});
    CHECK(c.bots[0].command == "bots/a --fast");  // as written, for the store
    CHECK(c.bots[1].dir == "/conf/dir/b");
    CHECK(c.bots[1].argv[0] == "./run");  // relative to its dir=
    CHECK(c.bots[2].argv[0] == "/bin/true");
    CHECK(c.bots[3].argv[0] == "python3");  // looked up in PATH
    CHECK(c.bots[4].dir == "/opt/e");
    CHECK(c.house_bots[0].argv[0] == "/conf/h");
    CHECK(c.options.at("map") == "/conf/dir/maps/m.map");
    CHECK(c.options.at("other") == "maps/not-a-path");
    CHECK(c.options.at("abs") == "/data/m.map");
    CHECK(c.out_dir == "/conf/dir/out");
}
TEST_CASE("ladder.sprt: an SPRT string, checked as --sprt is") {
    const auto c = parse_tournament_config("{\"ladder\": {\"sprt\": \"elo0=-5 elo1=5 alpha=0.1\"}}", "t.json");
    REQUIRE(c.ladder.sprt);
    CHECK(c.ladder.sprt->elo0 == -5);
    CHECK(c.ladder.sprt->elo1 == 5);
    CHECK(c.ladder.sprt->alpha == 0.1);
    CHECK(c.ladder.sprt->beta == 0.05);
    CHECK_FALSE(parse_tournament_config("{\"ladder\": {\"max_matches\": 10}}", "t.json").ladder.sprt);
    CHECK_THROWS_WITH_AS(parse_tournament_config("{\"ladder\": {\"sprt\": \"elo0=3 elo1=1\"}}", "t.json"),
                         "t.json:1: 'ladder.sprt': elo0 must be less than elo1, not elo0=3 elo1=1", arb::UserError);
    CHECK_THROWS_WITH_AS(parse_tournament_config("{\"ladder\": {\"sprt\": \"elo1\"}}", "t.json"),
                         "t.json:1: 'ladder.sprt' wants KEY=VALUE words (elo0, elo1, alpha, beta, model), not 'elo1'",
                         arb::UserError);
    CHECK_THROWS_WITH_AS(parse_tournament_config("{\"ladder\": {\"sprt\": 5}}", "t.json"),
                         "t.json:1: 'ladder.sprt' must be a string like \"elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized\"",
                         arb::UserError);
}
