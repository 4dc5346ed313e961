// The official manager's logs (../shared/data/samurai/logs) replayed through our engine, the
// official field files, and the log writer against the official bytes.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/user_error.hpp"
#include "rules/samurai/samurai_protocol.hpp"
#include "rules/samurai/samurai_replay.hpp"
#include "rules/samurai/samurai_verify.hpp"

namespace arb::samurai {
namespace {

const std::filesystem::path kData = std::filesystem::path(ARBITER_SHARED_DIR) / "data" / "samurai";

std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::filesystem::path> files_in(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> out;
    for (const auto& e : std::filesystem::directory_iterator(dir)) out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

// Replays a log's plans through the engine and rebuilds the log, copying only timeLeft.
GameLog rebuild(const GameLog& official) {
    GameLog ours;
    ours.field = official.field;
    GameState state = initial_state(official.field);
    for (const auto& play : official.plays) {
        ours.plays.push_back(to_logged_play(play_step(official.field, state, play.plans), play.time_left));
    }
    return ours;
}

}  // namespace

TEST_CASE("samurai logs: every official log replays with the same actions, agents and scores") {
    const auto logs = files_in(kData / "logs");
    REQUIRE(logs.size() >= 3);
    for (const auto& path : logs) {
        CAPTURE(path.filename().string());
        const GameLog log = read_game_log(path);
        const VerifyOutcome outcome = verify_game_log(log);
        CHECK_MESSAGE(outcome.ok, outcome.first_difference);
        CHECK(outcome.steps == static_cast<int>(log.plays.size()));
    }
    CHECK(verify_game_log(read_game_log(kData / "logs" / "mm11_simple_vs_simple.dighere")).steps == 39);
    CHECK(read_game_log(kData / "logs" / "sample_simple_vs_simple.dighere").plays.back().scores ==
          std::array<int, 2>{30, 14});
}

TEST_CASE("samurai logs: a log rebuilt by our engine and writer is byte-identical to the official one") {
    // The official logs hold only valid plans, so recording invalid ones as -1 changes nothing.
    for (const auto& path : files_in(kData / "logs")) {
        CAPTURE(path.filename().string());
        CHECK(game_log_json(rebuild(read_game_log(path))) == slurp(path));
    }
}

TEST_CASE("samurai logs: the engine's state text matches the official dump and the rules.html example") {
    const GameLog sample = read_game_log(kData / "fields" / "sample.dighere");
    GameState state = initial_state(sample.field);
    // samurai.md section 3: dump_simple_0, samurai 0 at step 0.
    CHECK(state_message(sample.field, state, 0, 60000) ==
          "0\n10\n0\n100\n8 5 1 7 3 7 0 8 1 6 0 5 2 1 8 3 5\n1 6 6 6\n0\n9 5 2 3 4 2 0 5\n"
          "-1 -1 -1 -1\n-1 -1 -1 -1\n0 0\n50\n60000\n");
    // rules.html "Game State Information": dog 3 after the sample game's first step. The example
    // was drawn on the sample field before its last two holes were added; every other line agrees.
    play_step(sample.field, state, {0, 0, 7, 7});
    CHECK(state_message(sample.field, state, 3, 299941) ==
          "3\n10\n1\n100\n8 5 1 7 3 7 0 8 1 6 0 5 2 1 8 3 5\n1 6 6 6\n1 2 7 8\n9 6 2 4 5 3 1 6\n"
          "0 0 7 7\n0 0 7 7\n0 0\n50\n299941\n");
}

TEST_CASE("samurai logs: the known gold before step 3 of the sample game is the official summary's") {
    // samurai.md section 3, the manager's -S summary for "Step: 4" (1-based, state before the
    // step): "Golds known: 6@(6,6) 8@(2,7)"; dog 3 barked on (2,7) at step 1; samurai 1 digs it.
    const GameLog log = read_game_log(kData / "logs" / "sample_simple_vs_simple.dighere");
    GameState state = initial_state(log.field);
    for (int k = 0; k < 3; ++k) play_step(log.field, state, log.plays[k].plans);
    CHECK(state.known == std::vector<Gold>{{{6, 6}, 6}, {{2, 7}, 8}});
    CHECK(state.hidden.size() == 6);
    play_step(log.field, state, log.plays[3].plans);
    CHECK(state.known == std::vector<Gold>{{{6, 6}, 6}});
    CHECK(state.scores == std::array<int, 2>{0, 8});
    CHECK(state.holes.back() == Cell{2, 7});
}

TEST_CASE("samurai logs: a changed log is rejected at the step and field that differ") {
    const GameLog original = read_game_log(kData / "logs" / "sample_simple_vs_simple.dighere");
    SUBCASE("action") {
        GameLog log = original;
        log.plays[3].actions[0] = 10;
        const auto v = verify_game_log(log);
        CHECK_FALSE(v.ok);
        CHECK(v.first_difference.rfind("step 3: field 'actions'", 0) == 0);
        CHECK(v.steps == 3);
    }
    SUBCASE("direction") {
        GameLog log = original;
        log.plays[17].agents[2].direction = (log.plays[17].agents[2].direction + 1) % 8;
        CHECK(verify_game_log(log).first_difference.rfind("step 17: field 'agents'", 0) == 0);
    }
    SUBCASE("score") {
        GameLog log = original;
        log.plays[50].scores[1] += 2;
        CHECK(verify_game_log(log).first_difference.rfind("step 50: field 'scores'", 0) == 0);
    }
    SUBCASE("plan") {
        GameLog log = original;
        log.plays[0].plans[0] = -1;  // samurai 0 no longer makes its first move
        const auto v = verify_game_log(log);
        CHECK_FALSE(v.ok);
        CHECK(v.first_difference == "step 0: field 'actions' differs: log [0,0,7,7], engine [-1,0,7,7]");
    }
    SUBCASE("truncated") {
        GameLog log = original;
        log.plays.resize(60);
        CHECK(verify_game_log(log).first_difference.rfind("step 60: the log ends but the game goes on", 0) == 0);
    }
    SUBCASE("too long") {
        GameLog log = read_game_log(kData / "logs" / "mm11_simple_vs_simple.dighere");
        LoggedPlay extra = log.plays.back();
        extra.step += 1;
        log.plays.push_back(extra);
        CHECK(verify_game_log(log).first_difference.rfind("step 39: the log goes on but the game is over", 0) == 0);
    }
}

TEST_CASE("samurai logs: every official field loads, and tt-maze2's stale plays are rejected") {
    const auto fields = files_in(kData / "fields");
    CHECK(fields.size() == 63);
    for (const auto& path : fields) {
        CAPTURE(path.filename().string());
        const GameLog log = read_game_log(path);
        CHECK(log.field.size >= 6);
        CHECK(total_gold(log.field) > 0);
    }
    // samurai.md 1 (preliminary-fields): hidden gold re-randomised after the plays were recorded.
    const auto v = verify_game_log(read_game_log(kData / "fields" / "tt-maze2.dighere"));
    CHECK_FALSE(v.ok);
    CHECK(v.first_difference.find("'scores'") != std::string::npos);
}

TEST_CASE("samurai logs: malformed files are user errors naming the key") {
    const std::string good = slurp(kData / "fields" / "sample.dighere");
    CHECK_NOTHROW(parse_game_log(good, "sample"));
    auto message_of = [](const std::string& text) {
        try {
            parse_game_log(text, "f.dighere");
        } catch (const UserError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK(message_of("{not json").find("not valid JSON") != std::string::npos);
    std::string no_plays = good.substr(0, good.rfind(",\"plays\"")) + "}";
    CHECK(message_of(no_plays) == "f.dighere: 'plays' is missing");
    std::string no_direction = good;
    no_direction.replace(no_direction.find(",\"direction\":4"), 14, "");
    CHECK(message_of(no_direction) == "f.dighere: 'field.agents[0].direction' is missing");
    std::string off_field = good;
    off_field.replace(off_field.find("\"x\":9,\"y\":5"), 11, "\"x\":10,\"y\":5");
    CHECK(message_of(off_field) == "f.dighere: 'field.agents[0]' is outside the field");
    // Numbers are truncated like the manager's double-to-int conversion.
    std::string fractional = good;
    fractional.replace(fractional.find("\"size\":10"), 9, "\"size\":10.7");
    CHECK(parse_game_log(fractional, "f").field.size == 10);
}

}  // namespace arb::samurai
