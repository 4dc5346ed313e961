// The SPRT of rating/sprt.hpp: parsing, the regularised observation distribution, LLR, Elo, LOS.
#include "rating/sprt.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/did_you_mean.hpp"
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

// The root of a function that falls from +inf to -inf on (lo, hi), by bisection to the last bit.
template <typename F>
double falling_root(F f, double lo, double hi) {
    for (int i = 0; i < 1100; ++i) {
        const double mid = lo + (hi - lo) / 2;
        if (mid <= lo || mid >= hi) break;
        (f(mid) > 0 ? lo : hi) = mid;
    }
    return lo + (hi - lo) / 2;
}

// The maximum-likelihood distribution on the same values whose mean is `s` (Van den Bergh,
// "Comparing the approximations for the generalized log likelihood ratio", proposition 1.1):
// p_i = q_i / (1 + x (a_i - s)) with x the root of sum q_i (a_i - s) / (1 + x (a_i - s)) = 0. The
// sum falls as x grows, from +inf to -inf over the x that keep every p_i positive.
std::vector<double> mean_mle(const std::vector<WeightedValue>& pdf, double n, double s) {
    double lo = -1 / (1 - s), hi = 1 / s;  // the values span [0, 1] (regularisation adds both ends)
    const double x = falling_root(
        [&](double x) {
            double sum = 0;
            for (const auto& p : pdf) sum += p.weight / n * (p.value - s) / (1 + x * (p.value - s));
            return sum;
        },
        lo, hi);
    std::vector<double> p;
    for (const auto& v : pdf) p.push_back(v.weight / n / (1 + x * (v.value - s)));
    return p;
}

// The maximum-likelihood distribution on the same values whose normalised score
// (mu - 1/2) / sigma is `t` (Van den Bergh, "Comments on normalized Elo", section 4.1): the fixed
// point of p_i = q_i / (1 + x phi_i), phi_i = a_i - 1/2 - t sigma (1 + ((a_i - mu) / sigma)^2) / 2
// with mu, sigma those of the previous p and x the root of sum q_i phi_i / (1 + x phi_i) = 0,
// started from the uniform distribution and iterated until p stops moving.
std::vector<double> normalized_mle(const std::vector<WeightedValue>& pdf, double n, double t) {
    const std::size_t m = pdf.size();
    std::vector<double> p(m, 1.0 / static_cast<double>(m)), phi(m);
    double last_moved = INFINITY;
    for (int iteration = 0; iteration < 2000; ++iteration) {
        double mu = 0, var = 0;
        for (std::size_t i = 0; i < m; ++i) mu += p[i] * pdf[i].value;
        for (std::size_t i = 0; i < m; ++i) var += p[i] * (pdf[i].value - mu) * (pdf[i].value - mu);
        const double sigma = std::sqrt(var);
        if (!(sigma > 0)) break;
        for (std::size_t i = 0; i < m; ++i) {
            const double z = (pdf[i].value - mu) / sigma;
            phi[i] = pdf[i].value - 0.5 - 0.5 * t * sigma * (1 + z * z);
        }
        const double u = *std::min_element(phi.begin(), phi.end()), v = *std::max_element(phi.begin(), phi.end());
        if (!(u < 0 && v > 0)) break;  // no distribution near p meets t: keep p
        const double x = falling_root(
            [&](double x) {
                double sum = 0;
                for (std::size_t i = 0; i < m; ++i) sum += pdf[i].weight / n * phi[i] / (1 + x * phi[i]);
                return sum;
            },
            -1 / v, -1 / u);
        double moved = 0;
        for (std::size_t i = 0; i < m; ++i) {
            const double next = pdf[i].weight / n / (1 + x * phi[i]);
            moved = std::max(moved, std::abs(next - p[i]));
            p[i] = next;
        }
        if (moved < 1e-15 || (moved < 1e-12 && moved >= last_moved)) break;  // at rest, or rounding noise
        last_moved = moved;
    }
    return p;
}

// The generalised log-likelihood ratio: N times the empirical mean of ln(p1_i / p0_i), i.e. the
// weighted sum.
// (The normal approximation (s1 - s0)(2 mu - s0 - s1) / (2 var) is not used: on a handful of
// one-sided deal sets the regularised variance is tiny and it crosses a bound after one set.)
double log_likelihood_ratio(const std::vector<WeightedValue>& pdf, const std::vector<double>& p0,
                            const std::vector<double>& p1) {
    double sum = 0;
    for (std::size_t i = 0; i < pdf.size(); ++i) sum += pdf[i].weight * (std::log(p1[i]) - std::log(p0[i]));
    return sum;
}

// BayesElo's expected score: P(win) + P(draw) / 2 with the draw Elo `drawelo`.
double bayeselo_score(double elo, double drawelo) {
    const double win = 1 / (1 + std::pow(10.0, (drawelo - elo) / 400));
    const double loss = 1 / (1 + std::pow(10.0, (drawelo + elo) / 400));
    return win + 0.5 * (1 - win - loss);
}

// The bayesian model on the W/D/L totals, a trinomial regularised like the deal sets; no
// evidence (LLR 0) until A has both won and lost, as the draw Elo needs both.
double bayesian_llr(const SprtParams& params, const SprtSummary& s) {
    if (s.wins == 0 || s.losses == 0) return 0;
    const double draws = s.draws > 0 ? s.draws : kRegularisation;
    const std::vector<WeightedValue> pdf = {{0.0, static_cast<double>(s.losses)}, {0.5, draws},
                                            {1.0, static_cast<double>(s.wins)}};
    const double n = s.wins + s.losses + draws;
    const double w = s.wins / n, l = s.losses / n;
    const double drawelo = 200 * std::log10((1 - l) / l * (1 - w) / w);
    return log_likelihood_ratio(pdf, mean_mle(pdf, n, bayeselo_score(params.elo0, drawelo)),
                                mean_mle(pdf, n, bayeselo_score(params.elo1, drawelo)));
}

constexpr double kNeloUnit = 800 / std::numbers::ln10;  // nElo per unit of (mu - 1/2) / sigma

// Mean, population variance and total weight of weighted values.
struct Moments {
    double mean = 0.5, variance = 0, n = 0;
};

Moments moments_of(const std::vector<WeightedValue>& values) {
    Moments m;
    double sum = 0;
    for (const auto& v : values) {
        m.n += v.weight;
        sum += v.weight * v.value;
    }
    if (!(m.n > 0)) return m;
    m.mean = sum / m.n;
    double sq = 0;
    for (const auto& v : values) sq += v.weight * (v.value - m.mean) * (v.value - m.mean);
    m.variance = sq / m.n;
    return m;
}

// fastchess's Elo of a score, unclamped: infinite at 0 and 1, undefined outside.
double raw_elo(double score) { return -400 * std::log10(1 / score - 1); }

// The printed figures as fastchess computes them from the raw results `raw` (observation values
// weighted by their counts), k games per value; each Elo figure that comes out infinite or
// undefined is taken from the regularised values instead.
void set_figures(SprtSummary& s, const std::vector<WeightedValue>& raw, const std::vector<WeightedValue>& regularised,
                 double k) {
    const Moments m = moments_of(raw);
    const double se = std::sqrt(m.variance / m.n);
    s.score = m.mean;
    s.elo = raw_elo(m.mean);
    s.elo_error = (raw_elo(m.mean + kZ975 * se) - raw_elo(m.mean - kZ975 * se)) / 2;
    s.los = normal_cdf((m.mean - 0.5) / se);
    if (!std::isfinite(s.elo) || !std::isfinite(s.elo_error) || !std::isfinite(s.los)) {
        const Moments r = moments_of(regularised);
        const double rse = std::sqrt(r.variance / r.n);
        if (!std::isfinite(s.elo)) s.elo = logistic_elo(r.mean);
        if (!std::isfinite(s.elo_error))
            s.elo_error = (logistic_elo(r.mean + kZ975 * rse) - logistic_elo(r.mean - kZ975 * rse)) / 2;
        if (!std::isfinite(s.los)) s.los = normal_cdf((r.mean - 0.5) / rse);
    }
    if (k <= 0) return;  // more than two seats: no nElo
    if (!(m.variance > 0)) {
        s.nelo = s.nelo_error = std::numeric_limits<double>::quiet_NaN();
        return;
    }
    const auto nelo = [&](double score) { return (score - 0.5) / std::sqrt(k * m.variance) * kNeloUnit; };
    s.nelo = nelo(m.mean);
    s.nelo_error = (nelo(m.mean + kZ975 * se) - nelo(m.mean - kZ975 * se)) / 2;
}

// The W/D/L totals as values 0, 1/2, 1 weighted by their counts, with `unseen` for a count of 0.
std::vector<WeightedValue> wdl_values(const SprtSummary& s, double unseen) {
    const auto w = [&](int count) { return count > 0 ? static_cast<double>(count) : unseen; };
    return {{0.0, w(s.losses)}, {0.5, w(s.draws)}, {1.0, w(s.wins)}};
}

SprtSummary summarise(const SprtParams& params, const std::vector<SprtObservation>& observations, int used) {
    SprtSummary s;
    s.lower = params.lower_bound();
    s.upper = params.upper_bound();
    std::vector<SprtObservation> prefix(observations.begin(), observations.begin() + used);
    s.denominator = common_denominator(prefix);
    double comparisons = 0;
    std::vector<WeightedValue> raw;  // the observation values, as they are
    for (const auto& o : prefix) {
        if (o.comparisons() == 0) continue;
        ++s.observations;
        s.wins += o.wins;
        s.losses += o.losses;
        s.draws += o.draws;
        comparisons += o.comparisons();
        raw.push_back({(o.wins + 0.5 * o.draws) / o.comparisons(), 1.0});
    }
    if (s.observations == 0) {
        s.denominator = 0;
        return s;
    }
    const std::vector<WeightedValue> pdf = regularised(prefix, used, s);
    const Moments m = moments_of(pdf);
    s.mean = m.mean;
    s.variance = m.variance;
    s.model = params.model_used();
    if (params.seats <= 2)
        s.games_per_observation = s.denominator > 0 ? s.denominator / 2.0 : comparisons / s.observations;
    if (s.model == SprtModel::logistic) {
        s.llr = log_likelihood_ratio(pdf, mean_mle(pdf, m.n, logistic_score(params.elo0)),
                                     mean_mle(pdf, m.n, logistic_score(params.elo1)));
    } else if (s.model == SprtModel::normalized) {
        const double scale = std::sqrt(s.games_per_observation) / kNeloUnit;
        s.llr = log_likelihood_ratio(pdf, normalized_mle(pdf, m.n, scale * params.elo0),
                                     normalized_mle(pdf, m.n, scale * params.elo1));
    } else {
        s.llr = bayesian_llr(params, s);
    }
    if (s.model == SprtModel::bayesian) {
        // fastchess's W/D/L report: the figures of single games.
        s.wdl_figures = true;
        s.games_per_observation = 1;
        set_figures(s, wdl_values(s, 0), wdl_values(s, kRegularisation), 1);
    } else {
        set_figures(s, raw, pdf, s.games_per_observation);
    }
    if (s.llr >= s.upper) s.decision = SprtDecision::accept_h1;
    else if (s.llr <= s.lower) s.decision = SprtDecision::accept_h0;
    return s;
}

}  // namespace

double SprtParams::lower_bound() const { return std::log(beta / (1 - alpha)); }
double SprtParams::upper_bound() const { return std::log((1 - beta) / alpha); }

const char* to_string(SprtModel model) {
    switch (model) {
        case SprtModel::normalized: return "normalized";
        case SprtModel::logistic: return "logistic";
        case SprtModel::bayesian: return "bayesian";
    }
    return "?";
}

SprtParams parse_sprt(const std::string& text) {
    static const std::vector<std::string> keys = {"elo0", "elo1", "alpha", "beta", "model"};
    static const std::vector<std::string> models = {"normalized", "logistic", "bayesian"};
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
            throw UserError(fmt::format("--sprt wants KEY=VALUE words (elo0, elo1, alpha, beta, model), not '{}'", word));
        if (std::find(keys.begin(), keys.end(), key) == keys.end())
            throw UserError(fmt::format("--sprt: unknown key '{}'{} (the keys are elo0, elo1, alpha, beta, model)", key,
                                        did_you_mean(key, keys)));
        if (!seen.insert(key).second) throw UserError(fmt::format("--sprt: '{}' is given twice", key));
        const std::string value = word.substr(eq + 1);
        if (key == "model") {
            const auto m = std::find(models.begin(), models.end(), value);
            if (m == models.end())
                throw UserError(fmt::format("--sprt: unknown model '{}'{} (the models are normalized, logistic, bayesian)",
                                            value, did_you_mean(value, models)));
            p.model = static_cast<SprtModel>(m - models.begin());
            continue;
        }
        const double v = parse_number(key, value);
        (key == "elo0" ? p.elo0 : key == "elo1" ? p.elo1 : key == "alpha" ? p.alpha : p.beta) = v;
    }
    if (seen.empty())
        throw UserError("--sprt wants KEY=VALUE words, e.g. 'elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized'");
    // fastchess's checks (SPRT::isValid), in its order and words; then our own range of Elo.
    if (!(p.elo0 < p.elo1))
        throw UserError(fmt::format("--sprt: elo0 must be less than elo1, not elo0={} elo1={}", p.elo0, p.elo1));
    if (!(p.alpha > 0 && p.alpha < 1))
        throw UserError(fmt::format("--sprt: alpha must be a decimal number between 0 and 1, not {}", p.alpha));
    if (!(p.beta > 0 && p.beta < 1))
        throw UserError(fmt::format("--sprt: beta must be a decimal number between 0 and 1, not {}", p.beta));
    if (!(p.alpha + p.beta < 1))
        throw UserError(fmt::format("--sprt: sum of alpha and beta must be less than 1, not {} + {}", p.alpha, p.beta));
    for (const double elo : {p.elo0, p.elo1})
        if (std::abs(elo) > 1000) throw UserError(fmt::format("--sprt: elo0 and elo1 must be from -1000 to 1000, not {}", elo));
    return p;
}

std::string to_string(const SprtParams& p) {
    return fmt::format("elo0={} elo1={} alpha={} beta={} model={}", p.elo0, p.elo1, p.alpha, p.beta, to_string(p.model));
}

double llr_fraction(const SprtSummary& s) { return s.llr >= 0 ? s.llr / s.upper : -s.llr / s.lower; }

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

SprtReach sprt_reach(const SprtParams& params, int comparisons, int cap) {
    // The least n by doubling, then bisection between the last n short of the bound and the
    // first past it (the LLR of a sweep grows with its length).
    // The bayesian model's LLR stays 0 until A has won and lost: there the last observation of
    // the run gives one game to the other side.
    const bool all_but_one = params.model_used() == SprtModel::bayesian;
    const auto least = [&](const SprtObservation& sweep, SprtDecision wanted) -> std::optional<int> {
        const auto reaches = [&](int n) {
            std::vector<SprtObservation> obs(n, sweep);
            if (all_but_one) obs.back() = sweep.wins > 0 ? SprtObservation{comparisons - 1, 1, 0}
                                                         : SprtObservation{1, comparisons - 1, 0};
            return summarise(params, obs, n).decision == wanted;
        };
        int short_of = 0, past = 1;
        while (!reaches(past)) {
            if (past >= cap) return std::nullopt;
            short_of = past;
            past = std::min(cap, 2 * past);
        }
        while (past - short_of > 1) {
            const int mid = short_of + (past - short_of) / 2;
            (reaches(mid) ? past : short_of) = mid;
        }
        return past;
    };
    SprtReach r;
    r.all_but_one = all_but_one;
    if (comparisons < 1 || cap < 1) return r;
    r.upper = least(SprtObservation{comparisons, 0, 0}, SprtDecision::accept_h1);
    r.lower = least(SprtObservation{0, comparisons, 0}, SprtDecision::accept_h0);
    return r;
}

std::string reach_text(const SprtReach& r, int matches_per_observation, int cap) {
    const auto games = [&](const std::optional<int>& n) {
        return n ? fmt::format("{} games", static_cast<long long>(*n) * matches_per_observation)
                 : fmt::format("more than {} games", static_cast<long long>(cap) * matches_per_observation);
    };
    const char* every = r.all_but_one ? "all games but one" : "every game";
    return fmt::format("winning {} accepts H1 after {} at the least, losing {} H0 after {}", every, games(r.upper), every,
                       games(r.lower));
}

std::optional<long long> least_deciding_matches(const SprtReach& r, int matches_per_observation) {
    std::optional<int> n = r.upper;
    if (r.lower && (!n || *r.lower < *n)) n = r.lower;
    if (!n) return std::nullopt;
    return static_cast<long long>(*n) * matches_per_observation;
}

namespace {

std::string model_line(const SprtParams& p) {
    if (p.seats > 2)
        return fmt::format("SPRT: logistic model on deal sets (elo0, elo1 in logistic Elo), as for every game of more "
                           "than two seats{}\n",
                           p.model == SprtModel::logistic ? "" : fmt::format("; model={} is for two-seat games", to_string(p.model)));
    switch (p.model) {
        case SprtModel::normalized: return "SPRT: normalized model (elo0, elo1 in nElo)\n";
        case SprtModel::logistic: return "SPRT: logistic model (elo0, elo1 in logistic Elo)\n";
        case SprtModel::bayesian:
            return "SPRT: bayesian model (elo0, elo1 in BayesElo; the LLR and the figures above on the W-L-D totals)\n";
    }
    return "";
}

}  // namespace

std::string format_sprt(const SprtSummary& s, const std::optional<SprtParams>& params, const std::string& a,
                        const std::string& b, const std::string& context) {
    std::string out = fmt::format("Results of {} vs {} ({}):\n", a, b, context);
    const std::string nelo = s.games_per_observation <= 0 ? ""
                             : std::isnan(s.nelo)        ? ", nElo: n/a (no spread)"
                                                         : fmt::format(", nElo: {:.2f} +/- {:.2f}", s.nelo, s.nelo_error);
    out += fmt::format("Elo: {:.2f} +/- {:.2f}{}, LOS: {:.2f} %\n", s.elo, s.elo_error, nelo, 100 * s.los);
    const int games = s.wins + s.losses + s.draws;
    const double points = s.wins + 0.5 * s.draws;
    out += fmt::format("Deal sets: {}, Pairwise: {}-{}-{} (W-L-D), Points: {:.1f} ({:.2f} %)\n", s.observations, s.wins,
                       s.losses, s.draws, points, games > 0 ? 100 * points / games : 50.0);
    if (s.wdl_figures) {
        // fastchess's W/D/L report: no distribution of deal sets.
    } else if (s.denominator == 4) {
        out += fmt::format("Ptnml(0-2): [{}]\n", fmt::join(s.distribution, ", "));
    } else if (s.denominator > 0 && s.denominator <= 16) {
        out += fmt::format("Per deal set (points 0-{} by 0.5): [{}]\n", s.denominator / 2, fmt::join(s.distribution, ", "));
    }
    if (params) {
        out += model_line(*params);
        const std::string elo = fmt::format("[{:.2f}, {:.2f}]", params->elo0, params->elo1);
        out += fmt::format("LLR: {:.2f} ({:.1f}%) ({:.2f}, {:.2f}) {}\n", s.llr, 100 * llr_fraction(s), s.lower, s.upper,
                           elo);
        if (s.decision != SprtDecision::none)
            out += fmt::format("SPRT ({}) completed - {} was accepted\n", elo,
                               s.decision == SprtDecision::accept_h1 ? "H1" : "H0");
    }
    return out;
}

}  // namespace arb::rating
