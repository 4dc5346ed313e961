// Whole Koehandel games with real HTTP bots over loopback, through the match runner: the sample
// bots against random ones, determinism of the requests, and the fault bots.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "arbiter/match/match_runner.hpp"
#include "rules/koehandel/koehandel_game.hpp"

namespace arb::koehandel {
namespace {

const std::filesystem::path kBots = std::filesystem::path(ARBITER_BINARY_DIR) / "bots" / "koehandel";
const std::string kFaults = std::string(ARBITER_SOURCE_DIR) + "/tests/koehandel/http_fault_server.py";

BotSpec bot(const std::string& name, const std::string& command) {
    return parse_bot_spec("name=" + name + " cmd=" + quote_word(command));
}
BotSpec python_value(const std::string& name) { return bot(name, "python3 " + (kBots / "value_bot.py").string()); }
BotSpec python_random(const std::string& name) { return bot(name, "python3 " + (kBots / "value_bot.py").string() + " --random"); }
BotSpec cpp_value(const std::string& name) { return bot(name, (kBots / "value_bot").string()); }
BotSpec fault(const std::string& mode) { return bot("fault", "python3 " + kFaults + " " + mode); }

struct Match {
    std::filesystem::path dir;
    MatchRequest request;

    Match(const std::string& tag, std::vector<BotSpec> bots, std::uint64_t seed, std::map<std::string, std::string> options = {}) {
        dir = std::filesystem::temp_directory_path() / ("arbiter-koehandel-" + std::to_string(::getpid()) + "-" + tag);
        std::filesystem::remove_all(dir);
        request.game = "koehandel";
        request.bots = std::move(bots);
        request.seed = seed;
        request.options = GameOptions(describe_game().options, options);
        request.replay_path = dir / "log";
    }
    ~Match() { std::filesystem::remove_all(dir); }
    MatchRecord run() const { return run_match(describe_game(), request); }
    std::string log(int seat, const std::string& name) const {
        std::ifstream in(request.replay_path / ("player" + std::to_string(seat + 1) + "-" + name + ".log"));
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    }
};

}  // namespace

TEST_CASE("koehandel match: the sample bots (Python and C++) beat random bots clearly over loopback HTTP") {
    double value_total = 0, random_total = 0;
    int value_wins = 0;
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        Match m("strength" + std::to_string(seed), {python_value("v1"), python_random("r1"), cpp_value("v2"), python_random("r2")}, seed);
        const MatchRecord record = m.run();
        REQUIRE(record.participants.size() == 4);
        for (const auto& p : record.participants) {
            CHECK(p.status == SeatStatus::ok);
            (p.bot[0] == 'v' ? value_total : random_total) += p.score;
            if (p.rank == 1 && p.bot[0] == 'v') ++value_wins;
        }
        CHECK(record.pairs.size() == 6);
    }
    MESSAGE("value bots " << value_total << ", random bots " << random_total);
    CHECK(value_total > 5 * random_total);
    CHECK(value_wins == 4);
}

TEST_CASE("koehandel match: the same seed gives the same requests and replies") {
    Match a("same-a", {python_value("v"), python_random("r")}, 11);
    Match b("same-b", {python_value("v"), python_random("r")}, 11);
    const MatchRecord ra = a.run(), rb = b.run();
    CHECK(ra.participants[0].score == rb.participants[0].score);
    CHECK(ra.turns == rb.turns);
    for (int seat = 0; seat < 2; ++seat) {
        const std::string name = seat == 0 ? "v" : "r";
        CHECK_FALSE(a.log(seat, name).empty());
        CHECK(a.log(seat, name) == b.log(seat, name));
    }
    CHECK(a.log(2, "house") == b.log(2, "house"));
    Match c("same-c", {python_value("v"), python_random("r")}, 12);
    c.run();
    CHECK(a.log(0, "v") != c.log(0, "v"));
}

TEST_CASE("koehandel match: fault bots get default actions and the game goes on") {
    struct Case {
        std::string mode;
        SeatStatus status;
    };
    const std::vector<Case> cases = {
        {"never", SeatStatus::timeout}, {"late 5000", SeatStatus::timeout}, {"junk", SeatStatus::crashed},
        {"close", SeatStatus::crashed}, {"big", SeatStatus::killed},         {"chunked", SeatStatus::ok},
    };
    for (const auto& c : cases) {
        CAPTURE(c.mode);
        Match m("fault", {fault(c.mode), python_value("v")}, 5, {{"reply-ms", "400"}});
        const MatchRecord record = m.run();
        REQUIRE(record.participants.size() == 2);
        CHECK(record.end_reason != "");
        CHECK(record.participants[0].status == c.status);
        CHECK(record.participants[1].status == SeatStatus::ok);
        CHECK(record.participants[0].detail.find("default action") != std::string::npos);
        CHECK(record.turns >= 10);
    }
}

}  // namespace arb::koehandel
