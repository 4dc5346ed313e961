// The tournament runner over a fake match function and a real SQLite store: schedule stored
// first, results keyed, exact resume after an interruption, concurrency, faults reported.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <mutex>
#include <chrono>
#include <map>
#include <set>
#include <thread>

#include "core/rng.hpp"
#include "core/user_error.hpp"
#include "arbiter/tournament/play_and_store.hpp"
#include "arbiter/tournament/tournament_runner.hpp"
#include "rating/store_internal.hpp"
#include "fake_game.hpp"
#include "runner_test_support.hpp"

using namespace arb;
using namespace arb::tournament;
using arb::test::fake_game;
using arb::test::fake_match;
using namespace arb::test;


TEST_CASE("an uninterrupted tournament plays every scheduled match once") {
    const auto path = temp_db("full");
    auto store = rating::Store::open(path.string(), rating::OpenMode::create_or_open);
    const GameDescriptor game = fake_game();
    std::atomic<int> calls{0};
    TournamentRunner runner(config_of(8, 4, 2), game, store, [&](const MatchRequest& r) {
        ++calls;
        return fake_match(r);
    }, simple_fit, quiet(2));
    const TournamentOutcome o = runner.run();
    CHECK(o.complete);
    CHECK(o.scheduled == 4 * 8);
    CHECK(o.played_this_run == 32);
    CHECK(calls == 32);
    std::set<std::string> keys;
    CHECK(o.stored == 32);
    for (const auto& p : stored_played(store)) keys.insert(p.scheduled.key);
    CHECK(keys.size() == 32);
    CHECK(store.match_count() == 32);

    // Running the finished tournament again plays nothing.
    TournamentRunner again(config_of(8, 4, 2), game, store, [&](const MatchRequest& r) {
        ++calls;
        return fake_match(r);
    }, simple_fit, quiet(2));
    const TournamentOutcome o2 = again.run();
    CHECK(o2.played_this_run == 0);
    CHECK(o2.already_played == 32);
    CHECK(calls == 32);
}

TEST_CASE("resume after interruptions gives the same results as an uninterrupted run") {
    const GameDescriptor game = fake_game();
    const TournamentConfig config = config_of(8, 6, 2);  // rounds 2..5 paired from results

    auto full_store = rating::Store::open(temp_db("reference").string(), rating::OpenMode::create_or_open);
    const auto reference = TournamentRunner(config, game, full_store, fake_match, simple_fit, quiet(1)).run();
    REQUIRE(reference.complete);

    auto store = rating::Store::open(temp_db("resumed").string(), rating::OpenMode::create_or_open);
    std::multiset<std::string> played_keys;
    std::mutex m;
    auto counting = [&](const MatchRequest& r) {
        MatchRecord rec = fake_match(r);
        std::lock_guard lock(m);
        played_keys.insert(std::to_string(r.seed));
        return rec;
    };
    int runs = 0;
    TournamentOutcome last;
    for (int stop : {3, 7, 1, 11, 5, 100}) {
        RunnerOptions o = quiet(runs % 2 == 0 ? 2 : 1);
        o.stop_after_matches = stop;
        last = TournamentRunner(config, game, store, counting, simple_fit, o).run();
        ++runs;
        if (last.complete) break;
    }
    REQUIRE(last.complete);
    CHECK(last.stored == reference.stored);
    CHECK(results_by_key(stored_played(store)) == results_by_key(stored_played(full_store)));
    // Never a match twice: every seed was played exactly once over all the runs.
    for (const auto& seed : played_keys) CHECK(played_keys.count(seed) == 1);
    CHECK(played_keys.size() == stored_played(full_store).size());
}

TEST_CASE("a bot that fails every match is reported, never retried") {
    TournamentConfig c = config_of(4, 2, 2);
    c.bots.back() = parse_bot_spec("name=crash9 cmd=/bin/true");
    auto store = rating::Store::open(temp_db("faults").string(), rating::OpenMode::create_or_open);
    const GameDescriptor game = fake_game();
    const auto o = TournamentRunner(c, game, store, fake_match, simple_fit, quiet(2)).run();
    CHECK(o.complete);
    REQUIRE(o.faults.count("crash9"));
    CHECK(o.faults.at("crash9").matches == 8);
    CHECK(o.faults.at("crash9").crashed == 8);
    CHECK(o.faults.at("bot0").faults() == 0);
}

TEST_CASE("a match that throws stays unplayed, a user error stops the tournament") {
    const GameDescriptor game = fake_game();
    auto store = rating::Store::open(temp_db("errors").string(), rating::OpenMode::create_or_open);
    std::atomic<int> calls{0};
    auto flaky = [&](const MatchRequest& r) {
        if (++calls == 2) throw std::runtime_error("lost the process table");
        return fake_match(r);
    };
    const auto o = TournamentRunner(config_of(4, 2, 2), game, store, flaky, simple_fit, quiet(1)).run();
    CHECK(o.failed == 1);
    CHECK_FALSE(o.complete);
    CHECK(o.stored == 7);
    CHECK(stored_played(store).size() == 7);
    // The next run plays only that one.
    const auto o2 = TournamentRunner(config_of(4, 2, 2), game, store, fake_match, simple_fit, quiet(1)).run();
    CHECK(o2.played_this_run == 1);
    CHECK(o2.complete);

    auto store2 = rating::Store::open(temp_db("user-error").string(), rating::OpenMode::create_or_open);
    auto missing = [](const MatchRequest&) -> MatchRecord { throw UserError("bot 'x': executable 'y' not found"); };
    CHECK_THROWS_AS(TournamentRunner(config_of(4, 2, 2), game, store2, missing, simple_fit, quiet(2)).run(), UserError);
}

TEST_CASE("a different config under the same name is refused, a live runner blocks a second one") {
    const GameDescriptor game = fake_game();
    auto store = rating::Store::open(temp_db("identity").string(), rating::OpenMode::create_or_open);
    TournamentRunner(config_of(4, 1, 1), game, store, fake_match, simple_fit, quiet(1)).run();
    TournamentConfig changed = config_of(4, 1, 1);
    changed.seed = 78;
    CHECK_THROWS_AS(TournamentRunner(changed, game, store, fake_match, simple_fit, quiet(1)).run(), UserError);

    // A second runner holding the lock blocks this one; its release frees the tournament.
    {
        TournamentStore holder(store);
        holder.claim("unit");
        TournamentStore ts(store);
        CHECK_THROWS_AS(ts.claim("unit"), UserError);
        holder.release("unit");
        ts.claim("unit");
        ts.release("unit");
    }

    // A stored runner id of a live process (our parent) that holds no lock does not block.
    TournamentStore ts(store);
    auto u = rating::store_internal::StoreAccess::prepare(store, "UPDATE tournament SET runner_pid = ?1 WHERE name = 'unit'");
    u.bind(1, static_cast<std::int64_t>(getppid()));
    u.run();
    ts.claim("unit");
    ts.release("unit");
}

TEST_CASE("a runner killed with SIGKILL frees the tournament at once, even as an unreaped zombie") {
    const GameDescriptor game = fake_game();
    const auto path = temp_db("killed-runner");
    {
        auto store = rating::Store::open(path.string(), rating::OpenMode::create_or_open);
        TournamentRunner(config_of(4, 1, 1), game, store, fake_match, simple_fit, quiet(1)).run();
    }
    int ready[2];
    REQUIRE(pipe(ready) == 0);
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        close(ready[0]);
        auto store = rating::Store::open(path.string(), rating::OpenMode::create_or_open);
        TournamentStore held(store);
        held.claim("unit");
        const char byte = 1;
        if (write(ready[1], &byte, 1) != 1) _exit(3);
        for (;;) pause();
    }
    close(ready[1]);
    char byte = 0;
    REQUIRE(read(ready[0], &byte, 1) == 1);
    close(ready[0]);
    auto store = rating::Store::open(path.string(), rating::OpenMode::create_or_open);
    {
        TournamentStore ts(store);
        CHECK_THROWS_AS(ts.claim("unit"), UserError);
    }
    REQUIRE(kill(child, SIGKILL) == 0);
    siginfo_t info{};
    REQUIRE(waitid(P_PID, static_cast<id_t>(child), &info, WEXITED | WNOWAIT) == 0);  // dead, not reaped
    TournamentStore ts(store);
    ts.claim("unit");
    ts.release("unit");
    waitpid(child, nullptr, 0);
}

TEST_CASE("the schedule is stored before the first match runs") {
    const GameDescriptor game = fake_game();
    const auto path = temp_db("stored-first");
    auto store = rating::Store::open(path.string(), rating::OpenMode::create_or_open);
    bool checked = false;
    auto probe = [&](const MatchRequest& r) {
        if (!checked) {
            // Another connection sees the whole fixed schedule (rounds 0..2 are random rounds).
            auto other = rating::Store::open(path.string(), rating::OpenMode::read_only);
            auto q = rating::store_internal::StoreAccess::prepare(other, "SELECT COUNT(*) FROM tournament_match WHERE tournament = 'unit'");
            REQUIRE(q.step());
            CHECK(q.column_int(0) == 3 * 4);
            checked = true;
        }
        return fake_match(r);
    };
    TournamentRunner(config_of(4, 3, 3), game, store, probe, simple_fit, quiet(1)).run();
    CHECK(checked);
}

TEST_CASE("a stop request (Ctrl-C) lets running matches finish, starts none, and the rerun completes") {
    const GameDescriptor game = fake_game();
    const TournamentConfig config = config_of(8, 4, 2);
    auto full_store = rating::Store::open(temp_db("stop-reference").string(), rating::OpenMode::create_or_open);
    const auto reference = TournamentRunner(config, game, full_store, fake_match, simple_fit, quiet(2)).run();
    REQUIRE(reference.complete);

    auto store = rating::Store::open(temp_db("stop").string(), rating::OpenMode::create_or_open);
    std::atomic<int> started{0};
    std::atomic<bool> stop{false};
    // The request comes while the fifth match is being played, as a signal would.
    auto play = [&](const MatchRequest& r) {
        if (++started == 5) stop = true;
        return fake_match(r);
    };
    RunnerOptions o = quiet(2);
    o.stop_requested = [&] { return stop.load(); };
    const TournamentOutcome interrupted = TournamentRunner(config, game, store, play, simple_fit, o).run();
    CHECK(interrupted.interrupted);
    CHECK_FALSE(interrupted.complete);
    // Every match that started was finished and stored; with 2 workers at most one more than
    // the fifth had started when the request came.
    CHECK(interrupted.played_this_run == started.load());
    CHECK(started.load() >= 5);
    CHECK(started.load() <= 6);
    CHECK(store.match_count() == static_cast<std::int64_t>(started.load()));

    stop = false;
    const TournamentOutcome resumed = TournamentRunner(config, game, store, play, simple_fit, quiet(2)).run();
    CHECK(resumed.complete);
    CHECK_FALSE(resumed.interrupted);
    CHECK(resumed.played_this_run == 32 - interrupted.played_this_run);
    CHECK(resumed.stored == 32);
    CHECK(results_by_key(stored_played(store)) == results_by_key(stored_played(full_store)));
}

TEST_CASE("matches are stored in schedule order, whichever finishes first") {
    const GameDescriptor game = fake_game();
    auto store = rating::Store::open(temp_db("stored-order").string(), rating::OpenMode::create_or_open);
    std::atomic<int> calls{0};
    // Every third match handed out is slow: the two after it finish first.
    auto slow_now_and_then = [&](const MatchRequest& r) {
        if (++calls % 3 == 1) std::this_thread::sleep_for(std::chrono::milliseconds(40));
        return fake_match(r);
    };
    RunnerOptions o = quiet(3);
    o.forfeits.max_faults = 2;  // decisions wait for earlier results: still schedule order
    const auto outcome = TournamentRunner(config_of(8, 4, 2), game, store, slow_now_and_then, simple_fit, o).run();
    REQUIRE(outcome.complete);
    std::vector<std::string> by_id, by_schedule;
    for (const auto& m : store.matches()) by_id.push_back(m.schedule_key.value_or(""));
    for (const auto& p : stored_played(store)) by_schedule.push_back(p.scheduled.key);
    CHECK(by_id.size() == 32);
    CHECK(by_id == by_schedule);
}

TEST_CASE("play_and_store stores in the order asked, and an unplayable match after the ones before it") {
    auto store = rating::Store::open(temp_db("play-and-store").string(), rating::OpenMode::create_or_open);
    std::vector<KeyedRequest> requests;
    for (int i = 0; i < 7; ++i) {
        MatchRequest r;
        r.game = "fake";
        r.seed = static_cast<std::uint64_t>(i);
        for (int b = 0; b < 2; ++b) r.bots.push_back(parse_bot_spec("name=bot" + std::to_string(b) + " cmd=/bin/true"));
        requests.push_back({"batch/" + std::to_string(i), r});
    }
    auto slow_first = [](const MatchRequest& r) {
        if (r.seed == 0) std::this_thread::sleep_for(std::chrono::milliseconds(40));
        return fake_match(r);
    };
    std::map<std::string, MatchRecord> stored;
    CHECK(play_and_store(store, "batch", requests, 3, slow_first, {}, stored) == 7);
    std::vector<std::string> by_id;
    for (const auto& m : store.matches()) by_id.push_back(m.schedule_key.value_or(""));
    REQUIRE(by_id.size() == 7);
    for (int i = 0; i < 7; ++i) CHECK(by_id[i] == "batch/" + std::to_string(i));
    CHECK(stored.size() == 7);

    // Match 3 cannot be played: 0..2 are stored, then its error comes back.
    auto store2 = rating::Store::open(temp_db("play-and-store-error").string(), rating::OpenMode::create_or_open);
    auto third_fails = [](const MatchRequest& r) {
        if (r.seed == 3) throw std::runtime_error("lost the process table");
        return fake_match(r);
    };
    std::map<std::string, MatchRecord> stored2;
    CHECK_THROWS_AS(play_and_store(store2, "batch", requests, 1, third_fails, {}, stored2), std::runtime_error);
    CHECK(store2.match_count() == 3);
    CHECK(stored2.size() == 3);
}
