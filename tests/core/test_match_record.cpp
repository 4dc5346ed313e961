#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "core/match_record.hpp"

using namespace arb;

namespace {
std::vector<ParticipantResult> with_scores(std::vector<double> scores) {
    std::vector<ParticipantResult> ps;
    for (std::size_t i = 0; i < scores.size(); ++i) {
        ParticipantResult p;
        p.bot = "b" + std::to_string(i);
        p.seat = static_cast<int>(i);
        p.score = scores[i];
        ps.push_back(p);
    }
    assign_ranks_by_score(ps);
    return ps;
}
}  // namespace

TEST_CASE("ranks: ties share the better rank") {
    auto ps = with_scores({10, 30, 10, 5});
    CHECK(ps[0].rank == 2);
    CHECK(ps[1].rank == 1);
    CHECK(ps[2].rank == 2);
    CHECK(ps[3].rank == 4);
}

TEST_CASE("pairs by rank: every pair once, draws on ties") {
    auto pairs = derive_pairs_by_rank(with_scores({10, 30, 10, 5}));
    REQUIRE(pairs.size() == 6);
    CHECK(pairs[0] == PairResult{0, 1, 0.0});
    CHECK(pairs[1] == PairResult{0, 2, 0.5});
    CHECK(pairs[2] == PairResult{0, 3, 1.0});
}

TEST_CASE("pairs, seed 000 rule: a faulty seat only loses to each other seat") {
    auto ps = with_scores({10, 30, 10, 5});
    auto pairs = derive_pairs_fault_loses(ps, 2);
    REQUIRE(pairs.size() == 3);
    CHECK(pairs[0] == PairResult{0, 2, 1.0});
    CHECK(pairs[1] == PairResult{1, 2, 1.0});
    CHECK(pairs[2] == PairResult{2, 3, 0.0});
    CHECK(derive_pairs_fault_loses(ps, std::nullopt).size() == 6);
}

TEST_CASE("match record JSON round-trip") {
    MatchRecord r;
    r.game = "planowanie";
    r.config_json = R"({"deals":"13"})";
    r.seed = 123456789012345ull;
    r.deal_set = 77;
    r.rotation = 2;
    r.participants = with_scores({1, 2});
    r.participants[1].status = SeatStatus::timeout;
    r.participants[1].usage.peak_memory_kib = 1234;
    r.pairs = derive_pairs_by_rank(r.participants);
    r.end_reason = "seat 1 timeout";
    r.turns = 13;
    const MatchRecord back = nlohmann::json::parse(nlohmann::json(r).dump()).get<MatchRecord>();
    CHECK(back == r);
}

TEST_CASE("why a seat failed: JSON round-trip, and records without it still read") {
    MatchRecord r;
    r.game = "ants";
    r.participants = with_scores({1, 2});
    r.participants[0].status = SeatStatus::crashed;
    r.participants[0].exit_code = 0;
    r.participants[1].status = SeatStatus::killed;
    r.participants[1].exit_signal = 9;
    r.participants[1].limit = "memory";
    r.participants[1].stderr_tail = "allocating\nstill allocating";
    const nlohmann::json j = r;
    CHECK(j["participants"][0]["exit_code"] == 0);
    CHECK(j["participants"][0]["exit_signal"].is_null());
    CHECK(j["participants"][1]["limit"] == "memory");
    CHECK(j.get<MatchRecord>() == r);

    nlohmann::json old = j;  // a record written before these fields existed
    for (auto& p : old["participants"]) {
        p.erase("exit_code");
        p.erase("exit_signal");
        p.erase("limit");
        p.erase("stderr_tail");
    }
    const MatchRecord read = old.get<MatchRecord>();
    CHECK_FALSE(read.participants[1].exit_signal);
    CHECK(read.participants[1].limit.empty());
    CHECK(read.participants[1].stderr_tail.empty());
}

TEST_CASE("failure summary names the status, limit, exit and detail") {
    ParticipantResult p;
    CHECK(failure_summary(p).empty());
    p.status = SeatStatus::timeout;
    p.limit = "time";
    p.exit_signal = 9;
    p.detail = "no complete reply within 1 s";
    CHECK(failure_summary(p) == "timeout, time limit, killed by signal 9 (SIGKILL): no complete reply within 1 s");
    p.exit_signal.reset();
    p.exit_code = 3;
    p.limit.clear();
    p.detail.clear();
    CHECK(failure_summary(p) == "timeout, exited with code 3");
}

TEST_CASE("stderr tail: the last 5 lines, at most 1 KiB, escaped when not UTF-8") {
    CHECK(stderr_tail_of("") == "");
    CHECK(stderr_tail_of("one\n") == "one");
    CHECK(stderr_tail_of("1\n2\n3\n4\n5\n6\n7\n\n") == "3\n4\n5\n6\n7");
    CHECK(stderr_tail_of("1\n2\n3\n4\n5") == "1\n2\n3\n4\n5");
    CHECK(stderr_tail_of("\n\n1\n2") == "1\n2");
    CHECK(stderr_tail_of("bad \xff byte\n") == "bad \\xFF byte");
    // One long line: its last kStderrTailBytes bytes.
    const std::string long_line(3000, 'x');
    CHECK(stderr_tail_of("a\n" + long_line) == std::string(kStderrTailBytes, 'x'));
    // Long lines: cut at the first line start inside the last kStderrTailBytes bytes.
    const std::string line600(600, 'y');
    CHECK(stderr_tail_of(line600 + "\n" + line600 + "\n" + "end") == line600 + "\nend");
    // A cut inside a UTF-8 character moves to the next character start, so nothing is escaped.
    std::string accents;
    for (int i = 0; i < 700; ++i) accents += "\xc3\xa9";  // é
    const std::string tail = stderr_tail_of(accents + "b");  // the cut falls inside an é
    CHECK(tail.size() == kStderrTailBytes - 1);
    CHECK(tail.find('\\') == std::string::npos);
}
