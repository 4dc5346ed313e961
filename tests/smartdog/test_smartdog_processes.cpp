// Whole smart-dog matches over loopback TCP with real bot processes: the sample bots, the
// reproducibility of a 4-player game, and every fault of a player adjudicated in bounded time.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "arbiter/match/match_runner.hpp"
#include "core/confine/sandbox.hpp"
#include "rules/smartdog/smartdog_game.hpp"
#include "rules/smartdog/smartdog_verify.hpp"
#include "tests/test_scratch.hpp"

namespace arb::smartdog {
namespace {

const std::filesystem::path kMaps = std::filesystem::path(ARBITER_SHARED_DIR) / "data" / "smartdog" / "maps";
const std::filesystem::path kBots = std::filesystem::path(ARBITER_BINARY_DIR) / "bots" / "smartdog";
const std::filesystem::path kFaultBot =
    std::filesystem::path(ARBITER_BINARY_DIR) / "bots" / "smartdog-faults" / "smartdog_fault_bot";

BotSpec bot(const std::string& name, const std::string& command) {
    return parse_bot_spec("name=" + name + " cmd=" + quote_word(command));
}
BotSpec herder(const std::string& name = "herder") { return bot(name, (kBots / "herder").string()); }
BotSpec random_dog(const std::string& name = "random") { return bot(name, (kBots / "random_dog").string()); }
BotSpec python_herder() { return bot("py", "python3 " + (kBots / "herder.py").string()); }
BotSpec fault(const std::string& flags) { return bot("faulty", kFaultBot.string() + " " + flags); }

std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

struct Match {
    std::filesystem::path dir;
    MatchRequest request;

    Match(const std::string& tag, const std::string& map, std::vector<BotSpec> bots,
          std::map<std::string, std::string> extra = {}, std::uint64_t seed = 1) {
        dir = arb::testing::fresh_scratch("smartdog-proc-" + tag);
        extra["map"] = (kMaps / (map + ".txt")).string();
        request.game = "smartdog";
        request.seed = seed;
        request.bots = std::move(bots);
        request.options = GameOptions(describe_game().options, extra);
        request.replay_path = dir / "wire.txt";
    }
    ~Match() { std::filesystem::remove_all(dir); }
    MatchRecord run() const { return run_match(describe_game(), request); }
};

}  // namespace

TEST_CASE("smartdog processes: the herder beats a random player on every map, the wire log verifies") {
    double herder_total = 0, random_total = 0;
    for (const std::string map : {"simple-1", "collector-1", "keeper-1", "capture-the-sheep"}) {
        CAPTURE(map);
        Match m("vs-random-" + map, map, {herder(), random_dog()}, {{"turns", "150"}});
        const MatchRecord record = m.run();
        REQUIRE(record.participants.size() == 2);
        CHECK(record.participants[0].status == SeatStatus::ok);
        CHECK(record.participants[1].status == SeatStatus::ok);
        CHECK(record.participants[0].score >= record.participants[1].score);
        herder_total += record.participants[0].score;
        random_total += record.participants[1].score;
        const VerifyOutcome v = verify_transcript(m.request.replay_path);
        CHECK_MESSAGE(v.ok, v.first_difference);
        CHECK(v.steps == record.turns);
    }
    CHECK(herder_total >= random_total + 15);
}

TEST_CASE("smartdog processes: a 4-player TCP game run twice with one seed gives identical transcripts") {
    std::string first;
    for (int run = 0; run < 2; ++run) {
        Match m("repeat-" + std::to_string(run), "simple-1",
                {herder("h1"), random_dog("r2"), python_herder(), herder("h4")}, {{"turns", "80"}}, 7);
        const MatchRecord record = m.run();
        REQUIRE(record.participants.size() == 4);
        for (const auto& p : record.participants) CHECK(p.status == SeatStatus::ok);
        CHECK(record.pairs.size() == 6);
        const std::string wire = slurp(m.request.replay_path);
        CHECK(wire.find("P4 < finished") != std::string::npos);
        if (run == 0) first = wire;
        else CHECK(wire == first);
    }
}

TEST_CASE("smartdog processes: every fault is adjudicated and the others play on, in bounded time") {
    struct Case {
        std::string flags;
        SeatStatus status;
        bool counts;  // false: only warnings/errors, the player stays in
    };
    const std::vector<Case> cases = {
        {"--no-connect", SeatStatus::timeout, true},   {"--no-join", SeatStatus::timeout, true},
        {"--not-join", SeatStatus::illegal, true},     {"--join-twice", SeatStatus::ok, false},
        {"--second-connection", SeatStatus::ok, false},
        {"--junk", SeatStatus::ok, false},             {"--flood", SeatStatus::illegal, true},
        {"--stop-at 5", SeatStatus::timeout, true},    {"--disconnect-at 5", SeatStatus::crashed, true},
    };
    for (const auto& c : cases) {
        CAPTURE(c.flags);
        const auto start = std::chrono::steady_clock::now();
        Match m("fault-" + std::to_string(&c - cases.data()), "simple-1", {herder(), fault(c.flags)},
                {{"turns", "30"}, {"turn-ms", "1000"}});
        m.request.limits.max_line_bytes = 4096;
        const MatchRecord record = m.run();
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        CHECK(seconds < 20);
        REQUIRE(record.participants.size() == 2);
        CHECK(record.turns == 30);  // the herder played the whole game
        CHECK(record.participants[0].status == SeatStatus::ok);
        CHECK(record.participants[1].status == c.status);
        CHECK(record.participants[0].rank == 1);
        if (c.counts) CHECK(record.participants[1].score == -10);
        const std::string wire = slurp(m.request.replay_path);
        if (c.flags == "--join-twice") CHECK(wire.find("P2 < error Already joined") != std::string::npos);
        if (c.flags == "--junk") CHECK(wire.find("P2 < error Unknown command: hello()") != std::string::npos);
        if (c.flags == "--not-join") CHECK(wire.find("P2 < error Expected join <username> [hub]") != std::string::npos);
        const VerifyOutcome v = verify_transcript(m.request.replay_path);
        CHECK_MESSAGE(v.ok, v.first_difference);
        CHECK(v.steps == 30);
    }
}

TEST_CASE("smartdog processes: a second `join` gets `error Already joined` wherever it arrives, and the game goes on") {
    // Two joins in one write (the second waits in the connection's buffer past the join round),
    // a second write right after the first join, and a join after the first turn's `end` in the
    // same write: none of them is dropped as a line after `end`.
    for (const std::string flags : {"--join-twice-at-once", "--join-again-soon", "--join-after-end"}) {
        CAPTURE(flags);
        Match m("join-again-" + flags.substr(2), "simple-1", {herder(), fault(flags)},
                {{"turns", "12"}, {"turn-ms", "2000"}});
        const MatchRecord record = m.run();
        CHECK(record.turns == 12);
        REQUIRE(record.participants.size() == 2);
        CHECK(record.participants[1].status == SeatStatus::ok);
        CHECK(record.participants[1].score != -10);
        CHECK(record.participants[1].detail.find("ignored") == std::string::npos);
        const std::string wire = slurp(m.request.replay_path);
        const auto first = wire.find("P2 > join faulty\n");
        REQUIRE(first != std::string::npos);
        const auto second = wire.find("P2 > join faulty\n", first + 1);
        REQUIRE(second != std::string::npos);
        const auto error = wire.find("P2 < error Already joined\n");
        REQUIRE(error != std::string::npos);
        CHECK(error > second);
        CHECK(wire.find("P2 < error Already joined\n", error + 1) == std::string::npos);  // once
        CHECK(wire.find("after its `end` ignored") == std::string::npos);
        // Answered with the state of the turn after the one whose request found it waiting.
        CHECK(error < wire.find(flags == "--join-after-end" ? "P2 < state  \"turn\":3\n" : "P2 < state  \"turn\":2\n"));
        CHECK(wire.find("P2 < finished") != std::string::npos);
        const VerifyOutcome v = verify_transcript(m.request.replay_path);
        CHECK_MESSAGE(v.ok, v.first_difference);
        CHECK(v.steps == 12);
    }
}

TEST_CASE("smartdog processes: lines after a turn's `end` are ignored with a warning and never shift later turns") {
    for (const std::string sandbox : {"auto", "none"}) {
        CAPTURE(sandbox);
        Match m("after-end-" + sandbox, "simple-1", {herder(), fault("--after-end 3")}, {{"turns", "8"}, {"turn-ms", "2000"}});
        m.request.limits.sandbox = sandbox_mode_from_string(sandbox);
        const MatchRecord record = m.run();
        REQUIRE(record.participants.size() == 2);
        CHECK(record.participants[1].status == SeatStatus::ok);
        CHECK(record.participants[1].detail.find("2 lines after `end` ignored") != std::string::npos);
        const std::string wire = slurp(m.request.replay_path);
        // The bot joined with a user name of its own, not a seat secret.
        CHECK(wire.find("P2 > join faulty\n") != std::string::npos);
        const auto turn4 = wire.find("P2 < state  \"turn\":4\n");
        const auto turn5 = wire.find("P2 < state  \"turn\":5\n");
        REQUIRE(turn4 != std::string::npos);
        REQUIRE(turn5 != std::string::npos);
        // The two extra lines are a warning note, never commands of turn 4...
        const auto warning = wire.find("# warning: 2 lines from P2 after its `end` ignored: 'do ");
        REQUIRE(warning != std::string::npos);
        CHECK(warning < turn5);
        // ...and the bot's only command, its turn-4 move, is applied in turn 4, between turn 4's
        // state and turn 5's.
        const auto command = wire.find("P2 > do ");
        REQUIRE(command != std::string::npos);
        CHECK(command > turn4);
        CHECK(command < turn5);
        CHECK(wire.substr(command, wire.find('\n', command) - command).ends_with(" move down"));
        CHECK(wire.find("P2 > do ", command + 1) == std::string::npos);
        const VerifyOutcome v = verify_transcript(m.request.replay_path);
        CHECK_MESSAGE(v.ok, v.first_difference);
        CHECK(v.steps == 8);
    }
}

TEST_CASE("smartdog processes: --on-fault abort stops the game as the original, with no winner and no credit") {
    struct Case {
        std::string flags;
        int turns;  // turns played before the stop
    };
    for (const auto& c : {Case{"--disconnect-at 5", 5}, Case{"--stop-at 5", 5}, Case{"--no-join", 0}}) {
        CAPTURE(c.flags);
        Match m("abort-" + c.flags.substr(2, 4), "simple-1", {herder(), fault(c.flags), herder("h3")},
                {{"turns", "30"}, {"turn-ms", "1000"}, {"on-fault", "abort"}});
        const MatchRecord record = m.run();
        REQUIRE(record.participants.size() == 3);
        CHECK(record.turns >= c.turns);
        CHECK(record.turns <= c.turns + 1);
        CHECK(record.end_reason.find("no winner") != std::string::npos);
        CHECK(record.participants[1].status != SeatStatus::ok);
        CHECK(record.participants[1].score == -10);
        for (int p : {0, 2}) {
            CHECK(record.participants[p].status == SeatStatus::ok);
            CHECK(record.participants[p].score == 0);
            CHECK(record.participants[p].rank == 1);  // the others share the first place: a draw
        }
        const std::string wire = slurp(m.request.replay_path);
        CHECK(wire.find("P1 < finished \"youWin\":false,\"error\":\"player.gone\"") != std::string::npos);
        const VerifyOutcome v = verify_transcript(m.request.replay_path);
        CHECK_MESSAGE(v.ok, v.first_difference);
    }
    Match bad("abort-option", "simple-1", {herder()}, {{"on-fault", "stop"}});
    CHECK_THROWS_WITH(bad.run(), doctest::Contains("--on-fault must be abort or forfeit"));
}

TEST_CASE("smartdog processes: --arrival plays a whole game whose wire log verifies") {
    Match m("arrival", "keeper-1", {herder("h1"), python_herder(), random_dog("r3")}, {{"arrival", "true"}});
    const MatchRecord record = m.run();
    REQUIRE(record.participants.size() == 3);
    for (const auto& p : record.participants) CHECK(p.status == SeatStatus::ok);
    CHECK(record.turns == 100);
    const std::string wire = slurp(m.request.replay_path);
    CHECK(wire.find("# order arrival") != std::string::npos);
    CHECK(wire.find("order: P") == std::string::npos);
    const VerifyOutcome v = verify_transcript(m.request.replay_path);
    CHECK_MESSAGE(v.ok, v.first_difference);
}

TEST_CASE("smartdog processes: a 3-player tournament is stored and rated") {
    const auto dir = arb::testing::fresh_scratch("smartdog-tour");
    const std::string arbiter = (std::filesystem::path(ARBITER_BINARY_DIR) / "bin" / "arbiter").string();
    const std::string db = (dir / "t.sqlite").string();
    const std::string cmd = arbiter + " tournament --db " + db + " --game smartdog --players 3 --pairing round-robin" +
                            " --rounds 2 -j 1 --no-progress --out " + (dir / "out").string() +
                            " --set map=" + (kMaps / "simple-1.txt").string() + " --set turns=60" +
                            " --bot 'name=h cmd=" + (kBots / "herder").string() + "'" +
                            " --bot 'name=r cmd=" + (kBots / "random_dog").string() + "'" +
                            " --bot 'name=h2 cmd=" + (kBots / "herder").string() + "' 2>&1";
    CHECK(std::system(cmd.c_str()) == 0);
    FILE* pipe = ::popen((arbiter + " rate --db " + db + " 2>&1").c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::string out;
    char buffer[4096];
    while (const std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
    CHECK(::pclose(pipe) == 0);
    // The random player is rated last.
    const auto last = out.rfind('\n', out.size() - 2);
    CHECK(out.substr(last + 1).find(" r ") != std::string::npos);
    std::filesystem::remove_all(dir);
}

}  // namespace arb::smartdog
