// End to end with real bot processes: full matches of the sample bots through run_match, every
// adjudication path with a misbehaving process, and `arbiter play planowanie` from the shell.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/user_error.hpp"
#include "arbiter/match/match_runner.hpp"
#include "rules/planowanie/planowanie_game.hpp"

using namespace arb;
namespace fs = std::filesystem;

namespace {

const std::string kBots = std::string(ARBITER_BINARY_DIR) + "/bots/planowanie";
const std::string kFaultBot = std::string(ARBITER_BINARY_DIR) + "/bots/planowanie-test/planowanie_fault_bot";

BotSpec bot(const std::string& name, const std::string& command) {
    return parse_bot_spec("name=" + name + " cmd=\"" + command + "\"");
}

BotSpec random_cpp(int i) {
    return bot("random" + std::to_string(i), kBots + "/random_bot " + std::to_string(i));
}

MatchRequest request_for(std::vector<BotSpec> bots, std::map<std::string, std::string> options = {},
                         std::uint64_t seed = 7) {
    static const GameDescriptor game = planowanie::describe_game();
    MatchRequest request;
    request.game = "planowanie";
    request.bots = std::move(bots);
    request.seed = seed;
    request.options = GameOptions(game.options, std::move(options));
    return request;
}

MatchRecord play(const MatchRequest& request) {
    static const GameDescriptor game = planowanie::describe_game();
    return run_match(game, request);
}

fs::path scratch(const std::string& name) {
    fs::path dir = fs::path(ARBITER_BINARY_DIR) / "test-scratch" / "planowanie" / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

}  // namespace

TEST_CASE("planowanie e2e: four C++ random bots play a full tournament match") {
    const MatchRecord record =
        play(request_for({random_cpp(1), random_cpp(2), random_cpp(3), random_cpp(4)}));
    CHECK(record.end_reason == "completed");
    CHECK(record.turns == 13);
    REQUIRE(record.participants.size() == 4);
    for (const auto& p : record.participants) {
        CHECK(p.status == SeatStatus::ok);
        CHECK(p.usage.requests > 300);
        CHECK(p.score >= 0);
    }
    CHECK(record.pairs.size() == 6);
}

TEST_CASE("planowanie e2e: the same seed and bots give the same match") {
    const auto bots = std::vector<BotSpec>{random_cpp(1), random_cpp(2), random_cpp(3), random_cpp(4)};
    const MatchRecord a = play(request_for(bots, {}, 99));
    const MatchRecord b = play(request_for(bots, {}, 99));
    const MatchRecord c = play(request_for(bots, {}, 100));
    for (std::size_t s = 0; s < 4; ++s) CHECK(a.participants[s].score == b.participants[s].score);
    bool differs = false;
    for (std::size_t s = 0; s < 4; ++s) differs |= a.participants[s].score != c.participants[s].score;
    CHECK(differs);
}

TEST_CASE("planowanie e2e: C++ heuristic, C++ random and Python random bots play together") {
    const MatchRecord record = play(request_for({bot("heuristic", kBots + "/heuristic_bot"), random_cpp(1),
                                                 bot("python", "python3 " + kBots + "/random_bot.py 5"),
                                                 bot("fault-free", kFaultBot + " none")}));
    CHECK(record.end_reason == "completed");
    for (const auto& p : record.participants) CHECK(p.status == SeatStatus::ok);
}

TEST_CASE("planowanie e2e: stray debug lines on stdout are tolerated") {
    const MatchRecord record = play(request_for({random_cpp(1), bot("junk", kFaultBot + " junk 2")}, {}, 3));
    CHECK(record.end_reason == "completed");
    CHECK(record.participants[1].status == SeatStatus::ok);
    CHECK(record.participants[1].detail.find("protocol warnings") != std::string::npos);
}

TEST_CASE("planowanie e2e: every fault of a bot process ends the match with its loss") {
    struct Case {
        const char* fault;
        SeatStatus status;
        const char* detail;
    };
    const Case cases[] = {
        {"illegal-card", SeatStatus::illegal, "not in the hand"},
        {"question-move", SeatStatus::illegal, "answered '? refusing to move' to gen_move"},
        {"bad-declare", SeatStatus::illegal, "illegal declaration 4"},
        {"no-blank", SeatStatus::timeout,
         "'gen_declare' in deal 3 (received '= 0' but no closing empty line)"},
        {"crash", SeatStatus::crashed, "deal 3"},
        {"hang", SeatStatus::timeout, "gen_move"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.fault);
        const MatchRecord record = play(request_for(
            {random_cpp(1), random_cpp(2), bot("faulty", kFaultBot + " " + c.fault + " 2"), random_cpp(3)},
            {{"total-time-ms", "1500"}}));
        CHECK(record.end_reason == std::string("seat 2 ") + to_string(c.status));
        CHECK(record.participants[2].status == c.status);
        CHECK(record.participants[2].detail.find(c.detail) != std::string::npos);
        CHECK(record.participants[2].rank == 4);
        for (int s : {0, 1, 3}) CHECK(record.participants[s].status == SeatStatus::ok);
        const std::vector<PairResult> expected = {{0, 2, 1.0}, {1, 2, 1.0}, {2, 3, 0.0}};
        CHECK(record.pairs == expected);
        CHECK(record.turns == 2);
    }
}

TEST_CASE("planowanie e2e: a bot over the memory limit is stopped and loses") {
    MatchRequest request = request_for({random_cpp(1), bot("hog", kFaultBot + " hog 1"), random_cpp(3)});
    request.limits.memory_mib = 64;
    const MatchRecord record = play(request);
    const SeatStatus status = record.participants[1].status;
    CAPTURE(record.participants[1].detail);
    CHECK((status == SeatStatus::killed || status == SeatStatus::crashed));
    CHECK(record.end_reason == std::string("seat 1 ") + to_string(status));
    // A kill by the table carries the table's own reason (the limit and its size).
    if (status == SeatStatus::killed) CHECK(record.participants[1].detail.find("memory limit") != std::string::npos);
    CHECK(record.pairs.size() == 2);
    CHECK(record.turns == 1);
}

TEST_CASE("planowanie e2e: a smaller game with 2 and 3 players") {
    const MatchRecord two =
        play(request_for({random_cpp(1), random_cpp(2)},
                         {{"deck-values", "9TJQKA"}, {"deck-suits", "HS"}, {"schedule", "3 1 0 3 1 6 0"}}));
    CHECK(two.end_reason == "completed");
    CHECK(two.turns == 3);
    const MatchRecord three = play(request_for({random_cpp(1), random_cpp(2), random_cpp(3)},
                                               {{"deck-values", "TJQKA"}, {"deck-suits", "DCS"}}));
    CHECK(three.end_reason == "completed");
    CHECK(three.turns == 5);  // 15 cards / 3 players: deals of 1..5
}

TEST_CASE("planowanie e2e: arbiter play runs all rotations and writes the records") {
    const fs::path out = scratch("cli");
    const std::string arbiter = std::string(ARBITER_BINARY_DIR) + "/bin/arbiter";
    std::string command = arbiter + " play planowanie --seed 11 --rotations --out " + out.string();
    for (int i = 1; i <= 4; ++i)
        command += " --bot 'name=r" + std::to_string(i) + " cmd=\"" + kBots + "/random_bot " +
                   std::to_string(i) + "\"'";
    command +=
        " --transcript " + (out / "transcripts").string() + " > " + (out / "stdout.txt").string() + " 2>&1";
    REQUIRE(std::system(command.c_str()) == 0);
    int records = 0;
    std::vector<std::vector<std::string>> seat_bots;
    for (int r = 0; r < 4; ++r) {
        const fs::path path = out / ("planowanie-seed11-r" + std::to_string(r) + ".json");
        REQUIRE(fs::exists(path));
        const MatchRecord record = nlohmann::json::parse(std::ifstream(path)).get<MatchRecord>();
        CHECK(record.end_reason == "completed");
        CHECK(record.deal_set == std::optional<std::uint64_t>(11));
        CHECK(record.rotation == r);
        CHECK(record.participants[0].bot == "r" + std::to_string(1 + r));
        ++records;
    }
    CHECK(records == 4);
    std::ifstream stdout_file(out / "stdout.txt");
    const std::string printed((std::istreambuf_iterator<char>(stdout_file)),
                              std::istreambuf_iterator<char>());
    CHECK(printed.find("total over 4 rotations") != std::string::npos);
    CHECK(fs::exists(out / "transcripts" / "planowanie-seed11-r0.transcript"));

    // The game log of a match, checked by `arbiter verify`.
    const std::string logged = command.substr(0, command.find(" > ")) + " --replay " +
                               (out / "game.json").string() + " > /dev/null 2>&1";
    REQUIRE(std::system(logged.c_str()) == 0);
    REQUIRE(fs::exists(out / "game-r2.json"));
    const std::string verify = arbiter + " verify planowanie " + (out / "game-r2.json").string() + " > " +
                               (out / "verify.txt").string();
    CHECK(std::system(verify.c_str()) == 0);
    std::ifstream verify_file(out / "verify.txt");
    std::string verdict;
    std::getline(verify_file, verdict);
    CHECK(verdict == "OK 416");

    // A bad option or a missing bot is a usage error (exit 2), with no match played.
    const std::string bad =
        arbiter + " play planowanie --out " + out.string() +
        " --bot 'name=a cmd=/no/such/bot' --bot 'name=b cmd=/no/such/bot' > /dev/null 2>&1";
    CHECK(WEXITSTATUS(std::system(bad.c_str())) == kUsageExitCode);
    const std::string bad_option =
        command.substr(0, command.find(" > ")) + " --deck-values AA > /dev/null 2>&1";
    CHECK(WEXITSTATUS(std::system(bad_option.c_str())) == kUsageExitCode);
}
