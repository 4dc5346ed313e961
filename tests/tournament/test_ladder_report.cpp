// The nightly ladder (verdicts, exit codes, resume) and the HTML report, over the fake game
// and a real SQLite store.
#include <doctest/doctest.h>

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/user_error.hpp"
#include "arbiter/ladder/ladder.hpp"
#include "arbiter/report/html_report.hpp"
#include "fake_game.hpp"
#include "tests/test_scratch.hpp"

using namespace arb;

namespace {

std::filesystem::path temp_dir(const std::string& name) {
    const auto dir = arb::testing::fresh_scratch("ladder-" + name);
    return dir;
}

ladder::LadderRequest request_for(const std::string& bot_name, const std::filesystem::path& dir) {
    ladder::LadderRequest r;
    r.config.game = "fake";
    r.config.seed = 11;
    r.config.players = 4;
    for (const char* name : {"alpha1", "beta2", "gamma3"})
        r.config.bots.push_back(parse_bot_spec(std::string("name=") + name + " cmd=/bin/true"));
    r.config.ladder.target_interval = 1;  // never narrow enough: the game budget decides
    r.config.ladder.max_matches = 32;
    r.config.out_dir = (dir / "out").string();
    r.new_bot = parse_bot_spec("name=" + bot_name + " cmd=/bin/true");
    r.jobs = 2;
    return r;
}

std::string read(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

TEST_CASE("version families") {
    CHECK(ladder::family_of("mybot-1.3") == "mybot");
    CHECK(ladder::family_of("mybot@v2") == "mybot");
    CHECK(ladder::family_of("my-bot_v7") == "my-bot");
    CHECK(ladder::family_of("heuristic") == "heuristic");
    CHECK(ladder::family_of("random-2") == "random");
}

TEST_CASE("ladder verdicts: baseline, better, worse, broken, a finished run replays nothing") {
    const auto dir = temp_dir("verdicts");
    auto store = rating::Store::open((dir / "ladder.sqlite").string(), rating::OpenMode::create_or_open);
    const GameDescriptor game = test::fake_game();

    const auto first = ladder::run_ladder(request_for("hero-1.4", dir), game, store, test::fake_match);
    CHECK(first.verdict == ladder::Verdict::baseline);
    CHECK(ladder::exit_code(first.verdict) == ladder::kExitBaseline);
    CHECK(first.matches_this_run == 32);

    const auto better = ladder::run_ladder(request_for("hero-1.9", dir), game, store, test::fake_match);
    REQUIRE(better.previous == std::optional<std::string>("hero-1.4"));
    CHECK(better.verdict == ladder::Verdict::better);
    CHECK(better.los > 0.95);
    CHECK(ladder::exit_code(better.verdict) == 0);
    CHECK(better.snapshot_id > first.snapshot_id);

    const auto worse = ladder::run_ladder(request_for("hero-2.0", dir), game, store, test::fake_match);
    CHECK(worse.previous == std::optional<std::string>("hero-1.9"));
    CHECK(worse.verdict == ladder::Verdict::worse);
    CHECK(ladder::exit_code(worse.verdict) == ladder::kExitWorse);
    const auto json = nlohmann::json::parse(worse.to_json());
    CHECK(json["verdict"] == "worse");
    CHECK(json["exit_code"] == 4);

    // Same command again: the budget is spent, nothing more is played, same verdict.
    const auto again = ladder::run_ladder(request_for("hero-2.0", dir), game, store, test::fake_match);
    CHECK(again.matches_this_run == 0);
    CHECK(again.verdict == ladder::Verdict::worse);

    const auto broken = ladder::run_ladder(request_for("crash-3", dir), game, store, test::fake_match);
    CHECK(broken.verdict == ladder::Verdict::broken);
    CHECK(broken.matches_this_run < 32);  // stopped early, not retried to the budget

    // A name already registered with another command is refused.
    auto clash = request_for("hero-1.9", dir);
    clash.new_bot = parse_bot_spec("name=hero-1.9 cmd=/bin/false");
    CHECK_THROWS_AS(ladder::run_ladder(clash, game, store, test::fake_match), UserError);
}

TEST_CASE("a stopped ladder run stores its matches without a verdict, the rerun ends as an unstopped one") {
    const GameDescriptor game = test::fake_game();
    const auto ref_dir = temp_dir("stop-reference");
    auto ref_store = rating::Store::open((ref_dir / "ladder.sqlite").string(), rating::OpenMode::create_or_open);
    (void)ladder::run_ladder(request_for("hero-1.4", ref_dir), game, ref_store, test::fake_match);
    const auto reference = ladder::run_ladder(request_for("hero-1.9", ref_dir), game, ref_store, test::fake_match);

    const auto dir = temp_dir("stop");
    auto store = rating::Store::open((dir / "ladder.sqlite").string(), rating::OpenMode::create_or_open);
    (void)ladder::run_ladder(request_for("hero-1.4", dir), game, store, test::fake_match);
    std::atomic<int> started{0};
    std::atomic<bool> stop{false};
    auto play = [&](const MatchRequest& r) {
        if (++started == 6) stop = true;  // the request comes while the sixth match is played
        return test::fake_match(r);
    };
    auto stopped_request = request_for("hero-1.9", dir);
    stopped_request.stop_requested = [&] { return stop.load(); };
    const auto stopped = ladder::run_ladder(stopped_request, game, store, play);
    CHECK(stopped.interrupted);
    CHECK(stopped.matches_this_run == started.load());
    CHECK(stopped.matches_this_run < 32);
    CHECK(stopped.snapshot_id == 0);  // no verdict, no snapshot

    const auto resumed = ladder::run_ladder(request_for("hero-1.9", dir), game, store, test::fake_match);
    CHECK_FALSE(resumed.interrupted);
    CHECK(resumed.matches_this_run == 32 - stopped.matches_this_run);
    CHECK(resumed.matches_total == reference.matches_total);
    CHECK(resumed.verdict == reference.verdict);
    CHECK(resumed.los == doctest::Approx(reference.los));
    CHECK(resumed.ratings_table == reference.ratings_table);
}

TEST_CASE("the report has ratings, history, LOS and failures with transcript links") {
    const auto dir = temp_dir("report");
    const auto db = (dir / "ladder.sqlite").string();
    {
        auto store = rating::Store::open(db, rating::OpenMode::create_or_open);
        const GameDescriptor game = test::fake_game();
        ladder::run_ladder(request_for("hero-1.4", dir), game, store, test::fake_match);
        ladder::run_ladder(request_for("crash-1.5", dir), game, store, test::fake_match);
    }
    auto store = rating::Store::open(db, rating::OpenMode::read_only);
    // The fake game writes no transcripts; the report links only files that exist.
    for (const auto& m : store.matches()) {
        REQUIRE_FALSE(m.record.transcript_path.empty());
        std::filesystem::create_directories(std::filesystem::path(m.record.transcript_path).parent_path());
        std::ofstream(m.record.transcript_path) << "transcript\n";
    }
    report::ReportOptions options;
    options.out_dir = dir / "report";
    const auto summary = report::write_html_report(store, options);
    CHECK(summary.games == 1);
    const std::string html = read(summary.page);
    CHECK(html.find("<h2>fake</h2>") != std::string::npos);
    CHECK(html.find("hero-1.4") != std::string::npos);
    CHECK(html.find("Likelihood of superiority") != std::string::npos);
    CHECK(html.find("crash-1.5 (failed every match)") != std::string::npos);
    CHECK(html.find("href=\"../out/ladder/fake/crash-1.5/r0-s0/transcript.txt\"") != std::string::npos);
    CHECK(html.find("Rating history") != std::string::npos);
    // The ladder's matches fold by round under the bot that played them.
    CHECK(html.find("<summary>ladder/fake/hero-1.4/r0 &middot; 4 matches</summary>") != std::string::npos);
    CHECK(html.find("<summary>ladder/fake/crash-1.5/r1 &middot; 4 matches, <span class=\"bad\">4 with failed seats") !=
          std::string::npos);
    if (summary.charts) {
        CHECK(html.find("<canvas id=\"ratings-0\"") != std::string::npos);
        CHECK(html.find("<script src=") == std::string::npos);  // nothing fetched: Chart.js is inlined
    }
    CHECK(report::escape_html("<a href=\"x\">&</a>") == "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;");

    options.game = "nope";
    CHECK_THROWS_AS(report::write_html_report(store, options), UserError);
}

TEST_CASE("duplicate-style history: one comparison per pair per group, faults lose") {
    auto match = [](std::vector<std::pair<std::string, double>> seats, int faulty = -1) {
        MatchRecord r;
        for (std::size_t i = 0; i < seats.size(); ++i) {
            ParticipantResult p;
            p.bot = seats[i].first;
            p.score = seats[i].second;
            if (static_cast<int>(i) == faulty) p.status = SeatStatus::timeout;
            r.participants.push_back(p);
        }
        return r;
    };
    // Group g1: A wins the sum (10+1 > 2+8), B and C draw on sums; group g2: C times out once.
    const MatchRecord r1 = match({{"A", 10}, {"B", 2}, {"C", 5}});
    const MatchRecord r2 = match({{"B", 8}, {"C", 5}, {"A", 1}});
    const MatchRecord r3 = match({{"A", 3}, {"B", 4}, {"C", 0}}, 2);
    const MatchRecord r4 = match({{"B", 1}, {"C", 9}, {"A", 7}});
    std::map<std::string, std::vector<const MatchRecord*>> groups{{"g1", {&r1, &r2}}, {"g2", {&r3, &r4}}};
    const auto h = tournament::build_duplicate_history({"A", "B", "C"}, groups);
    REQUIRE(h.results.games().size() == 6);
    using rating::Outcome;
    const auto& g = h.results.games();
    CHECK(g[0] == rating::PairwiseGame{0, 1, Outcome::white_wins});  // A-B: 11 > 10
    CHECK(g[1] == rating::PairwiseGame{0, 2, Outcome::white_wins});  // A-C: 11 > 10
    CHECK(g[2] == rating::PairwiseGame{1, 2, Outcome::draw});        // B-C: 10 = 10
    CHECK(g[3] == rating::PairwiseGame{0, 1, Outcome::white_wins});  // g2, clean rotation only: A 7 > B 1
    CHECK(g[4] == rating::PairwiseGame{0, 2, Outcome::white_wins});  // C faulted: loses
    CHECK(g[5] == rating::PairwiseGame{1, 2, Outcome::white_wins});
    CHECK(h.meetings[0 * 3 + 1] == 2);
}

TEST_CASE("ladder with an SPRT: the previous version in every round, a stop at a bound, the verdict from the test") {
    const auto dir = temp_dir("sprt");
    auto store = rating::Store::open((dir / "ladder.sqlite").string(), rating::OpenMode::create_or_open);
    const GameDescriptor game = test::fake_game();
    CHECK(ladder::run_ladder(request_for("hero-1.4", dir), game, store, test::fake_match).verdict ==
          ladder::Verdict::baseline);

    auto request = request_for("hero-1.9", dir);
    request.config.ladder.max_matches = 4000;
    request.config.ladder.sprt = rating::parse_sprt("elo0=0 elo1=50");
    const auto better = ladder::run_ladder(request, game, store, test::fake_match);
    REQUIRE(better.sprt);
    CHECK(better.verdict == ladder::Verdict::better);
    CHECK(better.sprt->decision == rating::SprtDecision::accept_h1);
    CHECK(better.stop_reason.rfind("SPRT: H1 accepted (LLR ", 0) == 0);
    CHECK(better.matches_this_run < 4000);
    CHECK(better.sprt->observations == better.rounds);  // hero-1.4 sat in every round
    CHECK(better.sprt->wins + better.sprt->losses + better.sprt->draws == 4 * better.rounds);
    CHECK(better.to_text().find("LLR: ") != std::string::npos);
    CHECK(nlohmann::json::parse(better.to_json())["sprt"]["decision"] == "H1");

    // The same command again: the bound is already reached, nothing is played.
    const auto again = ladder::run_ladder(request, game, store, test::fake_match);
    CHECK(again.matches_this_run == 0);
    CHECK(again.verdict == ladder::Verdict::better);
    CHECK(again.sprt->llr == better.sprt->llr);

    auto weaker = request_for("hero-2.2", dir);  // strength 2 against hero-1.9's 9
    weaker.config.ladder.max_matches = 4000;
    weaker.config.ladder.sprt = rating::parse_sprt("elo0=0 elo1=50");
    const auto worse = ladder::run_ladder(weaker, game, store, test::fake_match);
    CHECK(worse.verdict == ladder::Verdict::worse);
    CHECK(worse.sprt->decision == rating::SprtDecision::accept_h0);
    CHECK(worse.stop_reason.rfind("SPRT: H0 accepted (LLR ", 0) == 0);
}
