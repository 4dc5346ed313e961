// The SPRT (rating/sprt.hpp): --sprt parsing, hand-derived cases, and LLR, Elo, LOS and the stop
// point against sprt_reference.py, an independent implementation of the published formulas run
// at test time.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "core/user_error.hpp"
#include "rating/sprt.hpp"

using namespace arb::rating;

namespace {

std::string error_of(const std::string& text) {
    try {
        parse_sprt(text);
    } catch (const arb::UserError& e) {
        return e.what();
    }
    return "";
}

std::vector<SprtObservation> parse_observations(const std::string& text) {
    std::vector<SprtObservation> out;
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        SprtObservation o;
        REQUIRE(std::sscanf(item.c_str(), "%d/%d/%d", &o.wins, &o.losses, &o.draws) == 3);
        out.push_back(o);
    }
    return out;
}

std::string run_reference() {
    const std::string command = std::string(ARBITER_PYTHON) + " " + SPRT_REFERENCE_SCRIPT;
    std::FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::string out;
    char buffer[4096];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
    REQUIRE(pclose(pipe) == 0);
    return out;
}

}  // namespace

TEST_CASE("--sprt strings: keys, defaults, ranges, one-line errors") {
    const SprtParams p = parse_sprt("elo0=-2.5 elo1=7 alpha=0.1 beta=0.2");
    CHECK(p.elo0 == -2.5);
    CHECK(p.elo1 == 7);
    CHECK(p.alpha == 0.1);
    CHECK(p.beta == 0.2);
    const SprtParams d = parse_sprt("elo1=10,alpha=0.01");
    CHECK(d.elo0 == 0);
    CHECK(d.elo1 == 10);
    CHECK(d.alpha == 0.01);
    CHECK(d.beta == 0.05);
    CHECK(to_string(p) == "elo0=-2.5 elo1=7 alpha=0.1 beta=0.2");
    CHECK(error_of("elo0=0 elo0=1") == "--sprt: 'elo0' is given twice");
    CHECK(error_of("elo2=3") == "--sprt: unknown key 'elo2' (the keys are elo0, elo1, alpha, beta)");
    CHECK(error_of("elo1") == "--sprt wants KEY=VALUE words (elo0, elo1, alpha, beta), not 'elo1'");
    CHECK(error_of("elo1=five") == "--sprt: 'elo1' wants a number, not 'five'");
    CHECK(error_of("elo1=nan") == "--sprt: 'elo1' wants a number, not 'nan'");
    CHECK(error_of("elo0=5 elo1=5") == "--sprt: elo0 (5) must be below elo1 (5)");
    CHECK(error_of("alpha=0.5") == "--sprt: alpha must be above 0 and below 0.5, not 0.5");
    CHECK(error_of("beta=0") == "--sprt: beta must be above 0 and below 0.5, not 0");
    CHECK(error_of("elo1=2000") == "--sprt: elo0 and elo1 must be from -1000 to 1000, not 2000");
    CHECK(error_of("  ") == "--sprt wants KEY=VALUE words, e.g. 'elo0=0 elo1=5 alpha=0.05 beta=0.05'");
    for (const char* bad : {"elo0=0 elo0=1", "elo1=five", "alpha=0.5"}) CHECK(error_of(bad).find('\n') == std::string::npos);
}

TEST_CASE("bounds are ln(beta/(1-alpha)) and ln((1-beta)/alpha)") {
    const SprtParams p = parse_sprt("alpha=0.05 beta=0.05");
    CHECK(p.lower_bound() == doctest::Approx(-2.944438979).epsilon(1e-9));
    CHECK(p.upper_bound() == doctest::Approx(2.944438979).epsilon(1e-9));
    const SprtParams q = parse_sprt("alpha=0.1 beta=0.2");
    CHECK(q.lower_bound() == std::log(0.2 / 0.9));
    CHECK(q.upper_bound() == std::log(0.8 / 0.1));
}

TEST_CASE("hand-derived: symmetric results under symmetric hypotheses give LLR 0") {
    // Mean 1/2 exactly and s0 + s1 = 1: the two constrained MLEs are mirror images, so every
    // log ratio cancels against its mirror.
    const SprtParams p = parse_sprt("elo0=-10 elo1=10");
    const std::vector<SprtObservation> obs = {{2, 0, 0}, {0, 2, 0}, {1, 1, 0}, {0, 0, 2}, {1, 0, 1}, {0, 1, 1}};
    const SprtSummary s = evaluate_sprt(p, obs, false);
    CHECK(s.mean == doctest::Approx(0.5).epsilon(1e-12));
    CHECK(std::abs(s.llr) < 1e-9);
    CHECK(s.elo == doctest::Approx(0).epsilon(1e-9));
    CHECK(s.los == doctest::Approx(0.5).epsilon(1e-9));
    CHECK(s.decision == SprtDecision::none);
    CHECK(s.denominator == 4);
    CHECK(s.distribution == std::vector<int>{1, 1, 2, 1, 1});  // pentanomial: LL, LD, WL+DD, WD, WW
    CHECK(s.wins == 4);
    CHECK(s.losses == 4);
    CHECK(s.draws == 4);
}

TEST_CASE("logistic Elo and score are inverse") {
    for (double elo : {-400.0, -35.5, 0.0, 5.0, 191.0}) CHECK(logistic_elo(logistic_score(elo)) == doctest::Approx(elo).epsilon(1e-12));
    CHECK(logistic_score(400) == doctest::Approx(10.0 / 11));
}

TEST_CASE("LLR, Elo, LOS and stop point equal an independent implementation (sprt_reference.py)") {
    std::istringstream lines(run_reference());
    std::string line;
    int cases = 0;
    while (std::getline(lines, line)) {
        const auto bar1 = line.find('|'), bar2 = line.rfind('|');
        SprtParams p;
        REQUIRE(std::sscanf(line.c_str(), "%lf %lf %lf %lf", &p.elo0, &p.elo1, &p.alpha, &p.beta) == 4);
        const auto obs = parse_observations(line.substr(bar1 + 1, bar2 - bar1 - 1));
        std::istringstream expect(line.substr(bar2 + 1));
        int stop = 0;
        double llr = 0, mean = 0, var = 0, elo = 0, err = 0, los = 0;
        std::string decision;
        expect >> stop >> llr >> mean >> var >> elo >> err >> los >> decision;
        REQUIRE(expect);
        CAPTURE(line.substr(0, 40));
        const SprtSummary s = evaluate_sprt(p, obs);
        CHECK(sprt_stop_index(p, obs) == stop);
        CHECK(s.llr == doctest::Approx(llr).epsilon(1e-9));
        CHECK(s.mean == doctest::Approx(mean).epsilon(1e-12));
        CHECK(s.variance == doctest::Approx(var).epsilon(1e-9));
        CHECK(s.elo == doctest::Approx(elo).epsilon(1e-9));
        CHECK(s.elo_error == doctest::Approx(err).epsilon(1e-9));
        CHECK(s.los == doctest::Approx(los).epsilon(1e-9));
        CHECK(std::string(s.decision == SprtDecision::accept_h1   ? "h1"
                          : s.decision == SprtDecision::accept_h0 ? "h0"
                                                                  : "none") == decision);
        ++cases;
    }
    CHECK(cases >= 12);
}

TEST_CASE("the stop decision: first prefix past a bound, then nothing more counts") {
    const SprtParams p = parse_sprt("elo0=0 elo1=50");
    std::vector<SprtObservation> wins(200, SprtObservation{2, 0, 0});
    const int stop = sprt_stop_index(p, wins);
    REQUIRE(stop < 200);
    const SprtSummary at = evaluate_sprt(p, wins);
    CHECK(at.observations == stop);
    CHECK(at.decision == SprtDecision::accept_h1);
    CHECK(at.llr >= p.upper_bound());
    std::vector<SprtObservation> before(wins.begin(), wins.begin() + stop - 1);
    CHECK(evaluate_sprt(p, before).decision == SprtDecision::none);
    // A caller that checked the first prefixes already starts after them, and gets the same.
    CHECK(sprt_stop_index(p, wins, stop - 3) == stop);
    CHECK(sprt_stop_index(p, wins, stop + 1) > stop);
    CHECK(evaluate_sprt_prefix(p, wins, stop).llr == at.llr);
    // Losses appended after the stop do not change the verdict of a sequential run.
    wins.insert(wins.end(), 500, SprtObservation{0, 2, 0});
    CHECK(evaluate_sprt(p, wins).decision == SprtDecision::accept_h1);
    CHECK(evaluate_sprt(p, wins, false).decision == SprtDecision::accept_h0);
}

TEST_CASE("the printed block") {
    const SprtParams p = parse_sprt("elo0=0 elo1=5");
    const std::vector<SprtObservation> obs = {{2, 0, 0}, {1, 1, 0}, {1, 0, 1}};
    const std::string text = format_sprt(evaluate_sprt(p, obs), p, "new", "old", "samurai, 2 games per deal set");
    CHECK(text.rfind("Results of new vs old (samurai, 2 games per deal set):\nElo: ", 0) == 0);
    CHECK(text.find("Deal sets: 3, Pairwise: 4-1-1 (W-L-D), Points: 4.5 (75.00 %)\n") != std::string::npos);
    CHECK(text.find("Ptnml(0-2): [0, 0, 1, 1, 1]\n") != std::string::npos);
    CHECK(text.find(" (-2.94, 2.94) [0.00, 5.00]\n") != std::string::npos);
    CHECK(format_sprt(evaluate_sprt(p, obs), std::nullopt, "a", "b", "x").find("LLR") == std::string::npos);
}
