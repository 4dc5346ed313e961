// The SPRT (rating/sprt.hpp): --sprt parsing, hand-derived cases, and LLR, Elo, LOS and the stop
// point against sprt_reference.py, an independent implementation of the published formulas run
// at test time.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

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
    CHECK(p.model == SprtModel::normalized);  // fastchess's default
    CHECK(to_string(p) == "elo0=-2.5 elo1=7 alpha=0.1 beta=0.2 model=normalized");
    // fastchess's option string, unchanged.
    const SprtParams f = parse_sprt("elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized");
    CHECK(f.model == SprtModel::normalized);
    CHECK(parse_sprt("model=logistic").model == SprtModel::logistic);
    CHECK(parse_sprt("model=bayesian").model == SprtModel::bayesian);
    CHECK(error_of("model=logistc") ==
          "--sprt: unknown model 'logistc' (did you mean 'logistic'?) (the models are normalized, logistic, bayesian)");
    CHECK(error_of("modle=logistic") ==
          "--sprt: unknown key 'modle' (did you mean 'model'?) (the keys are elo0, elo1, alpha, beta, model)");
    CHECK(error_of("elo0=0 elo0=1") == "--sprt: 'elo0' is given twice");
    CHECK(error_of("elo2=3") ==
          "--sprt: unknown key 'elo2' (did you mean 'elo0'?) (the keys are elo0, elo1, alpha, beta, model)");
    CHECK(error_of("elo1") == "--sprt wants KEY=VALUE words (elo0, elo1, alpha, beta, model), not 'elo1'");
    CHECK(error_of("elo1=five") == "--sprt: 'elo1' wants a number, not 'five'");
    CHECK(error_of("elo1=nan") == "--sprt: 'elo1' wants a number, not 'nan'");
    // fastchess's checks (SPRT::isValid), in its order and words: any alpha and beta in (0, 1)
    // whose sum is below 1.
    CHECK(error_of("elo0=5 elo1=5") == "--sprt: elo0 must be less than elo1, not elo0=5 elo1=5");
    CHECK(error_of("elo0=5 elo1=2 alpha=7") == "--sprt: elo0 must be less than elo1, not elo0=5 elo1=2");
    CHECK(error_of("alpha=1") == "--sprt: alpha must be a decimal number between 0 and 1, not 1");
    CHECK(error_of("alpha=-0.1 beta=2") == "--sprt: alpha must be a decimal number between 0 and 1, not -0.1");
    CHECK(error_of("beta=0") == "--sprt: beta must be a decimal number between 0 and 1, not 0");
    CHECK(error_of("beta=1.5") == "--sprt: beta must be a decimal number between 0 and 1, not 1.5");
    CHECK(error_of("alpha=0.5 beta=0.5") == "--sprt: sum of alpha and beta must be less than 1, not 0.5 + 0.5");
    CHECK(error_of("alpha=0.9 beta=0.3") == "--sprt: sum of alpha and beta must be less than 1, not 0.9 + 0.3");
    for (const char* fine : {"alpha=0.5", "beta=0.6", "alpha=0.3 beta=0.69", "alpha=0.01 beta=0.98"}) {
        CAPTURE(fine);
        CHECK(error_of(fine).empty());
        const SprtParams q = parse_sprt(fine);
        CHECK(q.lower_bound() < 0);  // alpha + beta < 1 keeps 0 between the bounds
        CHECK(q.upper_bound() > 0);
    }
    CHECK(error_of("elo1=2000") == "--sprt: elo0 and elo1 must be from -1000 to 1000, not 2000");
    CHECK(error_of("  ") == "--sprt wants KEY=VALUE words, e.g. 'elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized'");
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
    SprtParams p = parse_sprt("elo0=-10 elo1=10 model=logistic");
    const std::vector<SprtObservation> obs = {{2, 0, 0}, {0, 2, 0}, {1, 1, 0}, {0, 0, 2}, {1, 0, 1}, {0, 1, 1}};
    for (const SprtModel model : {SprtModel::normalized, SprtModel::bayesian}) {
        p.model = model;
        CHECK(std::abs(evaluate_sprt(p, obs, false).llr) < 1e-9);
        CHECK(std::abs(evaluate_sprt(p, obs, false).nelo) < 1e-12);
    }
    p.model = SprtModel::logistic;
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

namespace {

// Equal to 1e-9: absolutely below 1, relatively above (NaN equals NaN: nElo without spread).
bool equal_1e9(double ours, double reference) {
    if (std::isnan(reference)) return std::isnan(ours);
    return std::abs(ours - reference) <= 1e-9 * std::max(1.0, std::abs(reference));
}

SprtModel model_named(const std::string& name) { return parse_sprt("model=" + name).model; }

// Numbers as Python prints them: "nan" too (std::istream does not read it).
std::istream& operator>>(std::istream& in, double* value) {
    std::string word;
    if (in >> word) {
        char* end = nullptr;
        *value = std::strtod(word.c_str(), &end);
        if (end != word.c_str() + word.size()) in.setstate(std::ios::failbit);
    }
    return in;
}

// fastchess's W/D/L or pentanomial counts as deal sets of one game or of one game pair.
std::vector<SprtObservation> observations_of_counts(const std::string& kind, const std::vector<int>& c) {
    std::vector<SprtObservation> out;
    const auto add = [&](int count, SprtObservation o) { out.insert(out.end(), count, o); };
    if (kind == "wdl") {
        add(c.at(0), {1, 0, 0});
        add(c.at(1), {0, 0, 1});
        add(c.at(2), {0, 1, 0});
    } else {  // LL LD WL DD WD WW
        add(c.at(0), {0, 2, 0});
        add(c.at(1), {0, 1, 1});
        add(c.at(2), {1, 1, 0});
        add(c.at(3), {0, 0, 2});
        add(c.at(4), {1, 0, 1});
        add(c.at(5), {2, 0, 0});
    }
    return out;
}

}  // namespace

TEST_CASE("LLR, nElo, Elo, LOS and stop point equal an independent implementation (sprt_reference.py)") {
    std::istringstream lines(run_reference());
    std::string line;
    int sequential = 0, table = 0;
    std::set<std::string> models_seen;
    while (std::getline(lines, line)) {
        const auto bar1 = line.find('|'), bar2 = line.rfind('|');
        std::istringstream head(line.substr(0, bar1));
        std::string kind, model;
        SprtParams p;
        head >> kind >> p.elo0 >> p.elo1 >> p.alpha >> p.beta >> model;
        REQUIRE(head);
        p.model = model_named(model);
        CAPTURE(line.substr(0, 60));
        std::istringstream expect(line.substr(bar2 + 1));
        if (kind == "wdl" || kind == "ptnml") {
            std::istringstream counts_text(line.substr(bar1 + 1, bar2 - bar1 - 1));
            std::vector<int> counts;
            for (int c = 0; counts_text >> c;) counts.push_back(c);
            double llr = 0, nelo = 0, nelo_error = 0, elo = 0, elo_error = 0, los = 0;
            expect >> &llr >> &nelo >> &nelo_error >> &elo >> &elo_error >> &los;
            REQUIRE(expect);
            const SprtSummary s = evaluate_sprt(p, observations_of_counts(kind, counts), false);
            CHECK(equal_1e9(s.llr, llr));
            CHECK(equal_1e9(s.nelo, nelo));
            CHECK(equal_1e9(s.nelo_error, nelo_error));
            CHECK(equal_1e9(s.elo, elo));
            CHECK(equal_1e9(s.elo_error, elo_error));
            CHECK(equal_1e9(s.los, los));
            CHECK(s.wdl_figures == (model == "bayesian"));
            models_seen.insert(kind + " " + model);
            ++table;
            continue;
        }
        REQUIRE(kind == "seq");
        head >> p.seats;
        REQUIRE(head);
        const auto obs = parse_observations(line.substr(bar1 + 1, bar2 - bar1 - 1));
        int stop = 0;
        double llr = 0, mean = 0, var = 0, score = 0, elo = 0, err = 0, los = 0, nelo = 0, nelo_error = 0;
        std::string decision;
        expect >> stop >> &llr >> &mean >> &var >> &score >> &elo >> &err >> &los >> &nelo >> &nelo_error >> decision;
        REQUIRE(expect);
        const SprtSummary s = evaluate_sprt(p, obs);
        CHECK(sprt_stop_index(p, obs) == stop);
        CHECK(equal_1e9(s.llr, llr));
        CHECK(s.mean == doctest::Approx(mean).epsilon(1e-12));
        CHECK(equal_1e9(s.variance, var));
        CHECK(equal_1e9(s.score, score));
        CHECK(equal_1e9(s.elo, elo));
        CHECK(equal_1e9(s.elo_error, err));
        CHECK(equal_1e9(s.los, los));
        if (p.seats <= 2) {
            CHECK(equal_1e9(s.nelo, nelo));
            CHECK(equal_1e9(s.nelo_error, nelo_error));
        }
        CHECK(std::string(s.decision == SprtDecision::accept_h1   ? "h1"
                          : s.decision == SprtDecision::accept_h0 ? "h0"
                                                                  : "none") == decision);
        ++sequential;
    }
    CHECK(sequential >= 20);
    // 16 W/D/L and 17 pentanomial count vectors, each under the three models, all wins, all draws
    // and all losses among them.
    CHECK(table >= 99);
    CHECK(models_seen.size() == 6);
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
    CHECK(text.find("SPRT: normalized model (elo0, elo1 in nElo)\nLLR: ") != std::string::npos);
    const SprtSummary s = evaluate_sprt(p, obs);
    CHECK(text.find(fmt::format("LLR: {:.2f} ({:.1f}%) (-2.94", s.llr, 100 * s.llr / s.upper)) != std::string::npos);
    CHECK(text.find(fmt::format(", nElo: {:.2f} +/- {:.2f}, LOS", s.nelo, s.nelo_error)) != std::string::npos);
    CHECK(format_sprt(evaluate_sprt(p, obs), std::nullopt, "a", "b", "x").find("LLR") == std::string::npos);
    // More than two seats: the logistic GSPRT on deal sets, said so, and no nElo.
    SprtParams four = p;
    four.seats = 4;
    const std::vector<SprtObservation> sets = {{5, 2, 1}, {3, 4, 1}, {6, 1, 1}};
    const std::string multi = format_sprt(evaluate_sprt(four, sets), four, "new", "old", "planowanie");
    CHECK(multi.find("SPRT: logistic model on deal sets (elo0, elo1 in logistic Elo), as for every game of more than "
                     "two seats; model=normalized is for two-seat games\n") != std::string::npos);
    CHECK(multi.find("nElo") == std::string::npos);
    CHECK(evaluate_sprt(four, sets).model == SprtModel::logistic);
    // Undecided: no closing line. Decided: fastchess's, with its [elo0, elo1].
    CHECK(text.find("completed") == std::string::npos);
    const SprtParams wide = parse_sprt("elo0=0 elo1=100 model=logistic");
    const std::string decided = format_sprt(evaluate_sprt(wide, std::vector<SprtObservation>(60, {2, 0, 0})), wide,
                                            "new", "old", "x");
    CHECK(decided.find("[0.00, 100.00]\nSPRT ([0.00, 100.00]) completed - H1 was accepted\n") != std::string::npos);
    const std::string lost = format_sprt(evaluate_sprt(wide, std::vector<SprtObservation>(60, {0, 2, 0})), wide, "new",
                                         "old", "x");
    CHECK(lost.ends_with("SPRT ([0.00, 100.00]) completed - H0 was accepted\n"));
    CHECK(lost.find("H0 accepted") == std::string::npos);  // the LLR line is fastchess's, without a verdict
    // The bayesian model: fastchess's W/D/L report. Elo, nElo and LOS of the 4-1-1 games, no
    // distribution line. By hand: score 4.5/6 = 0.75, variance (4 (1/4)^2 + (1/4)^2 + (3/4)^2) / 6
    // = 7/48, Elo -400 log10(1/3) = 190.85, nElo 0.25 / sqrt(7/48) * 800 / ln 10 = 227.45.
    const SprtParams bayes = parse_sprt("elo0=0 elo1=5 model=bayesian");
    const SprtSummary b = evaluate_sprt(bayes, obs, false);
    CHECK(b.wdl_figures);
    CHECK(b.score == doctest::Approx(0.75));
    CHECK(b.elo == doctest::Approx(-400 * std::log10(1.0 / 3)).epsilon(1e-12));
    CHECK(b.nelo == doctest::Approx(0.25 / std::sqrt(7.0 / 48) * 800 / std::log(10.0)).epsilon(1e-12));
    const std::string wdl = format_sprt(b, bayes, "new", "old", "samurai");
    CHECK(wdl.find("Elo: 190.85 +/- ") != std::string::npos);
    CHECK(wdl.find("nElo: 227.45 +/- ") != std::string::npos);
    CHECK(wdl.find("Ptnml") == std::string::npos);
    CHECK(wdl.find("Pairwise: 4-1-1 (W-L-D)") != std::string::npos);
    CHECK(wdl.find("SPRT: bayesian model (elo0, elo1 in BayesElo; the LLR and the figures above on the W-L-D totals)\n") !=
          std::string::npos);
    // The same results under the normalized model: pentanomial figures (3 pairs: 1, 0.5, 0.75).
    CHECK(evaluate_sprt(p, obs, false).score == doctest::Approx(0.75));
    CHECK(evaluate_sprt(p, obs, false).elo_error != doctest::Approx(b.elo_error));
    // A sweep has no spread: nElo is undefined, not a number made up.
    CHECK(format_sprt(evaluate_sprt(p, {{2, 0, 0}, {2, 0, 0}}), p, "a", "b", "x").find("nElo: n/a") != std::string::npos);
}

TEST_CASE("the least sweep that reaches each bound") {
    for (const char* text : {"elo0=0 elo1=5 model=logistic", "elo0=0 elo1=5", "elo0=-3 elo1=1 alpha=0.01 beta=0.1"}) {
        SprtParams p = parse_sprt(text);
        CAPTURE(text);
        const SprtReach r = sprt_reach(p, 2, 100000);
        REQUIRE(r.upper);
        REQUIRE(r.lower);
        const auto decision = [&](int n, SprtObservation o) {
            return evaluate_sprt(p, std::vector<SprtObservation>(n, o), false).decision;
        };
        CHECK(decision(*r.upper, {2, 0, 0}) == SprtDecision::accept_h1);
        CHECK(decision(*r.upper - 1, {2, 0, 0}) == SprtDecision::none);
        CHECK(decision(*r.lower, {0, 2, 0}) == SprtDecision::accept_h0);
        CHECK(decision(*r.lower - 1, {0, 2, 0}) == SprtDecision::none);
        // Past the cap: nothing.
        CHECK_FALSE(sprt_reach(p, 2, *r.upper - 1).upper);
    }
    // The bayesian model needs a win and a loss (its LLR is 0 before, as fastchess's): its
    // extremes are all games won but one, lost (and the other way round). On single games with
    // [0, 5] that is 209 games for H1 and 206 for H0 (sprt_reference.py's fastchess formulas
    // give LLR 2.9573 at 208 wins and a loss, 2.9431 at 207 and a loss, against 2.9444; -2.9571
    // at a win and 205 losses, -2.9426 at a win and 204).
    const SprtParams bayes = parse_sprt("model=bayesian");
    const SprtReach single = sprt_reach(bayes, 1, 100000);
    CHECK(single.all_but_one);
    CHECK(single.upper == 209);
    CHECK(single.lower == 206);
    const auto totals = [](int wins, int draws, int losses) {
        std::vector<SprtObservation> out(static_cast<std::size_t>(wins), SprtObservation{1, 0, 0});
        out.insert(out.end(), static_cast<std::size_t>(draws), SprtObservation{0, 0, 1});
        out.insert(out.end(), static_cast<std::size_t>(losses), SprtObservation{0, 1, 0});
        return out;
    };
    CHECK(evaluate_sprt(bayes, totals(208, 0, 1), false).llr == doctest::Approx(2.957341660144606).epsilon(1e-9));
    CHECK(evaluate_sprt(bayes, totals(1, 0, 205), false).llr == doctest::Approx(-2.9571412821561505).epsilon(1e-9));
    // No W/D/L totals of one game fewer reach that bound.
    for (const auto& [games, wanted] : {std::pair{208, SprtDecision::accept_h1}, std::pair{205, SprtDecision::accept_h0}})
        for (int wins = 1; wins < games; ++wins)
            for (int losses = 1; wins + losses <= games; ++losses) {
                CAPTURE(wins);
                CAPTURE(losses);
                CHECK(evaluate_sprt(bayes, totals(wins, games - wins - losses, losses), false).decision != wanted);
            }
    // Deal sets of two games: whole sets, the last one split.
    const SprtReach pairs = sprt_reach(bayes, 2, 100000);
    CHECK(pairs.upper == 105);
    CHECK(pairs.lower == 103);
    CHECK(reach_text(pairs, 2, 100000) ==
          "winning all games but one accepts H1 after 210 games at the least, losing all games but one H0 after 206 games");
    CHECK(reach_text(sprt_reach(parse_sprt("model=logistic"), 2, 100000), 2, 100000).rfind("winning every game accepts", 0) == 0);
    // More than two seats: the logistic test on deal sets, whose sweeps decide.
    SprtParams four = bayes;
    four.seats = 4;
    CHECK_FALSE(sprt_reach(four, 16, 1000).all_but_one);
}
