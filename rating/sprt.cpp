// The SPRT of rating/sprt.hpp: parsing, the regularised observation distribution, LLR, Elo, LOS.
#include "rating/sprt.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/user_error.hpp"

namespace arb::rating {
namespace {

constexpr double kRegularisation = 1e-3;  // Fishtest's and fastchess's weight of an unseen value
constexpr int kMaxDenominator = 64;        // finer grids: observations are used as they are
constexpr double kZ975 = 1.959963984540054;  // Phi^-1(0.975)

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

double parse_number(const std::string& key, const std::string& text) {
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
        throw UserError(fmt::format("--sprt: '{}' wants a number, not '{}'", key, text));
    return value;
}

// Every observation's value is a multiple of 1/D: D is the least common multiple of twice the
// comparison counts (0 when that grid would be finer than kMaxDenominator).
int common_denominator(const std::vector<SprtObservation>& observations) {
    int d = 1;
    for (const auto& o : observations) {
        if (o.comparisons() == 0) continue;
        d = std::lcm(d, 2 * o.comparisons());
        if (d > kMaxDenominator) return 0;
    }
    return d == 1 ? 0 : d;
}

struct WeightedValue {
    double value;
    double weight;
};

// The observations as a weighted distribution, regularised so that it has a variance: on a
// grid every unseen value gets weight 1e-3, off a grid the two extremes 0 and 1 do.
std::vector<WeightedValue> regularised(const std::vector<SprtObservation>& observations, int observations_used,
                                       SprtSummary& s) {
    std::vector<WeightedValue> pdf;
    if (s.denominator > 0) {
        s.distribution.assign(s.denominator + 1, 0);
        for (int i = 0; i < observations_used; ++i) {
            const auto& o = observations[i];
            if (o.comparisons() == 0) continue;
            const int points2 = 2 * o.wins + o.draws;  // half-points
            ++s.distribution[points2 * (s.denominator / (2 * o.comparisons()))];
        }
        for (int j = 0; j <= s.denominator; ++j) {
            const double w = s.distribution[j] > 0 ? s.distribution[j] : kRegularisation;
            pdf.push_back({static_cast<double>(j) / s.denominator, w});
        }
        return pdf;
    }
    for (int i = 0; i < observations_used; ++i) {
        const auto& o = observations[i];
        if (o.comparisons() == 0) continue;
        pdf.push_back({(o.wins + 0.5 * o.draws) / o.comparisons(), 1.0});
    }
    pdf.push_back({0.0, kRegularisation});
    pdf.push_back({1.0, kRegularisation});
    return pdf;
}

// The maximum-likelihood distribution on the same values whose mean is `s` (Van den Bergh,
// "Comments on Normalized Elo", proposition 1.1): p_i = q_i / (1 + x (a_i - s)) with x the root
// of sum q_i (a_i - s) / (1 + x (a_i - s)) = 0. The sum falls as x grows, from +inf to -inf
// over the x that keep every p_i positive, so bisection finds the root.
std::vector<double> constrained_mle(const std::vector<WeightedValue>& pdf, double n, double s) {
    double lo = -1 / (1 - s), hi = 1 / s;  // the values span [0, 1] (regularisation adds both ends)
    const auto f = [&](double x) {
        double sum = 0;
        for (const auto& p : pdf) sum += p.weight / n * (p.value - s) / (1 + x * (p.value - s));
        return sum;
    };
    for (int i = 0; i < 200 && hi - lo > 1e-15 * std::max(1.0, std::abs(lo)); ++i) {
        const double mid = (lo + hi) / 2;
        (f(mid) > 0 ? lo : hi) = mid;
    }
    const double x = (lo + hi) / 2;
    std::vector<double> p;
    for (const auto& v : pdf) p.push_back(v.weight / n / (1 + x * (v.value - s)));
    return p;
}

// The generalised log-likelihood ratio per observation of mean s1 against mean s0: the
// empirical mean of ln(p1_i / p0_i) under the two constrained maximum-likelihood distributions.
// (The normal approximation (s1 - s0)(2 mu - s0 - s1) / (2 var) is not used: on a handful of
// one-sided deal sets the regularised variance is tiny and it crosses a bound after one set.)
double mean_log_ratio(const std::vector<WeightedValue>& pdf, double n, double s0, double s1) {
    const std::vector<double> p0 = constrained_mle(pdf, n, s0), p1 = constrained_mle(pdf, n, s1);
    double sum = 0;
    for (std::size_t i = 0; i < pdf.size(); ++i) sum += pdf[i].weight / n * (std::log(p1[i]) - std::log(p0[i]));
    return sum;
}

SprtSummary summarise(const SprtParams& params, const std::vector<SprtObservation>& observations, int used) {
    SprtSummary s;
    s.lower = params.lower_bound();
    s.upper = params.upper_bound();
    std::vector<SprtObservation> prefix(observations.begin(), observations.begin() + used);
    s.denominator = common_denominator(prefix);
    for (const auto& o : prefix) {
        if (o.comparisons() == 0) continue;
        ++s.observations;
        s.wins += o.wins;
        s.losses += o.losses;
        s.draws += o.draws;
    }
    if (s.observations == 0) {
        s.denominator = 0;
        return s;
    }
    const std::vector<WeightedValue> pdf = regularised(prefix, used, s);
    double n = 0, sum = 0;
    for (const auto& p : pdf) {
        n += p.weight;
        sum += p.weight * p.value;
    }
    s.mean = sum / n;
    double sq = 0;
    for (const auto& p : pdf) sq += p.weight * (p.value - s.mean) * (p.value - s.mean);
    s.variance = sq / n;
    s.llr = n * mean_log_ratio(pdf, n, logistic_score(params.elo0), logistic_score(params.elo1));
    const double se = std::sqrt(s.variance / n);
    s.elo = logistic_elo(s.mean);
    s.elo_error = (logistic_elo(s.mean + kZ975 * se) - logistic_elo(s.mean - kZ975 * se)) / 2;
    s.los = normal_cdf((s.mean - 0.5) / se);
    if (s.llr >= s.upper) s.decision = SprtDecision::accept_h1;
    else if (s.llr <= s.lower) s.decision = SprtDecision::accept_h0;
    return s;
}

}  // namespace

double SprtParams::lower_bound() const { return std::log(beta / (1 - alpha)); }
double SprtParams::upper_bound() const { return std::log((1 - beta) / alpha); }

SprtParams parse_sprt(const std::string& text) {
    SprtParams p;
    std::set<std::string> seen;
    std::string spaced = text;
    std::replace(spaced.begin(), spaced.end(), ',', ' ');
    std::size_t pos = 0;
    while ((pos = spaced.find_first_not_of(" \t", pos)) != std::string::npos) {
        const std::size_t end = std::min(spaced.find_first_of(" \t", pos), spaced.size());
        const std::string word = spaced.substr(pos, end - pos);
        pos = end;
        const auto eq = word.find('=');
        const std::string key = word.substr(0, eq);
        if (eq == std::string::npos)
            throw UserError(fmt::format("--sprt wants KEY=VALUE words (elo0, elo1, alpha, beta), not '{}'", word));
        if (key != "elo0" && key != "elo1" && key != "alpha" && key != "beta")
            throw UserError(fmt::format("--sprt: unknown key '{}' (the keys are elo0, elo1, alpha, beta)", key));
        if (!seen.insert(key).second) throw UserError(fmt::format("--sprt: '{}' is given twice", key));
        const double v = parse_number(key, word.substr(eq + 1));
        (key == "elo0" ? p.elo0 : key == "elo1" ? p.elo1 : key == "alpha" ? p.alpha : p.beta) = v;
    }
    if (seen.empty()) throw UserError("--sprt wants KEY=VALUE words, e.g. 'elo0=0 elo1=5 alpha=0.05 beta=0.05'");
    for (const double elo : {p.elo0, p.elo1})
        if (std::abs(elo) > 1000) throw UserError(fmt::format("--sprt: elo0 and elo1 must be from -1000 to 1000, not {}", elo));
    if (!(p.elo0 < p.elo1)) throw UserError(fmt::format("--sprt: elo0 ({}) must be below elo1 ({})", p.elo0, p.elo1));
    if (!(p.alpha > 0 && p.alpha < 0.5)) throw UserError(fmt::format("--sprt: alpha must be above 0 and below 0.5, not {}", p.alpha));
    if (!(p.beta > 0 && p.beta < 0.5)) throw UserError(fmt::format("--sprt: beta must be above 0 and below 0.5, not {}", p.beta));
    return p;
}

std::string to_string(const SprtParams& p) {
    return fmt::format("elo0={} elo1={} alpha={} beta={}", p.elo0, p.elo1, p.alpha, p.beta);
}

double logistic_score(double elo) { return 1 / (1 + std::pow(10.0, -elo / 400)); }

double logistic_elo(double score) {
    const double s = std::clamp(score, kRegularisation, 1 - kRegularisation);
    return -400 * std::log10(1 / s - 1);
}

SprtObservation observation_of(const std::vector<const MatchRecord*>& deal_set, const std::vector<std::string>& a,
                               const std::vector<std::string>& b) {
    SprtObservation o;
    const auto in = [](const std::vector<std::string>& names, const std::string& name) {
        return std::find(names.begin(), names.end(), name) != names.end();
    };
    for (const MatchRecord* record : deal_set) {
        const auto name = [&](int seat) -> const std::string& { return record->participants.at(seat).bot; };
        for (const PairResult& pair : record->pairs) {
            double score_a = 0;
            if (in(a, name(pair.a)) && in(b, name(pair.b))) score_a = pair.score_a;
            else if (in(b, name(pair.a)) && in(a, name(pair.b))) score_a = 1 - pair.score_a;
            else continue;
            if (score_a > 0.5) ++o.wins;
            else if (score_a < 0.5) ++o.losses;
            else ++o.draws;
        }
    }
    return o;
}

int sprt_stop_index(const SprtParams& params, const std::vector<SprtObservation>& observations, int first) {
    const int n = static_cast<int>(observations.size());
    for (int used = std::max(first, 1); used <= n; ++used) {
        if (observations[used - 1].comparisons() == 0) continue;
        if (summarise(params, observations, used).decision != SprtDecision::none) return used;
    }
    return n;
}

SprtSummary evaluate_sprt_prefix(const SprtParams& params, const std::vector<SprtObservation>& observations, int used) {
    return summarise(params, observations, std::clamp(used, 0, static_cast<int>(observations.size())));
}

SprtSummary evaluate_sprt(const SprtParams& params, const std::vector<SprtObservation>& observations,
                          bool stop_at_bound) {
    const int used = stop_at_bound ? sprt_stop_index(params, observations) : static_cast<int>(observations.size());
    return summarise(params, observations, used);
}

std::string format_sprt(const SprtSummary& s, const std::optional<SprtParams>& params, const std::string& a,
                        const std::string& b, const std::string& context) {
    std::string out = fmt::format("Results of {} vs {} ({}):\n", a, b, context);
    out += fmt::format("Elo: {:.2f} +/- {:.2f}, LOS: {:.2f} %\n", s.elo, s.elo_error, 100 * s.los);
    const int games = s.wins + s.losses + s.draws;
    const double points = s.wins + 0.5 * s.draws;
    out += fmt::format("Deal sets: {}, Pairwise: {}-{}-{} (W-L-D), Points: {:.1f} ({:.2f} %)\n", s.observations, s.wins,
                       s.losses, s.draws, points, games > 0 ? 100 * points / games : 50.0);
    if (s.denominator == 4) {
        out += fmt::format("Ptnml(0-2): [{}]\n", fmt::join(s.distribution, ", "));
    } else if (s.denominator > 0 && s.denominator <= 16) {
        out += fmt::format("Per deal set (points 0-{} by 0.5): [{}]\n", s.denominator / 2, fmt::join(s.distribution, ", "));
    }
    if (params) {
        out += fmt::format("LLR: {:.2f} ({:.2f}, {:.2f}) [{:.2f}, {:.2f}]{}\n", s.llr, s.lower, s.upper, params->elo0,
                           params->elo1,
                           s.decision == SprtDecision::accept_h1   ? " H1 accepted"
                           : s.decision == SprtDecision::accept_h0 ? " H0 accepted"
                                                                   : "");
    }
    return out;
}

}  // namespace arb::rating
