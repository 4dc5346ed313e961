// smart-dog rule cases on small boards (smartdog.md 1-8), each checking one rule of the notes,
// the reading of a seat's join and turn replies, and the golden transcripts of the original
// server replayed line for line.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#include "core/user_error.hpp"
#include "rules/smartdog/smartdog_engine.hpp"
#include "rules/smartdog/smartdog_map.hpp"
#include "rules/smartdog/smartdog_protocol.hpp"
#include "rules/smartdog/smartdog_session.hpp"
#include "rules/smartdog/smartdog_verify.hpp"

namespace arb::smartdog {
namespace {

Engine board(const std::string& options, const std::string& rows, int players = 1) {
    return Engine(parse_tile(options + "\n" + rows, "test"), players);
}

std::string dog_at(const Engine& e, int x, int y) {
    for (const auto& d : e.dogs()) {
        if (d.x == x && d.y == y) return std::to_string(d.id);
    }
    FAIL("no dog at " << x << "," << y);
    return "";
}

const Sheep& sheep(const Engine& e, int i) { return e.sheep().at(static_cast<std::size_t>(i)); }

void play_turn(Engine& e) { e.end_turn(), e.begin_turn(); }

bool sees(const std::vector<std::string>& objs, const std::string& what) {
    return std::any_of(objs.begin(), objs.end(), [&](const std::string& o) { return o.find(what) != std::string::npos; });
}

const std::string kQuiet = R"({"dogVisibilityR":4,"dogBarkingR":2,"sheepStandBy":9,"sheepScaryTurns":2,"dogScaryTurns":2,"turnsLimit":50})";

}  // namespace

TEST_CASE("smartdog rules: object ids count landscape cells, shared kinds and pens first") {
    Engine e = board(kQuiet, "*...@\n.....", 2);
    // 4 + players, then one id per cell and one per object, tile by tile.
    CHECK(e.dogs()[0].id == 4 + 2 + 1 + 4);  // after the sheep and four cells
    CHECK(e.dogs()[1].id == e.dogs()[0].id + 10 + 2);
}

TEST_CASE("smartdog rules: the board is a torus for dog moves") {
    Engine e = board(kQuiet, "@....\n.....\n.....");
    e.begin_turn();
    const std::string id = dog_at(e, 0, 0);
    CHECK(e.move(1, id, "left") == "");
    CHECK(e.dogs()[0].x == 4);
    play_turn(e);
    CHECK(e.move(1, id, "up") == "");
    CHECK(e.dogs()[0].y == 2);
}

TEST_CASE("smartdog rules: a failed move is not used up, a second move is refused") {
    Engine e = board(kQuiet, ".#...\n^@*..\n.-...");
    e.begin_turn();
    const std::string id = dog_at(e, 1, 1);
    CHECK(e.move(1, id, "up") == id + " Cannot move to 1, 0 - there is a non traversable landscape or another object");
    CHECK(e.move(1, id, "left") == id + " Cannot move to 0, 1 - there is a non traversable landscape or another object");
    CHECK(e.move(1, id, "right") == id + " Cannot move to 2, 1 - there is a non traversable landscape or another object");
    CHECK(e.move(1, id, "sideways") ==
          id + " Unexpected direction 'sideways', one of the following expected: up,down,left,right");
    CHECK(e.move(1, id, "down") == "");  // onto a pen cell
    CHECK(e.move(1, id, "down") == id + " Dog already moved this turn");
    CHECK(e.move(1, "12345", "up") == "12345 Unknown id");
    CHECK(e.command(1, {id, "dig"}) == "Unknown command - dig, only the following are allowed: move,bark");
}

TEST_CASE("smartdog rules: bark radius is Euclidean and inclusive, a sheep runs away along the longer axis") {
    Engine e = board(kQuiet, ".......\n.......\n..*.*..\n...*...\n..@...*\n.......\n.......");
    e.begin_turn();
    const std::string id = dog_at(e, 2, 4);
    CHECK(e.bark(1, id) == "");
    CHECK(e.bark(1, id) == id + " Dog with already barked this turn");
    // sheep order: (2,2) (4,2) (3,3) (6,4)
    CHECK(sheep(e, 0).scared);                // distance 2
    CHECK(sheep(e, 0).dir == Dir::up);
    CHECK_FALSE(sheep(e, 1).scared);          // dx 2, dy 2: 8 > 4
    CHECK(sheep(e, 2).scared);                // dx 1, dy 1: a tie goes vertical
    CHECK(sheep(e, 2).dir == Dir::up);
    CHECK_FALSE(sheep(e, 3).scared);          // dx 4
    e.end_turn();
    CHECK(sheep(e, 0).y == 1);
    CHECK(sheep(e, 2).y == 2);
}

TEST_CASE("smartdog rules: a scared sheep runs sheepScaryTurns times, then keeps its heading") {
    Engine e = board(kQuiet, ".....\n.....\n..*..\n.....\n..@..\n.....\n.....");
    e.begin_turn();
    CHECK(e.bark(1, dog_at(e, 2, 4)) == "");
    play_turn(e);
    CHECK(sheep(e, 0).y == 1);
    CHECK(sheep(e, 0).scared);
    play_turn(e);
    CHECK(sheep(e, 0).y == 0);
    CHECK_FALSE(sheep(e, 0).scared);
    CHECK(sheep(e, 0).dir == Dir::up);
    e.end_turn();
    CHECK(sheep(e, 0).y == 0);  // calm and not due to walk
}

TEST_CASE("smartdog rules: a calm sheep walks every sheepStandBy+1 turns, turning right, left, back") {
    Engine e = board(R"({"sheepStandBy":1,"dogBarkingR":1,"dogVisibilityR":2})", ".....\n..*..\n..#..\n.....\n@....");
    e.begin_turn();
    CHECK(e.snapshot(1).size() == 1);  // its own dog only: the sheep is out of sight
    play_turn(e);  // turn 0: standing by
    CHECK(sheep(e, 0).x == 2);
    CHECK(sheep(e, 0).y == 1);
    e.end_turn();  // turn 1: due; down is a wall, so right (relative to heading down: x-1... is left)
    CHECK(sheep(e, 0).x == 3);
    CHECK(sheep(e, 0).dir == Dir::right);
}

TEST_CASE("smartdog rules: a calm sheep on any pen never walks, a scared one does") {
    Engine e = board(R"({"sheepStandBy":0,"dogBarkingR":1,"dogVisibilityR":2,"sheepScaryTurns":1})", ".o.\n.@.\n...");
    e.begin_turn();
    play_turn(e);
    CHECK(sheep(e, 0).y == 0);
    CHECK(e.score(1) == 0);  // C == I
    CHECK(e.bark(1, dog_at(e, 1, 1)) == "");
    e.end_turn();
    CHECK(sheep(e, 0).y == 2);  // ran up off the board and came in at the bottom
    CHECK(e.score(1) == -10);   // C < I: -10 (I - C) / I
    CHECK(e.winner() == 0);     // nobody above -10
}

TEST_CASE("smartdog rules: a column pushed from behind moves as a block (nudging)") {
    Engine e = board(kQuiet, "..@..\n..*..\n..*..\n..*..\n.....\n.....\n.....");
    e.begin_turn();
    const std::string id = dog_at(e, 2, 0);
    // radius 2 reaches the first two; the third is nudged and catches fear on the spot
    CHECK(e.bark(1, id) == "");
    CHECK_FALSE(sheep(e, 2).scared);
    e.end_turn();
    CHECK(sheep(e, 0).y == 2);
    CHECK(sheep(e, 1).y == 3);
    CHECK(sheep(e, 2).y == 4);
    CHECK(sheep(e, 2).scared);
    CHECK(sheep(e, 2).fear == 2);  // infection during a nudge gives the full count
}

TEST_CASE("smartdog rules: fear spreads to a neighbour in phase C, with the chain rule") {
    Engine e = board(R"({"sheepStandBy":9,"dogBarkingR":1,"dogVisibilityR":2,"sheepScaryTurns":1})",
                     "......\n@*.*..\n......");
    e.begin_turn();
    CHECK(e.bark(1, dog_at(e, 0, 1)) == "");
    e.end_turn();
    CHECK(sheep(e, 0).x == 2);
    CHECK(sheep(e, 1).x == 3);  // calm, not due: stays
    CHECK(sheep(e, 1).scared);
    CHECK(sheep(e, 1).dir == Dir::right);
    CHECK(sheep(e, 1).chain == std::vector<int>{0});
    e.begin_turn();
    CHECK_FALSE(sheep(e, 1).scared);  // sheepScaryTurns 1: an infected sheep never runs
    CHECK_FALSE(sheep(e, 0).scared);
}

TEST_CASE("smartdog rules: an enemy bark from outside our territory panics a dog for dogScaryTurns turns") {
    Engine e = board(kQuiet, "@..@.@\n.....@", 2);
    e.begin_turn();
    const std::string b = dog_at(e, 5, 0), c = dog_at(e, 6, 0), g = dog_at(e, 3, 0);
    CHECK(e.bark(2, c) == "");
    play_turn(e);
    CHECK(e.move(1, b, "left") == b + " Cannot move - scared :(");
    CHECK(e.bark(1, b) == b + " Cannot bark because fighted by another dog");
    CHECK(sees(e.snapshot(1), "\"id\":" + b + ",\"type\":\"Dog\",\"x\":5,\"y\":0,\"owner\":1,\"action\":\"panic\""));
    CHECK(e.move(1, g, "left") == "");  // out of range: free
    play_turn(e);
    CHECK(e.move(1, b, "left") == b + " Cannot move - scared :(");  // turn N+2 of N+D
    play_turn(e);
    CHECK(e.move(1, b, "left") == "");
}

TEST_CASE("smartdog rules: an ally bark cancels fear, but an enemy bark in the same turn wins") {
    for (const bool enemy_too : {false, true}) {
        Engine e = board(kQuiet, "@..@.@\n.....@", 2);
        e.begin_turn();
        const std::string b = dog_at(e, 5, 0), c = dog_at(e, 6, 0), g = dog_at(e, 3, 0);
        CHECK(e.bark(2, c) == "");
        play_turn(e);
        CHECK(e.bark(1, g) == "");
        if (enemy_too) CHECK(e.bark(2, c) == "");
        play_turn(e);
        CHECK((e.move(1, b, "left") == "") != enemy_too);
    }
}

TEST_CASE("smartdog rules: an enemy bark from inside our territory only silences (indignant)") {
    Engine e = board(R"({"dogVisibilityR":4,"dogBarkingR":4,"sheepStandBy":9,"dogScaryTurns":2})", "@.....\n......", 2);
    e.begin_turn();
    const std::string mine = dog_at(e, 0, 0), theirs = dog_at(e, 6, 0);
    CHECK(e.move(2, theirs, "left") == "");
    play_turn(e);
    CHECK(e.move(2, theirs, "left") == "");  // now at (4,0), inside player 1's territory
    CHECK(e.bark(2, theirs) == "");
    play_turn(e);
    CHECK(sees(e.snapshot(1), "\"action\":\"indignant\""));
    // the barker is heard in the next turn: in sight, with its id
    CHECK(sees(e.snapshot(1), ",\"voice\":\"barking\""));
    CHECK(e.bark(1, mine) == mine + " Cannot bark because fighted by another dog");
    CHECK(e.move(1, mine, "down") == "");
}

TEST_CASE("smartdog rules: visibility is Euclidean and inclusive, unseen barkers are anonymous") {
    Engine e = board(R"({"dogVisibilityR":2,"dogBarkingR":1,"sheepStandBy":9})",
                     ".......\n...*...\n.......\n...@.*.\n.......\n....*..\n.......");
    e.begin_turn();
    const auto seen = e.snapshot(1);
    CHECK(sees(seen, "\"x\":3,\"y\":1"));
    CHECK(sees(seen, "\"x\":5,\"y\":3"));
    CHECK_FALSE(sees(seen, "\"x\":4,\"y\":5"));  // offset (1,2): 5 > 4
    Engine two = board(R"({"dogVisibilityR":2,"dogBarkingR":1,"sheepStandBy":9})", "@......\n.......", 2);
    two.begin_turn();
    CHECK(two.bark(2, dog_at(two, 7, 0)) == "");
    play_turn(two);
    CHECK(two.snapshot(1).back() == "\"voice\":\"barking\",\"x\":7,\"y\":0");
}

TEST_CASE("smartdog rules: scores above the initial count are 10 C / M, ties go to the lowest id") {
    Engine e = board(R"({"dogVisibilityR":2,"dogBarkingR":1,"sheepStandBy":9})", "-*@\n...\n...");
    e.begin_turn();
    CHECK(e.bark(1, dog_at(e, 2, 0)) == "");
    e.end_turn();
    CHECK(e.score(1) == 10);
    CHECK(e.winner() == 1);
    Engine tie = board(kQuiet, "-*.\n...", 3);
    CHECK(tie.winner() == 1);
    CHECK(tie.winner({true, false, false}) == 2);
    CHECK(format_score(-6.25) == "-6.25");
    CHECK(format_score(10.0 * 2 / 3) == "6.666666666666667");
}

TEST_CASE("smartdog maps: malformed tiles are one-line errors") {
    CHECK_THROWS_AS(parse_tile("...\n..", "t"), UserError);
    CHECK_THROWS_AS(parse_tile("..x\n...", "t"), UserError);
    CHECK_THROWS_AS(parse_tile(R"({"dogBarkingR":5,"dogVisibilityR":4})" "\n...\n...", "t"), UserError);
    CHECK_THROWS_AS(parse_tile(R"({"nonsense":1})" "\n...\n...", "t"), UserError);
    CHECK_THROWS_AS(parse_tile("{not json\n...\n...", "t"), UserError);
    CHECK_THROWS_AS(parse_tile("", "t"), UserError);
    const Tile quoted = parse_tile(R"({"turnsLimit":"30"})" "\r\n  ...  \r\n\r\n...", "t");
    CHECK(quoted.params.turns_limit == 30);
    CHECK(quoted.height == 2);
}

TEST_CASE("smartdog maps: every bound the seed states is checked, one line naming the map, the line and the rule") {
    const std::string options = R"({"turnsLimit":5})";
    auto refusal = [&](const std::string& rows, int players) -> std::string {
        try {
            check_seed_bounds(parse_tile(options + "\n" + rows, "m.txt"), players);
        } catch (const UserError& e) {
            CHECK(std::string(e.what()).find('\n') == std::string::npos);
            return e.what();
        }
        return "";
    };
    // A tile like the official ones passes for every player count.
    const std::string good = "..---.\n*.---.\n..---.\n...@..";
    for (int players = 1; players <= 4; ++players) CHECK(refusal(good, players) == "");
    // Dogs and sheep: "from 1 per player"; the tile is every player's.
    CHECK(refusal("..---.\n*.---.\n..---.\n......", 2) == "m.txt:2-5: no dog ('@'); the seed: dogs, from 1 per player");
    CHECK(refusal("..---.\n..---.\n..---.\n...@..", 1) ==
          "m.txt:2-5: no sheep ('*' or 'o'); the seed: sheep, from 1 per player");
    CHECK(refusal("..---.\n..-o-.\n..---.\n...@..", 1) == "");  // a sheep standing in a pen counts
    // Pens: there is one, and each is a rectangle (several are allowed).
    CHECK(refusal("......\n*.....\n......\n...@..", 1).starts_with("m.txt:2-5: no pen"));
    CHECK(refusal("--..--\n--*.--\n......\n...@..", 1) == "");
    CHECK(refusal("..---.\n*.--..\n..---.\n...@..", 1) ==
          "m.txt:3: the pen that starts in row 1 at column 3 is not a rectangle (column 5 of this row is not pen); "
          "the seed: a pen is always rectangular");
    CHECK(refusal("..--..\n*.---.\n......\n...@..", 1).starts_with("m.txt:2: the pen that starts in row 1 at column 3"));
    // The board: 2..1000 cells a side, for the layout of the player count.
    CHECK(refusal("-*@", 1) == "m.txt:2: a 1-player board is 1 x 1 tiles of 3 x 1 cells, 3 x 1; the seed allows 2..1000 cells a side");
    CHECK(refusal("-*@", 2).starts_with("m.txt:2: a 2-player board is 2 x 1 tiles"));
    const std::string wide = "-*@" + std::string(297, '.');
    const std::string tall = wide + "\n" + wide;
    CHECK(refusal(tall, 3) == "");
    CHECK(refusal(tall, 4) == "m.txt:2: a 4-player board is 4 x 2 tiles of 300 x 2 cells, 1200 x 4; the seed allows 2..1000 cells a side");
    // The engine never builds a board over the bound, whoever calls it.
    CHECK_THROWS_WITH(Engine(parse_tile(tall, "m.txt"), 4), doctest::Contains("the seed allows 2..1000"));
    // Syntax errors name the line too.
    CHECK_THROWS_WITH(parse_tile("...\n\n..x", "m.txt"), "m.txt:3: unknown map character 'x' (a tile has . # ^ - @ * o)");
    CHECK_THROWS_WITH(parse_tile("{\"dogBarkingR\":5}\n...\n...", "m.txt"),
                      "m.txt:1: dogBarkingR exceeds dogVisibilityR; the seed: dogBarkingR <= dogVisibilityR");
    // The official maps pass for every player count.
    for (const std::string map : {"simple-1", "collector-1", "keeper-1", "capture-the-sheep"}) {
        const Tile tile = read_tile((std::filesystem::path(ARBITER_SHARED_DIR) / "data" / "smartdog" / "maps" / (map + ".txt")).string());
        for (int players = 1; players <= 4; ++players) CHECK_NOTHROW(check_seed_bounds(tile, players));
    }
}

TEST_CASE("smartdog session: wait, start, the turn loop, commands after end, unknown commands") {
    Session s(parse_tile(R"({"turnsLimit":2,"dogVisibilityR":2,"dogBarkingR":1})" "\n@..\n...", "t"), 2);
    s.join(1);
    auto out = s.take();
    REQUIRE(out.size() == 1);
    CHECK(out[0].line == "wait ");
    s.join(2);
    out = s.take();
    CHECK(out[0].line.starts_with("start \"you\":1,\"rows\":2,\"cols\":6,\"players\":2,\"x1\":0,\"x2\":2,"));
    CHECK(out[1].line == "landscape \"......\",\"......\"");
    CHECK(out[4].line == "state  \"turn\":1");
    CHECK(out[5].line.starts_with("obj  \"id\":"));
    s.receive(1, "hello there");
    out = s.take();
    REQUIRE(out.size() == 1);
    CHECK(out[0].line == "error Unknown command: hello(there)");
    s.receive(1, "end");
    s.receive(1, "end");  // a duplicate `end` does not close the turn
    s.receive(1, "do 6 move down");  // after `end`: ignored
    CHECK(s.take().empty());
    CHECK(s.waiting_for(2));
    s.receive(2, "end");
    out = s.take();
    CHECK(out[0].line == "state  \"turn\":2");
    s.eliminate(2);
    s.receive(1, "end");
    out = s.take();
    REQUIRE(out.size() == 1);
    CHECK(out[0].line == "finished \"youWin\":true,\"winner\":1");
    CHECK(s.finished());
}

TEST_CASE("smartdog protocol: the join line and its hub, a turn's lines up to `end`, a flood") {
    Reply join;
    join.lines = {"join someone #north"};
    REQUIRE(read_join(join));
    CHECK(read_join(join)->hub == "north");
    join.lines = {"join  someone  hub "};  // runs of spaces give no empty words
    CHECK(read_join(join)->hub == "hub");
    join.lines = {"join someone"};
    REQUIRE(read_join(join));
    CHECK(read_join(join)->hub.empty());
    for (const char* line : {"join", "join   ", "joinme x", "hello someone", ""}) {
        join.lines = {line};
        CHECK_FALSE(read_join(join));
    }
    ReplyFramer framer = turn_framer();
    CHECK(framer("do 6 move down") == Frame::keep);
    CHECK(framer("end ") == Frame::end_skip);
    framer = turn_framer();
    for (int i = 1; i < kMaxCommandsPerTurn; ++i) REQUIRE(framer("do 6 bark") == Frame::keep);
    CHECK(framer("do 6 bark") == Frame::end_keep);  // the reply ends without its `end`
    Reply turn;
    turn.lines.assign(static_cast<std::size_t>(kMaxCommandsPerTurn - 1), "do 6 bark");
    REQUIRE(read_commands(turn));
    CHECK(*read_commands(turn) == turn.lines);
    turn.lines.push_back("do 6 bark");
    CHECK_FALSE(read_commands(turn));  // a flood
}

TEST_CASE("smartdog rules: a bark re-aims a scared sheep and restarts its fear") {
    Engine e = board(kQuiet, ".......\n....@..\n.......\n.@.*...\n.......\n.......\n.......");
    e.begin_turn();
    CHECK(e.bark(1, dog_at(e, 1, 3)) == "");
    play_turn(e);
    CHECK(sheep(e, 0).x == 4);
    CHECK(sheep(e, 0).fear == 1);
    CHECK(e.bark(1, dog_at(e, 4, 1)) == "");  // straight above now: runs down
    CHECK(sheep(e, 0).dir == Dir::down);
    CHECK(sheep(e, 0).fear == 2);
    play_turn(e);
    CHECK(sheep(e, 0).y == 4);
    CHECK(sheep(e, 0).scared);  // without the second bark it would be calm by now
}

TEST_CASE("smartdog rules: a scared sheep that cannot step stays, keeps its heading and counts down") {
    Engine e = board(kQuiet, ".......\n.......\n...#...\n...*...\n.......\n...@...\n.......");
    e.begin_turn();
    CHECK(e.bark(1, dog_at(e, 3, 5)) == "");
    play_turn(e);
    CHECK(sheep(e, 0).y == 3);
    CHECK(sheep(e, 0).dir == Dir::up);
    CHECK(sheep(e, 0).scared);
    play_turn(e);
    CHECK_FALSE(sheep(e, 0).scared);
    CHECK(sheep(e, 0).dir == Dir::up);
}

TEST_CASE("smartdog rules: two enemy dogs barking at each other in one turn are both scared") {
    Engine e = board(kQuiet, "@..@.@\n.....@", 2);
    e.begin_turn();
    const std::string b = dog_at(e, 5, 0), c = dog_at(e, 6, 0);
    CHECK(e.bark(1, b) == "");
    CHECK(e.bark(2, c) == "");  // its fear starts only at the end of the turn
    play_turn(e);
    CHECK(e.bark(1, b) == b + " Cannot bark because fighted by another dog");
    CHECK(e.bark(2, c) == c + " Cannot bark because fighted by another dog");
}

TEST_CASE("smartdog golden transcripts of the original server replay line for line") {
    const auto dir = std::filesystem::path(ARBITER_SHARED_DIR) / "data" / "smartdog" / "transcripts";
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        CAPTURE(entry.path().string());
        const VerifyOutcome v = verify_transcript(entry.path());
        CHECK_MESSAGE(v.ok, v.first_difference);
        CHECK(v.steps >= 100);
        ++files;
    }
    CHECK(files >= 6);
}

}  // namespace arb::smartdog
