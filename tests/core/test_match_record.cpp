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
