// Whole matches with real bot processes (the sample players), through the match runner and the
// arbiter's command line: logs, faults of real processes, determinism.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "arbiter/match/match_runner.hpp"
#include "rules/samurai/samurai_game.hpp"
#include "rules/samurai/samurai_referee.hpp"
#include "rules/samurai/samurai_verify.hpp"
#include "tests/test_scratch.hpp"

namespace arb::samurai {
namespace {

const std::filesystem::path kData = std::filesystem::path(ARBITER_SHARED_DIR) / "data" / "samurai";
const std::filesystem::path kBots = std::filesystem::path(ARBITER_BINARY_DIR) / "bots" / "samurai";

BotSpec bot(const std::string& name, const std::string& command) {
    return parse_bot_spec("name=" + name + " cmd=" + quote_word(command));
}

BotSpec greedy() { return bot("greedy", (kBots / "greedy_digger").string()); }
BotSpec random_bot(const std::string& name, const std::string& flags) {
    return bot(name, (kBots / "random_player").string() + " " + flags);
}

struct Match {
    std::filesystem::path dir;
    MatchRequest request;

    Match(const std::string& tag, const std::string& field, std::vector<BotSpec> bots,
          std::map<std::string, std::string> extra = {}) {
        dir = arb::testing::fresh_scratch("samurai-proc-" + tag);
        extra["field"] = (kData / "fields" / (field + ".dighere")).string();
        request.game = "samurai";
        request.bots = std::move(bots);
        request.options = GameOptions(describe_game().options, extra);
        request.replay_path = dir / "match.dighere";
    }
    ~Match() { std::filesystem::remove_all(dir); }
    MatchRecord run() const { return run_match(describe_game(), request); }
    GameLog log(int game) const { return read_game_log(game_log_path(request.replay_path, game)); }
};

std::pair<int, std::string> run_command(const std::string& command) {
    FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::string out;
    char buffer[4096];
    while (const std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
    const int status = ::pclose(pipe);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

}  // namespace

TEST_CASE("samurai processes: greedy digger against random, both games logged and verified") {
    Match m("greedy-random", "sample", {greedy(), random_bot("random", "--seed 3")});
    const MatchRecord record = m.run();
    REQUIRE(record.participants.size() == 2);
    const GameLog g1 = m.log(0), g2 = m.log(1);
    for (const GameLog* g : {&g1, &g2}) {
        const VerifyOutcome v = verify_game_log(*g);
        CHECK_MESSAGE(v.ok, v.first_difference);
    }
    CHECK(record.participants[0].score == g1.plays.back().scores[0] + g2.plays.back().scores[1]);
    CHECK(record.participants[1].score == g1.plays.back().scores[1] + g2.plays.back().scores[0]);
    CHECK(record.participants[0].score > record.participants[1].score);  // greedy beats random here
    CHECK(record.participants[0].rank == 1);
    CHECK(record.participants[0].status == SeatStatus::ok);
    CHECK(record.participants[1].status == SeatStatus::ok);
    CHECK(record.turns == static_cast<int>(g1.plays.size() + g2.plays.size()));
    CHECK(record.pairs.size() == 1);
    // Fast players use a sliver of their budget: no 10 ms polling floor per answer.
    CHECK(g1.plays.back().time_left[0] > 60000 - 1000);
}

TEST_CASE("samurai processes: the same players on the same field give byte-identical logs") {
    Match a("det-a", "kk-field-11", {random_bot("r5", "--seed 5"), greedy()});
    Match b("det-b", "kk-field-11", {random_bot("r5", "--seed 5"), greedy()});
    const MatchRecord ra = a.run(), rb = b.run();
    CHECK(ra.participants[0].score == rb.participants[0].score);
    CHECK(ra.participants[1].score == rb.participants[1].score);
    // Logs differ only in timeLeft (wall clock); compare with it zeroed.
    for (int g = 0; g < 2; ++g) {
        GameLog la = a.log(g), lb = b.log(g);
        for (auto* log : {&la, &lb}) {
            for (auto& p : log->plays) p.time_left = {0, 0, 0, 0};
        }
        CHECK(game_log_json(la) == game_log_json(lb));
    }
}

TEST_CASE("samurai processes: a player that exits stays for the rest of each game") {
    Match m("crash", "kk-field-11", {random_bot("crasher", "--crash-at 3"), greedy()});
    const MatchRecord record = m.run();
    CHECK(record.participants[0].status == SeatStatus::crashed);
    CHECK(record.participants[0].detail.rfind("game 1 samurai: crashed at step 3; game 1 dog: crashed at step 3", 0) == 0);
    CHECK(record.participants[1].status == SeatStatus::ok);
    const GameLog g1 = m.log(0);
    for (std::size_t k = 3; k < g1.plays.size(); ++k) {
        CHECK(g1.plays[k].plans[0] == -1);
        CHECK(g1.plays[k].plans[2] == -1);
        CHECK(g1.plays[k].time_left[0] == 0);
    }
    CHECK(verify_game_log(g1).ok);
}

TEST_CASE("samurai processes: a team that dies says how, with the stderr of each of its seats") {
    Match m("stderr", "kk-field-11", {bot("dies", "sh -c 'echo boom >&2; exit 7'"), greedy()});
    m.request.log_dir = m.dir / "logs";
    std::filesystem::create_directories(m.request.log_dir);
    const MatchRecord record = m.run();
    const ParticipantResult& p = record.participants[0];
    CHECK(p.status == SeatStatus::crashed);
    CHECK(p.exit_code == 7);
    CHECK(p.limit.empty());
    // One line per seat of the team (both agents in both games), each naming its seat.
    CHECK(p.stderr_tail == "[g1-agent0-samurai] boom\n[g1-agent2-dog] boom\n[g2-agent1-samurai] boom\n[g2-agent3-dog] boom");
    CHECK(record.participants[1].stderr_tail.empty());  // a seat that did not fail keeps none
}

TEST_CASE("samurai processes: a player killed for a line past the limit is recorded killed with the reason") {
    // Two MB without a newline: past the 1 MiB line limit.
    Match m("flood", "kk-field-11", {bot("flood", "sh -c 'head -c 2000000 /dev/zero | tr \\\\0 x; sleep 5'"), greedy()});
    const MatchRecord record = m.run();
    CHECK(record.participants[0].status == SeatStatus::killed);
    CHECK(record.participants[0].detail.rfind("game 1 samurai: killed at step 0 (line longer than 1048576 bytes)", 0) == 0);
    CHECK(record.participants[1].status == SeatStatus::ok);
}

TEST_CASE("samurai processes: a player that stops answering runs out of think time and stays") {
    Match m("hang", "kk-field-11", {greedy(), random_bot("sleeper", "--hang-at 2")}, {{"think-time", "300"}});
    const auto start = std::chrono::steady_clock::now();
    const MatchRecord record = m.run();
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
    CHECK(record.participants[1].status == SeatStatus::timeout);
    CHECK(record.participants[1].detail.find("game 1 samurai: timeout at step 2") != std::string::npos);
    const GameLog g1 = m.log(0);
    REQUIRE(g1.plays.size() > 2);
    for (std::size_t k = 2; k < g1.plays.size(); ++k) CHECK(g1.plays[k].actions[1] == -1);
    CHECK(g1.plays[1].time_left[1] > 0);
    CHECK(g1.plays[2].time_left[1] == 0);
}

TEST_CASE("samurai processes: a non-integer answer is an invalid plan, the player plays on") {
    Match m("garbage", "kk-field-11", {random_bot("babbler", "--garbage-at 1"), greedy()});
    const MatchRecord record = m.run();
    CHECK(record.participants[0].status == SeatStatus::ok);
    CHECK(record.participants[0].detail == "4 unparsable replies (played as -1)");  // 2 agents x 2 games
    const GameLog g1 = m.log(0);
    CHECK(g1.plays[1].plans[0] == -1);
    CHECK(g1.plays[1].plans[2] == -1);
}

TEST_CASE("samurai processes: the Python player plays a match") {
    Match m("python", "mm11", {bot("python", "python3 " + (kBots / "python_player.py").string()), greedy()});
    const MatchRecord record = m.run();
    CHECK(record.participants[0].status == SeatStatus::ok);
    CHECK(record.participants[0].score > 0);
    CHECK(verify_game_log(m.log(1)).ok);
}

TEST_CASE("samurai processes: arbiter verify samurai prints OK or the first difference") {
    const std::string arbiter = (std::filesystem::path(ARBITER_BINARY_DIR) / "bin" / "arbiter").string();
    auto [rc, out] = run_command(arbiter + " verify samurai " + (kData / "logs" / "sample_simple_vs_simple.dighere").string());
    CHECK(rc == 0);
    CHECK(out == "OK 100\n");
    std::tie(rc, out) = run_command(arbiter + " verify samurai " + (kData / "fields" / "tt-maze2.dighere").string());
    CHECK(rc == 1);
    CHECK(out.rfind("DIFF step ", 0) == 0);
    CHECK(out.find("'scores'") != std::string::npos);
}

}  // namespace arb::samurai
