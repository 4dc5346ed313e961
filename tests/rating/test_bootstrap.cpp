// The bootstrap over matches (rating/bootstrap.hpp): reproducible to the byte, the store's
// resampling units, and its calibration on identical bots in 4-seat matches, where bayeselo's
// intervals (every pairwise result taken as independent) are too narrow.
//
// The calibration's size comes from ARBITER_CALIBRATION_RUNS (default 40 tournaments); the longer
// check in docs/rating.md runs the same case with 400:
//   ARBITER_CALIBRATION_RUNS=400 build/release/tests/rating/test_bootstrap -tc='*calibration*' -s
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "core/match_record.hpp"
#include "core/rng.hpp"
#include "rating/bootstrap.hpp"
#include "rating/store.hpp"
#include "rating/synthetic.hpp"

using namespace arb;
using namespace arb::rating;
namespace fs = std::filesystem;

namespace {

std::string temp_db(const std::string& name) {
    const fs::path dir = fs::path(ARBITER_BINARY_DIR) / "test-tmp" / "bootstrap" / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return (dir / "results.db").string();
}

EloOptions tournament_options() {
    EloOptions o;
    o.advantage = 0;
    o.threads = 1;
    return o;
}

// One match of `bots` in seat order: every seat draws a fresh random score (a random bot
// re-seeded at each launch) plus the deal's bias for the seat; pairs by rank.
MatchRecord random_match(const std::vector<std::string>& bots, const std::vector<int>& deal_bias, std::uint64_t seed) {
    Rng rng(seed);
    MatchRecord m;
    m.game = "calibration";
    m.seed = seed;
    m.started_at = "2026-11-25T12:00:00Z";
    m.end_reason = "completed";
    for (std::size_t s = 0; s < bots.size(); ++s) {
        ParticipantResult p;
        p.bot = bots[s];
        p.command = "./random";
        p.seat = static_cast<int>(s);
        p.score = static_cast<double>(rng.below(1000) + deal_bias[s]);
        m.participants.push_back(p);
    }
    assign_ranks_by_score(m.participants);
    m.pairs = derive_pairs_by_rank(m.participants);
    return m;
}

// A seed-000-like tournament of 8 identical bots: each round, two groups of 4, each group in its
// 4 cyclic rotations on one deal set. Stored under tournament `name` with schedule keys.
void store_tournament(Store& store, const std::string& name, int rounds, std::uint64_t seed) {
    std::vector<std::string> bots;
    for (int b = 0; b < 8; ++b) bots.push_back(fmt::format("copy{}", b));
    store.transaction([&] {
        for (int round = 0; round < rounds; ++round) {
            Rng draw(derive_seed(seed, {static_cast<std::uint64_t>(round)}));
            std::vector<std::string> order = bots;
            draw.shuffle(std::span<std::string>(order));
            for (int group = 0; group < 2; ++group) {
                std::vector<int> bias(4);
                for (int& b : bias) b = static_cast<int>(draw.below(500));
                for (int s = 0; s < 4; ++s) {
                    std::vector<std::string> seats;
                    for (int i = 0; i < 4; ++i) seats.push_back(order[group * 4 + (i + s) % 4]);
                    const auto match_seed = derive_seed(seed, {static_cast<std::uint64_t>(round),
                                                               static_cast<std::uint64_t>(group),
                                                               static_cast<std::uint64_t>(s), 1});
                    MatchRecord m = random_match(seats, bias, match_seed);
                    m.deal_set = derive_seed(seed, {static_cast<std::uint64_t>(round)});
                    m.rotation = s;
                    store.insert_match(m, name, fmt::format("{}/r{}/g{}/s{}", name, round, group, s));
                }
            }
        }
    });
}

struct Tally {
    int pairs = 0;
    int disjoint = 0;  // the two identical bots' intervals do not overlap
    int extreme = 0;   // LOS < 5% or > 95%
    double share_disjoint() const { return static_cast<double>(disjoint) / pairs; }
    double share_extreme() const { return static_cast<double>(extreme) / pairs; }

    void add(const RatingResult& fit) {
        const std::size_t n = fit.model_elo.size();
        for (const RatingRow& a : fit.rows) {
            for (const RatingRow& b : fit.rows) {
                if (a.player >= b.player) continue;
                ++pairs;
                if (a.elo - a.minus > b.elo + b.plus || b.elo - b.minus > a.elo + a.plus) ++disjoint;
                const double los = fit.los[static_cast<std::size_t>(a.player) * n + b.player];
                if (los < 0.05 || los > 0.95) ++extreme;
            }
        }
    }
};

int calibration_runs() {
    const char* text = std::getenv("ARBITER_CALIBRATION_RUNS");
    return text ? std::max(1, std::atoi(text)) : 40;
}

}  // namespace

TEST_CASE("the bootstrap gives the same bytes for a seed, whatever the thread count") {
    SyntheticSpec spec;
    spec.players = 6;
    spec.games = 300;
    spec.seed = 5;
    const SyntheticData data = generate_synthetic(spec);
    std::vector<std::int64_t> units(data.results.games().size());
    for (std::size_t k = 0; k < units.size(); ++k) units[k] = static_cast<std::int64_t>(k / 3);
    EloOptions options = tournament_options();
    BootstrapOptions b;
    b.samples = 60;
    b.seed = 9;
    b.threads = 1;
    const BootstrapResult one = bootstrap_ratings(data.results, units, options, b);
    b.threads = 3;
    const BootstrapResult three = bootstrap_ratings(data.results, units, options, b);
    CHECK(one.lower == three.lower);
    CHECK(one.upper == three.upper);
    CHECK(one.los == three.los);
    CHECK(one.units == 100);
    b.seed = 10;
    const BootstrapResult other = bootstrap_ratings(data.results, units, options, b);
    CHECK(other.upper != one.upper);
    for (std::size_t p = 0; p < one.lower.size(); ++p) {
        CHECK(one.lower[p] < one.upper[p]);
        CHECK(one.los[p * one.lower.size() + p] == 0.5);
    }
    units.pop_back();
    CHECK_THROWS_AS(bootstrap_ratings(data.results, units, options, b), std::invalid_argument);
}

TEST_CASE("the store groups a scheduled group's seatings, and unscheduled rotations by deal set") {
    Store store = Store::open(temp_db("units"), OpenMode::create_or_open);
    const std::vector<int> bias{0, 0, 0};
    const std::vector<std::string> bots{"a", "b", "c"};
    // Two seatings of one group, one of another group, then two rotations of one deal set without
    // a key, then a lone match.
    store.insert_match(random_match(bots, bias, 1), std::string("t"), std::string("t/r0/g0/s0"));
    store.insert_match(random_match(bots, bias, 2), std::string("t"), std::string("t/r0/g0/s1"));
    store.insert_match(random_match(bots, bias, 3), std::string("t"), std::string("t/r0/g1/s0"));
    MatchRecord dealt = random_match(bots, bias, 4);
    dealt.deal_set = 77;
    store.insert_match(dealt);
    dealt.rotation = 1;
    store.insert_match(dealt);
    store.insert_match(random_match(bots, bias, 5));
    std::vector<std::int64_t> units;
    const ResultSet results = store.pair_games({}, &units);
    REQUIRE(results.games().size() == 18);
    REQUIRE(units.size() == 18);
    const std::vector<std::int64_t> expected{0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3};
    CHECK(units == expected);
}

// Identical bots: any rating difference is luck. Honest 95% intervals leave LOS outside 5..95%
// for about 10% of the pairs and almost never fail to overlap; intervals that take the six
// pairs of a 4-seat match as independent do both far more often.
TEST_CASE("calibration: identical bots in 4-seat matches, the bootstrap over matches holds, bayeselo does not") {
    const int runs = calibration_runs();
    const int rounds = 12;
    Store store = Store::open(temp_db("calibration"), OpenMode::create_or_open);
    Tally bayeselo, by_match, by_pair;
    EloOptions options = tournament_options();
    options.want_los = true;  // bayeselo's LOS, as `arbiter los` shows it
    BootstrapOptions b;
    b.samples = 100;
    b.threads = 1;
    for (int run = 0; run < runs; ++run) {
        const std::string name = fmt::format("cal{}", run);
        store_tournament(store, name, rounds, derive_seed(2026, {static_cast<std::uint64_t>(run)}));
        MatchFilter filter;
        filter.tournament = name;
        std::vector<std::int64_t> units;
        const ResultSet results = store.pair_games(filter, &units);
        REQUIRE(units.size() == results.games().size());
        const RatingResult fit = rate(results, options);
        bayeselo.add(fit);
        b.seed = static_cast<std::uint64_t>(run) + 1;
        RatingResult boot = fit;
        apply_bootstrap(boot, bootstrap_ratings(results, units, options, b));
        by_match.add(boot);
        // The same bootstrap over single pairwise results: what a bootstrap that ignored the
        // matches would show.
        std::vector<std::int64_t> each(units.size());
        for (std::size_t k = 0; k < each.size(); ++k) each[k] = static_cast<std::int64_t>(k);
        RatingResult pairs = fit;
        apply_bootstrap(pairs, bootstrap_ratings(results, each, options, b));
        by_pair.add(pairs);
    }
    MESSAGE(fmt::format("{} tournaments, {} pairs of identical bots", runs, bayeselo.pairs));
    for (const auto& [label, t] : {std::pair{"bayeselo", &bayeselo}, std::pair{"bootstrap over matches", &by_match},
                                   std::pair{"bootstrap over pairs", &by_pair}})
        MESSAGE(fmt::format("{:<24} intervals disjoint {:5.1f}%   LOS <5% or >95% {:5.1f}%", label,
                            100 * t->share_disjoint(), 100 * t->share_extreme()));
    // Chance alone gives 10% extreme LOS and about 1% disjoint intervals; the bounds leave room
    // for the sampling error of `runs` tournaments and a percentile bootstrap's slight
    // narrowness on 24 groups (measured over 400 tournaments: 11.9% and 2.4%).
    CHECK(by_match.share_extreme() < 0.15);
    CHECK(by_match.share_extreme() > 0.05);
    CHECK(by_match.share_disjoint() < 0.04);
    // Bayeselo's intervals and a pairwise bootstrap are too narrow here, well beyond chance
    // (400 tournaments: 28.1% and 15.6% extreme LOS).
    CHECK(bayeselo.share_extreme() > 0.20);
    CHECK(bayeselo.share_disjoint() > 0.05);
    CHECK(by_pair.share_extreme() > 0.15);
}
