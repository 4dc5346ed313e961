// Whole Koehandel games with real HTTP bots over loopback, through the match runner: the sample
// bots against random ones, determinism of the requests, and the fault bots.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arbiter/match/match_runner.hpp"
#include "rules/koehandel/koehandel_game.hpp"
#include "rules/koehandel/koehandel_game.hpp"
#include "rules/koehandel/koehandel_verify.hpp"
#include "tests/test_scratch.hpp"

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
        dir = arb::testing::fresh_scratch("koehandel-" + tag);
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
        // The player logs replay through the engine to the same game.
        const VerifyOutcome verified = verify_player_logs(m.request.replay_path);
        CHECK_MESSAGE(verified.ok, verified.first_difference);
        CHECK(verified.steps == record.turns);
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
        {"late-once 1000", SeatStatus::ok},
    };
    for (const auto& c : cases) {
        CAPTURE(c.mode);
        Match m("fault", {fault(c.mode), python_value("v")}, 5, {{"reply-ms", "400"}, {"startup-ms", "1500"}});
        const MatchRecord record = m.run();
        REQUIRE(record.participants.size() == 2);
        CHECK(record.end_reason != "");
        CHECK(record.participants[0].status == c.status);
        CHECK(record.participants[1].status == SeatStatus::ok);
        CHECK(record.participants[0].detail.find("default action") != std::string::npos);
        // A failed reply costs its default action; the third one puts the bot out (--max-faults).
        const bool out = c.status != SeatStatus::ok;
        CHECK((record.participants[0].detail.find("3 failed replies") != std::string::npos) == out);
        CHECK(record.turns >= 10);
    }
}

TEST_CASE("koehandel match: notifications are timed too: a bot answering only them late is out after --max-faults") {
    // The threaded server answers decisions at once, also while a late notification is pending.
    const auto start = std::chrono::steady_clock::now();
    Match m("late-notify", {fault("late-notify 800"), python_value("v")}, 5, {{"reply-ms", "300"}, {"startup-ms", "1500"}});
    const MatchRecord record = m.run();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    MESSAGE("game of " << record.turns << " turns in " << seconds << " s");
    CHECK(seconds < 10);
    REQUIRE(record.participants.size() == 2);
    CHECK(record.participants[0].status == SeatStatus::timeout);
    CHECK(record.participants[0].detail.find("3 failed replies (the last: timeout)") != std::string::npos);
    CHECK(record.participants[0].detail.find("3 failed notifications") != std::string::npos);
    CHECK(record.participants[1].status == SeatStatus::ok);
    // Each fault is in the player's log, named, and counted against the limit.
    const std::string log = m.log(0, "fault");
    CHECK(log.find("# fault 1 of 3: notification information timeout") != std::string::npos);
    CHECK(log.find("# fault 3 of 3: notification ") != std::string::npos);
    CHECK(log.find("# out: 3 failed replies") != std::string::npos);
    CHECK(log.find("# fault 4") == std::string::npos);
    // Out, it is asked nothing more: no reply follows (the log still lists what it was not sent).
    const std::string tail = log.substr(log.find("# out: "));
    CHECK(tail.find("\n< ") == std::string::npos);
    // The replay viewer reads such logs, faults and all.
    const std::string replay = koehandel::viewer().read_folder(record, m.request.replay_path).dump();
    CHECK(replay.find("\"type\":\"fault\"") != std::string::npos);
    CHECK(replay.find("fault 3 of 3: notification") != std::string::npos);
    // And so does verify: the fault notes are the table's, every request is the engine's.
    const VerifyOutcome verified = verify_player_logs(m.request.replay_path);
    CHECK_MESSAGE(verified.ok, verified.first_difference);
}

TEST_CASE("koehandel match: a bot answering only decisions late is out after --max-faults, with the status of its replies") {
    Match m("late-decide", {fault("late-decide 800"), python_value("v")}, 5, {{"reply-ms", "300"}, {"startup-ms", "1500"}});
    const MatchRecord record = m.run();
    REQUIRE(record.participants.size() == 2);
    // The status comes from how the decisions' replies failed, not from the notifications'.
    CHECK(record.participants[0].status == SeatStatus::timeout);
    CHECK(record.participants[0].detail.find("3 failed replies (the last: timeout)") != std::string::npos);
    CHECK(record.participants[0].detail.find("failed notification") == std::string::npos);
    CHECK(record.participants[1].status == SeatStatus::ok);
    const std::string log = m.log(0, "fault");
    CHECK(log.find("# fault 1 of 3: decision ") != std::string::npos);
    CHECK(log.find("# fault 3 of 3: decision ") != std::string::npos);
    CHECK(log.find("# fault 4") == std::string::npos);
}

}  // namespace arb::koehandel

namespace arb::koehandel {
namespace {

// A free loopback port (bound and released).
int free_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
    socklen_t size = sizeof address;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size);
    ::close(fd);
    return ntohs(address.sin_port);
}

}  // namespace

TEST_CASE("koehandel match: a bot that answers \"(timeout)\" is logged so that verify replays its answers") {
    Match m("parens", {fault("parens"), python_value("v")}, 5, {{"reply-ms", "2000"}, {"startup-ms", "2000"}});
    const MatchRecord record = m.run();
    REQUIRE(record.participants.size() == 2);
    CHECK(record.participants[0].status == SeatStatus::ok);  // an answer, not a failed reply
    const std::string log = m.log(0, "fault");
    CHECK(log.find("\n< \\(timeout)\n") != std::string::npos);
    CHECK(log.find("\n< (timeout)\n") == std::string::npos);
    const VerifyOutcome verified = verify_player_logs(m.request.replay_path);
    CHECK_MESSAGE(verified.ok, verified.first_difference);
}

TEST_CASE("koehandel match: a bot already running elsewhere is a seat through url=") {
    const int port = free_port();
    const std::string server = (kBots / "value_bot").string();
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        ::execl(server.c_str(), server.c_str(), std::to_string(port).c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    struct Stop {  // the server is ours to stop, also when a check throws
        pid_t pid;
        ~Stop() {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
        }
    } stop{pid};
    Match remote("url", {parse_bot_spec("name=remote url=http://127.0.0.1:" + std::to_string(port) + "/"), python_random("r")}, 4);
    Match local("url-local", {cpp_value("remote"), python_random("r")}, 4);
    const MatchRecord a = remote.run();
    const MatchRecord b = local.run();
    CHECK(a.participants[0].status == SeatStatus::ok);
    CHECK(a.participants[0].detail.find("default") == std::string::npos);
    // The same bot, started by the arbiter or already running, plays the same game.
    CHECK(a.participants[0].score == b.participants[0].score);
    CHECK(remote.log(0, "remote") == local.log(0, "remote"));
    CHECK(parse_bot_spec("name=x url=http://h:1/p").url == "http://h:1/p");
    CHECK_THROWS(parse_bot_spec("name=x url=http://h:1/p cmd=/bin/cat"));
    CHECK_THROWS(parse_bot_spec("name=x url=ftp://h/"));
}

}  // namespace arb::koehandel
