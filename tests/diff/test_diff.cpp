// arbiter diff's comparison: the first step where two matches part (a reply, else a line sent),
// on hand-made steps; transcripts without step marks numbered by exchange; the printed lines.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "arbiter/diff/diff.hpp"
#include "tests/test_scratch.hpp"

namespace {

using arb::MatchSteps;
using arb::SeatStepIo;
using arb::diff::FirstDifference;

SeatStepIo io(std::vector<std::string> sent, std::vector<std::string> reply) {
    SeatStepIo s;
    s.sent = std::move(sent);
    s.reply = std::move(reply);
    return s;
}

// Two bots over steps 0..3: each is sent "turn K" and replies "move K".
MatchSteps four_steps() {
    MatchSteps m;
    m.bots = {"a", "b"};
    m.marked = true;
    for (int k = 0; k < 4; ++k) {
        const std::string n = std::to_string(k);
        m.steps[k] = {io({"turn " + n}, {"move " + n, "go"}), io({"turn " + n}, {"move " + n, "go"})};
    }
    return m;
}

}  // namespace

TEST_CASE("the same steps do not differ") {
    const FirstDifference d = arb::diff::first_difference(four_steps(), four_steps());
    CHECK(d.kind == FirstDifference::Kind::none);
}

TEST_CASE("the first differing reply is the difference, with both sides' lines") {
    MatchSteps changed = four_steps();
    changed.steps[2][1].reply = {"go"};
    changed.steps[3][0].reply = {"other"};
    const FirstDifference d = arb::diff::first_difference(four_steps(), changed);
    CHECK(d.kind == FirstDifference::Kind::reply);
    CHECK(d.step == 2);
    CHECK(d.participant == 1);
    CHECK(d.old_lines == std::vector<std::string>{"move 2", "go"});
    CHECK(d.new_lines == std::vector<std::string>{"go"});
}

TEST_CASE("where several participants reply otherwise at one step, the version's is the difference") {
    MatchSteps changed = four_steps();
    changed.steps[2][0].reply = {"answer to the new move", "go"};
    changed.steps[2][1].reply = {"new move", "go"};
    FirstDifference d = arb::diff::first_difference(four_steps(), changed, 1);
    CHECK(d.step == 2);
    CHECK(d.participant == 1);
    CHECK(d.new_lines == std::vector<std::string>{"new move", "go"});
    // An earlier step's difference still comes first, whoever replied.
    changed.steps[1][0].reply = {"other"};
    d = arb::diff::first_difference(four_steps(), changed, 1);
    CHECK(d.step == 1);
    CHECK(d.participant == 0);
    // Without a version to prefer, participants are taken in order.
    CHECK(arb::diff::first_difference(four_steps(), changed).participant == 0);
}

TEST_CASE("a reply that differs wins over an earlier line sent that differs") {
    MatchSteps changed = four_steps();
    changed.steps[1][0].sent = {"turn 1", "time 12"};
    changed.steps[3][1].reply = {"move 4", "go"};
    const FirstDifference d = arb::diff::first_difference(four_steps(), changed);
    CHECK(d.kind == FirstDifference::Kind::reply);
    CHECK(d.step == 3);
}

TEST_CASE("with the same replies, the first differing line sent is the difference") {
    MatchSteps changed = four_steps();
    changed.steps[2][1].sent = {"turn 2", "extra"};
    changed.steps[3][0].sent = {"other"};
    const FirstDifference d = arb::diff::first_difference(four_steps(), changed);
    CHECK(d.kind == FirstDifference::Kind::sent);
    CHECK(d.step == 2);
    CHECK(d.participant == 1);
    CHECK(d.new_lines == std::vector<std::string>{"turn 2", "extra"});
}

TEST_CASE("a match that ends earlier or has fewer participants differs where the other goes on") {
    MatchSteps shorter = four_steps();
    shorter.steps.erase(3);
    FirstDifference d = arb::diff::first_difference(four_steps(), shorter);
    CHECK(d.kind == FirstDifference::Kind::reply);
    CHECK(d.step == 3);
    CHECK(d.participant == 0);
    CHECK(d.new_lines.empty());
    CHECK(d.old_lines == std::vector<std::string>{"move 3", "go"});

    MatchSteps alone = four_steps();
    for (auto& [step, seats] : alone.steps) seats.resize(1);
    alone.bots.resize(1);
    d = arb::diff::first_difference(alone, four_steps());
    CHECK(d.kind == FirstDifference::Kind::reply);
    CHECK(d.step == 0);
    CHECK(d.participant == 1);
    CHECK(d.old_lines.empty());
}

TEST_CASE("a transcript without step marks is numbered by each seat's requests") {
    const auto dir = arb::testing::fresh_scratch("diff-exchanges");
    const auto path = dir / "transcript.txt";
    std::ofstream(path) << "# seat p0: bot a: ./a\n"
                           "# seat p1: bot b: ./b\n"
                           "  0.000001 p0 > deal 1\n"
                           "  0.000002 p0 > hand AS KS\n"
                           "  0.000003 p1 > deal 1\n"
                           "  0.000004 p0 < = 1\n"
                           "  0.000005 p0 # charged 0.1 ms\n"
                           "  0.000006 # a note of the referee\n"
                           "  0.000007 p1 < = 2\n"
                           "  0.000008 p0 > play\n"
                           "  0.000009 p0 ! thinking\n"
                           "  0.000010 p0 < = AS\n";
    arb::MatchRecord record;
    record.participants.resize(2);
    record.participants[0].bot = "a";
    record.participants[1].bot = "b";
    const MatchSteps m = arb::diff::exchanges_by_participant(path, record);
    CHECK_FALSE(m.marked);
    REQUIRE(m.steps.count(1));
    REQUIRE(m.steps.count(2));
    CHECK(m.steps.at(1)[0].sent == std::vector<std::string>{"deal 1", "hand AS KS"});
    CHECK(m.steps.at(1)[0].reply == std::vector<std::string>{"= 1"});
    CHECK(m.steps.at(1)[1].reply == std::vector<std::string>{"= 2"});
    CHECK(m.steps.at(2)[0].sent == std::vector<std::string>{"play"});
    CHECK(m.steps.at(2)[0].reply == std::vector<std::string>{"= AS"});
    CHECK(m.steps.at(2)[1].empty());
}

TEST_CASE("the printed lines: differing matches with both replies, the changed results first, the summary") {
    arb::GameDescriptor game;
    game.name = "somegame";
    arb::diff::DiffPlan plan;
    plan.game = &game;
    plan.old_bot.name = "old";
    plan.new_bot.name = "new";
    plan.seats = 2;
    const auto record = [](int rank, double score, int other_rank) {
        arb::MatchRecord r;
        r.participants.resize(2);
        r.participants[0].rank = rank;
        r.participants[0].score = score;
        r.participants[1].rank = other_rank;
        r.participants[1].bot = "opp";
        return r;
    };
    arb::diff::DiffReport report;
    arb::diff::PairResult same;
    same.game = 0;
    same.seed = 1;
    same.marked = true;
    same.old_record = same.new_record = record(1, 12, 2);
    same.difference = {FirstDifference::Kind::reply, 17, 0, {"o 3 4 E", "go"}, {"o 3 4 N", "go"}};
    arb::diff::PairResult worse = same;
    worse.game = 1;
    worse.seed = 2;
    worse.new_record = record(2, 9, 1);
    worse.new_folder = "/nowhere/out/new/g1";
    worse.difference.participant = 1;
    worse.difference.step = 17;
    arb::diff::PairResult none = same;
    none.game = 2;
    none.difference = {};
    report.pairs = {same, worse, none};

    auto lines = arb::diff::report_lines(plan, report);
    REQUIRE(lines.size() == 4);
    CHECK(lines[0].starts_with("g1 seed 2 seat 0: first difference at step 17 (seat 1 (opp) against new replied "
                               "\"o 3 4 N\", against old \"o 3 4 E\"); won -> lost, score 12 -> 9"));
    // Where to look: the seat that replied otherwise, at that step.
    CHECK(lines[1] == "  look: arbiter show /nowhere/out/new/g1 --seat 1 --step 17");
    CHECK(lines[2] == "g0 seed 1 seat 0: first difference at step 17 (new replied \"o 3 4 N\", old \"o 3 4 E\"); "
                      "the same result (won, score 12)");
    CHECK(lines[3] == "2 of 3 matches differ; 1 changed result: +0 -1");
    // Without step marks, the seat's request number instead of --step.
    worse.marked = false;
    CHECK(arb::diff::look_line(worse) ==
          "arbiter show /nowhere/out/new/g1 --seat 1   (at its request number 17: the game marks no steps)");

    report.pairs = {none};
    report.old_again = {FirstDifference::Kind::reply, 4, 1, {"a"}, {"b"}};
    lines = arb::diff::report_lines(plan, report);
    REQUIRE(lines.size() == 2);
    CHECK(lines[0].starts_with("not deterministic: old differs from itself at step 4 of g0"));
    CHECK(lines[1].starts_with("no differences"));
}

TEST_CASE("the side-by-side page opens both viewers at the frame and relays their frames") {
    const std::string page = arb::diff::side_by_side_page("a <b>", "old/g0/viewer.html",
                                                          "new/g0/viewer.html", 6);
    CHECK(page.find("src=\"old/g0/viewer.html#frame=6\"") != std::string::npos);
    CHECK(page.find("src=\"new/g0/viewer.html#frame=6\"") != std::string::npos);
    CHECK(page.find("a &lt;b&gt;") != std::string::npos);
    CHECK(page.find("arbiterGo") != std::string::npos);
}
