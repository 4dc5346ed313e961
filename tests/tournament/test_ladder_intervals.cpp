// --intervals bootstrap in the ladder (its stop and verdict) and in the HTML report, over the
// fake game and a real SQLite store: the bootstrap's numbers are used, said, and reproducible.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "arbiter/ladder/ladder.hpp"
#include "arbiter/report/html_report.hpp"
#include "fake_game.hpp"
#include "tests/test_scratch.hpp"

using namespace arb;

namespace {

std::filesystem::path temp_dir(const std::string& name) {
    const auto dir = arb::testing::fresh_scratch("intervals-" + name);
    return dir;
}

ladder::LadderRequest request_for(const std::string& bot_name, rating::IntervalSource intervals) {
    ladder::LadderRequest r;
    r.config.game = "fake";
    r.config.seed = 11;
    r.config.players = 4;
    for (const char* name : {"alpha1", "beta2", "gamma3"})
        r.config.bots.push_back(parse_bot_spec(std::string("name=") + name + " cmd=/bin/true"));
    r.config.ladder.target_interval = 1;  // never narrow enough: the game budget decides
    r.config.ladder.max_matches = 32;
    r.new_bot = parse_bot_spec("name=" + bot_name + " cmd=/bin/true");
    r.jobs = 2;
    r.intervals = intervals;
    r.bootstrap.samples = 100;
    r.bootstrap.threads = 2;
    return r;
}

// The baseline and one newer version, both rated with `intervals`, in a fresh store.
ladder::LadderOutcome two_versions(const std::filesystem::path& dir, rating::IntervalSource intervals) {
    auto store = rating::Store::open((dir / "ladder.sqlite").string(), rating::OpenMode::create_or_open);
    const GameDescriptor game = test::fake_game();
    (void)ladder::run_ladder(request_for("hero-1.4", intervals), game, store, test::fake_match);
    return ladder::run_ladder(request_for("hero-1.9", intervals), game, store, test::fake_match);
}

std::string read(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

TEST_CASE("the ladder judges by the bootstrap's LOS when asked, says so, and reproduces it") {
    const auto bayeselo = two_versions(temp_dir("bayeselo"), rating::IntervalSource::bayeselo);
    const auto boot = two_versions(temp_dir("boot"), rating::IntervalSource::bootstrap);
    const auto again = two_versions(temp_dir("again"), rating::IntervalSource::bootstrap);
    CHECK(bayeselo.intervals.empty());
    CHECK(bayeselo.to_text().find("intervals and LOS") == std::string::npos);
    CHECK(nlohmann::json::parse(bayeselo.to_json()).count("intervals") == 0);

    // Same matches (same seed), same ratings; the intervals and LOS are the bootstrap's.
    CHECK(boot.elo == bayeselo.elo);
    // The fake game's results are nearly deterministic, so its bootstrap is narrower than
    // bayeselo's (prior-widened) intervals, and the ladder's cautious rule keeps bayeselo's.
    CHECK(boot.verdict == ladder::Verdict::better);  // the fake game's hero-1.9 is much stronger
    CHECK(boot.los > 0.95);
    // Both versions' rounds: 8 each.
    CHECK(boot.intervals.find("bootstrap, 100 resamples of 16 ladder rounds") == 0);
    CHECK(boot.plus >= bayeselo.plus);  // never narrower than bayeselo's
    CHECK(boot.minus >= bayeselo.minus);
    CHECK(boot.to_text().find("intervals and LOS: bootstrap") != std::string::npos);
    CHECK(nlohmann::json::parse(boot.to_json())["intervals"] == boot.intervals);

    CHECK(again.los == boot.los);
    CHECK(again.plus == boot.plus);
    CHECK(again.minus == boot.minus);
    CHECK(again.ratings_table == boot.ratings_table);
}

TEST_CASE("the report's rating table and LOS say which intervals they show") {
    const auto dir = temp_dir("report");
    (void)two_versions(dir, rating::IntervalSource::bayeselo);
    auto store = rating::Store::open((dir / "ladder.sqlite").string(), rating::OpenMode::read_only);
    report::ReportOptions options;
    options.out_dir = dir / "plain";
    const std::string plain = read(report::write_html_report(store, options).page);
    CHECK(plain.find("<h3>Ratings (BayesElo, 95% intervals)</h3>") != std::string::npos);
    CHECK(plain.find("bootstrap") == std::string::npos);

    options.out_dir = dir / "boot";
    options.intervals = rating::IntervalSource::bootstrap;
    options.bootstrap.samples = 50;
    const std::string boot = read(report::write_html_report(store, options).page);
    CHECK(boot.find("<h3>Ratings (BayesElo, 95% bootstrap intervals: 50 resamples of 16 matches or deal sets)</h3>") !=
          std::string::npos);
    CHECK(boot.find("share of bootstrap resamples rating the row bot higher") != std::string::npos);
}
