// --max-faults and bots let in broken: forfeits decided from earlier results in schedule order
// (the same with any -j and after a resume), and the live output of a run.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdio>
#include <mutex>
#include <set>

#include "arbiter/tournament/progress.hpp"
#include "arbiter/tournament/tournament_runner.hpp"
#include "fake_game.hpp"
#include "runner_test_support.hpp"

using namespace arb;
using namespace arb::tournament;
using namespace arb::test;

namespace {

TournamentConfig with_crasher(int rounds) {
    TournamentConfig c = config_of(4, rounds, rounds);
    c.bots.back() = parse_bot_spec("name=crash9 cmd=/bin/true");
    return c;
}

// The crasher's statuses over its matches, in schedule order.
std::vector<SeatStatus> statuses_of(const std::vector<PlayedMatch>& played, const std::string& bot) {
    std::vector<SeatStatus> out;
    for (const auto& pm : played)
        for (const auto& p : pm.record.participants)
            if (p.bot == bot) out.push_back(p.status);
    return out;
}

std::string read_all(std::FILE* f) {
    std::rewind(f);
    std::string out;
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;) out.append(buffer, n);
    return out;
}

}  // namespace

TEST_CASE("--max-faults 2: after two crashes in a row the bot's later matches are forfeited without starting it") {
    const GameDescriptor game = fake_game();
    std::mutex m;
    int crasher_started = 0;
    auto counting = [&](const MatchRequest& r) {
        std::lock_guard lock(m);
        for (const auto& b : r.bots) crasher_started += b.name == "crash9";
        return fake_match(r);
    };
    std::vector<std::vector<std::pair<std::string, MatchRecord>>> runs;
    for (int jobs : {1, 3}) {
        crasher_started = 0;
        auto store = rating::Store::open(temp_db("forfeit-j" + std::to_string(jobs)).string(),
                                         rating::OpenMode::create_or_open);
        RunnerOptions o = quiet(jobs);
        o.forfeits.max_faults = 2;
        const auto outcome = TournamentRunner(with_crasher(4), game, store, counting, simple_fit, o).run();
        CHECK(outcome.complete);
        CHECK(crasher_started == 2);
        const auto statuses = statuses_of(stored_played(store), "crash9");
        REQUIRE(statuses.size() == 16);
        CHECK(statuses[0] == SeatStatus::crashed);
        CHECK(statuses[1] == SeatStatus::crashed);
        for (std::size_t i = 2; i < statuses.size(); ++i) CHECK(statuses[i] == SeatStatus::forfeited);
        CHECK(outcome.faults.at("crash9").forfeited == 14);
        CHECK(outcome.faults.at("crash9").crashed == 2);
        runs.push_back(results_by_key(stored_played(store)));
    }
    CHECK(runs[0] == runs[1]);

    // A forfeited match: the forfeiting bot loses to every seat, the others draw among themselves.
    const MatchRecord& r = runs[0].back().second;
    REQUIRE(r.participants.size() == 4);
    int forfeiting = -1;
    for (const auto& p : r.participants) {
        if (p.status == SeatStatus::forfeited) forfeiting = p.seat;
        CHECK(p.rank == (p.status == SeatStatus::forfeited ? 4 : 1));
    }
    REQUIRE(forfeiting >= 0);
    CHECK(r.participants[forfeiting].detail == "forfeited: 2 consecutive faults (--max-faults 2)");
    REQUIRE(r.pairs.size() == 6);
    for (const auto& p : r.pairs) {
        const double expected = p.a == forfeiting ? 0.0 : p.b == forfeiting ? 1.0 : 0.5;
        CHECK(p.score_a == expected);
    }
}

TEST_CASE("forfeits after a resume are the ones an uninterrupted run decides") {
    const GameDescriptor game = fake_game();
    RunnerOptions reference_options = quiet(1);
    reference_options.forfeits.max_faults = 3;
    auto full = rating::Store::open(temp_db("forfeit-reference").string(), rating::OpenMode::create_or_open);
    const auto reference = TournamentRunner(with_crasher(5), game, full, fake_match, simple_fit, reference_options).run();
    REQUIRE(reference.complete);

    auto store = rating::Store::open(temp_db("forfeit-resumed").string(), rating::OpenMode::create_or_open);
    TournamentOutcome last;
    int run = 0;
    for (int stop : {2, 1, 3, 5, 100}) {
        RunnerOptions o = quiet(run++ % 2 == 0 ? 3 : 1);
        o.forfeits.max_faults = 3;
        o.stop_after_matches = stop;
        last = TournamentRunner(with_crasher(5), game, store, fake_match, simple_fit, o).run();
        if (last.complete) break;
    }
    REQUIRE(last.complete);
    CHECK(last.stored == reference.stored);
    CHECK(results_by_key(stored_played(store)) == results_by_key(stored_played(full)));
    CHECK(reference.faults.at("crash9").crashed == 3);
}

TEST_CASE("a bot let in broken forfeits every match and is never started") {
    const GameDescriptor game = fake_game();
    auto store = rating::Store::open(temp_db("broken").string(), rating::OpenMode::create_or_open);
    std::atomic<int> started{0};
    auto counting = [&](const MatchRequest& r) {
        for (const auto& b : r.bots) started += b.name == "bot1";
        return fake_match(r);
    };
    RunnerOptions o = quiet(2);
    o.forfeits.broken = {"bot1"};
    const auto outcome = TournamentRunner(config_of(4, 2, 2), game, store, counting, simple_fit, o).run();
    CHECK(outcome.complete);
    CHECK(started == 0);
    CHECK(outcome.faults.at("bot1").forfeited == 8);
    CHECK(outcome.faults.at("bot1").matches == 8);
}

TEST_CASE("live output: a line per finished match and the ratings table every N matches") {
    const GameDescriptor game = fake_game();
    auto store = rating::Store::open(temp_db("live").string(), rating::OpenMode::create_or_open);
    std::FILE* out = std::tmpfile();
    REQUIRE(out);
    RunnerOptions o = quiet(2);
    o.live_out = out;
    o.rating_interval = 3;
    const auto outcome = TournamentRunner(config_of(4, 2, 2), game, store, fake_match, simple_fit, o).run();
    REQUIRE(outcome.complete);
    const std::string text = read_all(out);
    std::fclose(out);
    int finished = 0, tables = 0;
    for (std::size_t at = 0; (at = text.find("Finished match ", at)) != std::string::npos; ++at) ++finished;
    for (std::size_t at = 0; (at = text.find("Ratings after ", at)) != std::string::npos; ++at) ++tables;
    CHECK(finished == 8);
    CHECK(tables == 2);  // after 3 and 6 of the 8 matches
    CHECK(text.find("Finished match 8/8 ") != std::string::npos);
    CHECK(text.find("Ratings after 6 of 8 matches:\n") != std::string::npos);
}

TEST_CASE("the finished-match line lists seats in seat order with their ranks and faults, a shared rank as a tie") {
    ScheduledMatch m;
    m.round = 0, m.group = 1, m.seating = 2;
    MatchRecord r;
    const std::vector<std::tuple<std::string, double, int, SeatStatus>> seats = {
        {"r1", 180, 2, SeatStatus::ok}, {"heur", 312, 1, SeatStatus::ok}, {"r3", 12, 4, SeatStatus::timeout},
        {"r2", 95, 3, SeatStatus::ok}};
    for (const auto& [bot, score, rank, status] : seats) {
        ParticipantResult p;
        p.bot = bot, p.score = score, p.rank = rank, p.status = status;
        r.participants.push_back(p);
    }
    CHECK(finished_match_line(7, 32, m, r) ==
          "Finished match 7/32 r0/g1/s2: r1 2nd 180, heur 1st 312, r3 4th 12 (timeout), r2 3rd 95\n");
    CHECK(finished_match_line(7, std::nullopt, m, r).rfind("Finished match 7 r0/g1/s2: r1 2nd 180,", 0) == 0);
    // Two seats sharing the first place.
    r.participants[0].score = 312, r.participants[0].rank = 1;
    CHECK(finished_match_line(7, 32, m, r) ==
          "Finished match 7/32 r0/g1/s2: r1 =1st 312, heur =1st 312, r3 4th 12 (timeout), r2 3rd 95\n");
}

TEST_CASE("the busy warning: other programs' load plus our own -j against the cores") {
    CHECK_FALSE(load_threatens_timing(0.0, 2, 2));   // our own -j alone is never "busy"
    CHECK_FALSE(load_threatens_timing(0.4, 2, 2));
    CHECK(load_threatens_timing(1.0, 2, 2));
    CHECK_FALSE(load_threatens_timing(3.0, 2, 8));   // room left for 2 matches
    CHECK(load_threatens_timing(7.0, 2, 8));
    CHECK_FALSE(load_threatens_timing(0.4, 16, 8));  // -j beyond the cores has its own warning
}

TEST_CASE("round-robin of 12 with a crasher: started exactly max-faults times, the same with -j 1 and -j 4") {
    const GameDescriptor game = fake_game();
    TournamentConfig c = config_of(12, 2, 2);
    c.format = Format::round_robin;
    c.players = 2;
    c.bots[5] = parse_bot_spec("name=crash5 cmd=/bin/true");
    validate(c, 2, 4);
    std::vector<std::vector<std::pair<std::string, MatchRecord>>> runs;
    for (int jobs : {1, 4}) {
        std::atomic<int> started{0};
        auto counting = [&](const MatchRequest& r) {
            for (const auto& b : r.bots) started += b.name == "crash5";
            return fake_match(r);
        };
        auto store = rating::Store::open(temp_db("rr-forfeit-j" + std::to_string(jobs)).string(),
                                         rating::OpenMode::create_or_open);
        RunnerOptions o = quiet(jobs);
        o.forfeits.max_faults = 3;
        const auto outcome = TournamentRunner(c, game, store, counting, simple_fit, o).run();
        CHECK(outcome.complete);
        CHECK(started == 3);
        CHECK(outcome.faults.at("crash5").crashed == 3);
        CHECK(outcome.faults.at("crash5").forfeited == outcome.faults.at("crash5").matches - 3);
        runs.push_back(results_by_key(stored_played(store)));
    }
    CHECK(runs[0] == runs[1]);
}
