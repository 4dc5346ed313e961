// Level B (ants.md section 11): the text every bot receives. The io fixture holds, per bot, the
// exact input the original engine sent (0.botN.input), the orders it accepted (0.botN.output)
// and the rejected ones with reasons (0.botN.error). We drive our referee through a
// ScriptedTable whose bots answer with those orders, feed the recorded food, and compare.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>

#include "core/table/scripted_table.hpp"
#include "core/bot_spec.hpp"
#include "rules/ants/ants_game.hpp"
#include "rules/ants/ants_protocol.hpp"
#include "rules/ants/ants_referee.hpp"
#include "rules/ants/ants_replay.hpp"
#include "rules/seat_driver.hpp"
#include "tests/ants/ants_test_support.hpp"
#include "tests/test_scratch.hpp"

namespace {

using namespace arb::ants::test;

const std::filesystem::path kFixture =
    std::filesystem::path(ARBITER_SHARED_DIR) / "data/ants/replays/io_fixture_random_walk_04p_01";

// "# turn N" headers followed by the lines the bot sent that turn; rejected ones carry the
// engine's verdict as " # reason", which we strip to get back what the bot sent.
std::map<int, std::vector<std::string>> orders_by_turn(const std::string& output) {
    std::map<int, std::vector<std::string>> out;
    int turn = -1;
    for (const auto& line : split_lines(output)) {
        if (line.rfind("# turn ", 0) == 0) {
            turn = std::stoi(line.substr(7));
            out[turn];
        } else if (turn >= 0 && !line.empty()) {
            out[turn].push_back(line.substr(0, line.find(" # ")));
        }
    }
    return out;
}

struct FixtureRun {
    std::vector<std::string> received;  // per bot, everything the referee sent
    std::vector<std::string> notes;     // the referee's transcript notes
    std::string stream;                 // the stream log (playgame -S)
    arb::ants::AntsMatchOutcome outcome;
};

// mode "recorded": our engine with the fixture's recorded food; mode "seeded": the game's
// descriptor as `arbiter play ants --map random_walk_04p_01.map --seed 42` runs it.
FixtureRun run_fixture(bool seeded = false) {
    const auto game = arb::ants::load_recorded_game(kFixture / "0.replay");
    const int players = game.players;
    std::vector<std::map<int, std::vector<std::string>>> orders(players);
    for (int p = 0; p < players; ++p) {
        orders[p] = orders_by_turn(read_file(kFixture / ("0.bot" + std::to_string(p) + ".output")));
    }
    FixtureRun run;
    run.received.resize(players);
    std::vector<arb::ScriptedTable::Seat> seats;
    for (int p = 0; p < players; ++p) {
        arb::ScriptedTable::Seat seat;
        seat.info = {p, "bot" + std::to_string(p), "p" + std::to_string(p)};
        seat.bot = [&run, &orders, p](std::string_view request) {
            run.received[p] += std::string(request);
            if (request.rfind("turn ", 0) != 0) return arb::ScriptedAnswer::text("");
            const int turn = std::stoi(std::string(request.substr(5, request.find('\n') - 5)));
            std::string answer;
            if (auto it = orders[p].find(turn); it != orders[p].end())
                for (const auto& line : it->second) answer += line + "\n";
            return arb::ScriptedAnswer::text(answer + "go\n");
        };
        seats.push_back(std::move(seat));
    }
    arb::ScriptedTable table(std::move(seats));
    if (seeded) {
        const auto descriptor = arb::ants::describe_game();
        arb::MatchRequest request;
        request.game = "ants";
        for (int p = 0; p < players; ++p) request.bots.push_back(arb::parse_bot_spec("name=bot" + std::to_string(p) + " cmd=true"));
        request.seed = 42;
        const auto map = std::filesystem::path(ARBITER_SHARED_DIR) / "data/ants/maps/random_walk_04p_01.map";
        const auto stream_path = arb::testing::scratch_root() / "ants-level-c-fixture.stream";
        request.options = arb::GameOptions(descriptor.options, {{"map", map.string()}, {"stream", stream_path.string()}});
        request.replay_path = arb::testing::scratch_root() / "ants-level-c-fixture.json";
        (void)descriptor.referee(request, table);
        run.outcome.replay = nlohmann::json::parse(read_file(request.replay_path));
        run.stream = read_file(stream_path);
        std::filesystem::remove(request.replay_path);
        std::filesystem::remove(stream_path);
    } else {
        arb::ants::AntsEngine engine(game.map, game.params, arb::ants::recorded_food(game),
                                     arb::ants::recorded_spawn_key(game));
        arb::ants::AntsRefereeSettings settings;
        settings.stream = [&run](std::string_view text) { run.stream += text; };
        run.outcome = arb::ants::run_ants_match(engine, table, settings);
    }
    for (const auto& line : table.transcript())
        if (line.rfind("# ", 0) == 0) run.notes.push_back(line.substr(2));
    return run;
}

}  // namespace

TEST_CASE("ants protocol: a go line in any case, blanks around it, ends a reply, and the lines before it are orders") {
    const arb::ReplyFramer framer = arb::ants::go_framer();
    for (const char* line : {"o 1 2 N", "gone", "g o", "", "go go"}) CHECK(framer(line) == arb::Frame::keep);
    for (const char* go : {"go", "GO", "gO", " go\t"}) CHECK(framer(go) == arb::Frame::end_skip);
    arb::Reply reply;
    reply.lines = {"o 1 2 N", "junk", ""};
    REQUIRE(arb::reply_lines(reply));  // the seat driver's reader, which the Ants referee uses
    CHECK(*arb::reply_lines(reply) == reply.lines);
}

TEST_CASE("level B: every bot of the io fixture receives the original text line for line") {
    const FixtureRun run = run_fixture();
    for (int p = 0; p < static_cast<int>(run.received.size()); ++p) {
        const auto expected = read_file(kFixture / ("0.bot" + std::to_string(p) + ".input"));
        CHECK_MESSAGE(first_line_difference(expected, run.received[p]) == "", "bot " << p);
    }
    CHECK(run.outcome.game_length == 725);
    CHECK(run.outcome.status == std::vector<std::string>{"survived", "eliminated", "eliminated", "eliminated"});
    CHECK(run.outcome.playerturns == std::vector<int>{725, 101, 216, 725});
}

TEST_CASE("level B: the rejected order lines of the io fixture get the original verdicts") {
    const FixtureRun run = run_fixture();
    // The referee notes "turn %4d bot %d invalid actions:" blocks exactly as the error logs.
    for (int p = 0; p < static_cast<int>(run.received.size()); ++p) {
        const auto expected = read_file(kFixture / ("0.bot" + std::to_string(p) + ".error"));
        std::string got;
        const std::string tag = " bot " + std::to_string(p) + " ";
        for (const auto& note : run.notes)
            if (note.find(tag) != std::string::npos && note.find(" actions:") != std::string::npos) got += note + "\n";
        CHECK_MESSAGE(got == expected, "bot " << p);
    }
}

TEST_CASE("level B: our replay of the io fixture game equals the original replay's game data") {
    const FixtureRun run = run_fixture();
    const auto original = arb::ants::load_recorded_game(kFixture / "0.replay");
    for (const char* key : {"ants", "food", "hills", "scores", "hive_history", "bonus", "cutoff", "winning_turn",
                            "ranking_turn", "players", "turns", "viewradius2", "attackradius2", "spawnradius2"})
        CHECK_MESSAGE(run.outcome.replay["replaydata"][key] == original.replaydata[key], key);
    for (const char* key : {"score", "rank", "status", "playerturns", "game_length", "challenge", "replayformat"})
        CHECK_MESSAGE(run.outcome.replay[key] == original.meta[key], key);
    // The final-state map rendering, including the original's 'I' for empty hills.
    CHECK(run.outcome.replay["replaydata"]["map"] == original.replaydata["map"]);
}

TEST_CASE("level C: the arbiter's seed 42 game sends the fixture bots the original text and replays the same game") {
    // No recorded food: the food, the food parameters and the spawns come from our CPython-
    // compatible generator, seeded with 42 as the original engine was.
    const FixtureRun run = run_fixture(true);
    for (int p = 0; p < static_cast<int>(run.received.size()); ++p) {
        const auto expected = read_file(kFixture / ("0.bot" + std::to_string(p) + ".input"));
        CHECK_MESSAGE(first_line_difference(expected, run.received[p]) == "", "bot " << p);
    }
    const auto original = arb::ants::load_recorded_game(kFixture / "0.replay");
    CHECK(run.outcome.replay["replaydata"] == original.replaydata);
    for (const char* key : {"score", "rank", "status", "playerturns", "game_length"})
        CHECK_MESSAGE(run.outcome.replay[key] == original.meta[key], key);
}

// ants.md 8.3: the stream log the original wrote for the fixture game (playgame -S), which the
// original's live Java viewer reads. Compared byte for byte, both with the recorded food and
// when the seed alone makes the game.
TEST_CASE("level B: the stream log of the io fixture game equals the original's byte for byte") {
    const std::string expected = read_file(kFixture / "0.stream");
    for (const bool seeded : {false, true}) {
        const FixtureRun run = run_fixture(seeded);
        INFO((seeded ? "seeded: " : "recorded food: ") << first_line_difference(expected, run.stream));
        CHECK(run.stream == expected);
    }
}
