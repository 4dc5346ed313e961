// A tournament handed out as match jobs: planning only what may be scheduled now, job and
// result files read back exactly or refused with a clear line, and results ingested once,
// ending with what an in-process run stores.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "arbiter/tournament/match_jobs.hpp"
#include "core/user_error.hpp"
#include "fake_game.hpp"
#include "runner_test_support.hpp"

using namespace arb;
using namespace arb::tournament;
using namespace arb::test;

namespace {

const GameDescriptor& find_fake(const std::string& name) {
    static const GameDescriptor game = fake_game();
    if (name != game.name) throw UserError("no game '" + name + "'");
    return game;
}

RunnerOptions plan_only() {
    RunnerOptions o = quiet(1);
    o.plan_only = true;
    return o;
}

MatchRecord never_played(const MatchRequest&) { throw std::logic_error("a plan plays nothing"); }

std::vector<Job> plan(const TournamentConfig& c, rating::Store& store) {
    return TournamentRunner(c, find_fake("fake"), store, never_played, simple_fit, plan_only()).run().to_play;
}

// Each job goes through its file form, is played from what was read back, and its result goes
// through its file form before it is ingested: what a cluster run does.
void play_through_files(const std::vector<Job>& jobs, TournamentStore& store, const std::string& name) {
    ResultIngester ingester(store);
    for (const Job& job : jobs) {
        const nlohmann::json job_file = job_to_json({name, job}, find_fake("fake"));
        const MatchJob read = job_from_json(nlohmann::json::parse(job_file.dump()), "job", find_fake);
        const nlohmann::json result_file = result_to_json(play_job(read, fake_match));
        CHECK(ingester.ingest(result_from_json(nlohmann::json::parse(result_file.dump()), "result")) ==
              IngestStatus::stored);
    }
}

std::map<std::string, MatchRecord> comparable(std::map<std::string, MatchRecord> results) {
    // Timings differ between runs, and the in-process run keeps files beside its store (jobs
    // played without --logs keep none); everything else must not differ.
    for (auto& [key, r] : results) {
        r.started_at.clear(), r.wall_s = 0, r.machine_load = 0;
        r.transcript_path.clear(), r.replay_path.clear();
    }
    return results;
}

}  // namespace

TEST_CASE("planning, playing jobs and ingesting, round by round, stores what an in-process run stores") {
    const TournamentConfig c = config_of(8, 4, 2);  // rounds 2 and 3 are paired from earlier results
    auto in_process = rating::Store::open(temp_db("jobs-inproc").string(), rating::OpenMode::create_or_open);
    TournamentRunner(c, find_fake("fake"), in_process, fake_match, simple_fit, quiet(2)).run();

    auto by_jobs = rating::Store::open(temp_db("jobs-cluster").string(), rating::OpenMode::create_or_open);
    std::vector<std::size_t> planned;
    for (std::vector<Job> jobs = plan(c, by_jobs); !jobs.empty(); jobs = plan(c, by_jobs)) {
        planned.push_back(jobs.size());
        // Planned again before any result is in: the same matches, no new round.
        CHECK(plan(c, by_jobs).size() == jobs.size());
        TournamentStore store(by_jobs);
        play_through_files(jobs, store, c.name);
        REQUIRE(planned.size() < 10);
    }
    // The two independent rounds at once, then each dependent round alone.
    CHECK(planned == std::vector<std::size_t>{16, 8, 8});
    TournamentStore a(in_process), b(by_jobs);
    CHECK(comparable(a.results(c.name)) == comparable(b.results(c.name)));
    CHECK(a.stored_rounds(c.name).size() == b.stored_rounds(c.name).size());
    for (const auto& [index, round] : a.stored_rounds(c.name))
        CHECK(round.matches == b.stored_rounds(c.name).at(index).matches);
}

TEST_CASE("a job file gives back the request it was written from, with absolute bot folders") {
    auto store = rating::Store::open(temp_db("jobs-roundtrip").string(), rating::OpenMode::create_or_open);
    TournamentConfig c = config_of(4, 1, 1);
    c.bots[0].dir = "relative/folder";
    c.bots[1].env["SEAT_SECRET"] = "a b";
    const std::vector<Job> jobs = plan(c, store);
    REQUIRE(!jobs.empty());
    for (const Job& job : jobs) {
        const MatchJob read = job_from_json(job_to_json({c.name, job}, find_fake("fake")), "job", find_fake);
        CHECK(read.tournament == c.name);
        CHECK(read.job.match == job.match);
        CHECK(read.job.request.seed == job.request.seed);
        CHECK(read.job.request.deal_set == job.request.deal_set);
        CHECK(read.job.request.rotation == job.request.rotation);
        CHECK(read.job.request.limits == job.request.limits);
        REQUIRE(read.job.request.bots.size() == job.request.bots.size());
        for (std::size_t i = 0; i < job.request.bots.size(); ++i) {
            BotSpec expected = job.request.bots[i];
            expected.dir = expected.dir.empty() ? std::filesystem::current_path()
                                                : std::filesystem::absolute(expected.dir).lexically_normal();
            CHECK(read.job.request.bots[i] == expected);
        }
    }
}

TEST_CASE("a damaged job or result file is refused with its name and the reason") {
    auto store = rating::Store::open(temp_db("jobs-bad").string(), rating::OpenMode::create_or_open);
    const TournamentConfig c = config_of(4, 1, 1);
    const std::vector<Job> jobs = plan(c, store);
    REQUIRE(!jobs.empty());
    const nlohmann::json good = job_to_json({c.name, jobs[0]}, find_fake("fake"));
    auto refusal = [](const nlohmann::json& j) -> std::string {
        try {
            job_from_json(j, "jobs/x.json", find_fake);
        } catch (const UserError& e) {
            return e.what();
        }
        return "accepted";
    };
    nlohmann::json j = good;
    j["version"] = 99;
    CHECK(refusal(j).find("jobs/x.json: arbiter-match-job version 99") == 0);
    j = good;
    j.erase("seed");
    CHECK(refusal(j).find("jobs/x.json: bad match job") == 0);
    j = good;
    j["game"] = "chess";
    CHECK(refusal(j) == "jobs/x.json: no game 'chess'");
    j = good;
    j["bots"][0] = "name=x cmd=\"unterminated";
    CHECK(refusal(j).find("jobs/x.json: ") == 0);
    CHECK(refusal(nlohmann::json::array()).find("jobs/x.json: not an arbiter match job file") == 0);
    CHECK_THROWS_AS(result_from_json(good, "r.json"), UserError);  // a job is not a result
}

TEST_CASE("a result counts once, and one the database never planned is refused") {
    auto db = rating::Store::open(temp_db("jobs-ingest").string(), rating::OpenMode::create_or_open);
    const TournamentConfig c = config_of(4, 1, 1);
    const std::vector<Job> jobs = plan(c, db);
    REQUIRE(jobs.size() >= 2);
    TournamentStore store(db);
    ResultIngester ingester(store);
    const JobResult result = play_job({c.name, jobs[0]}, fake_match);
    CHECK(ingester.ingest(result) == IngestStatus::stored);
    CHECK(ingester.ingest(result) == IngestStatus::already_stored);
    CHECK(db.match_count() == 1);

    JobResult foreign = play_job({c.name, jobs[1]}, fake_match);
    foreign.match.key = "unit/r9/g0/s0";
    CHECK_THROWS_WITH_AS(ingester.ingest(foreign), doctest::Contains("no such match in its schedule"), UserError);
    foreign = play_job({c.name, jobs[1]}, fake_match);
    std::swap(foreign.match.bots[0], foreign.match.bots[1]);
    CHECK_THROWS_WITH_AS(ingester.ingest(foreign), doctest::Contains("other seats or seeds"), UserError);
    foreign = play_job({c.name, jobs[1]}, fake_match);
    foreign.tournament = "elsewhere";
    CHECK_THROWS_WITH_AS(ingester.ingest(foreign), doctest::Contains("no such tournament"), UserError);
    CHECK(db.match_count() == 1);
}
