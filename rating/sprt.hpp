#pragma once
// A sequential probability ratio test for "is A stronger than B?", the way engine-testing tools
// (fastchess, Fishtest) run one: test H0 "A is elo0 stronger" against H1 "A is elo1 stronger"
// on a growing sample and stop as soon as the log-likelihood ratio (LLR) leaves
// (ln(beta/(1-alpha)), ln((1-beta)/alpha)).
//
// Observations are paired: the matches of one deal set in all its seat rotations form ONE
// observation, A's mean pairwise score against B over that set (in chess terms, a game pair;
// there the five possible values give the pentanomial distribution). Observations take the
// values j/D, j = 0..D, where D is twice the number of A-B comparisons per deal set; counts of
// each value that were never seen are set to 1e-3 (the regularisation Fishtest and fastchess
// apply to their pentanomial counts). The LLR is the generalised SPRT as fastchess and Fishtest
// compute it, generalised from five values to D+1:
//
//     LLR = N * sum_i q_i ln(p1_i / p0_i)
//
// N the (regularised) number of observations, q their empirical distribution, and p0, p1 the
// maximum-likelihood distributions on the same values that meet hypothesis H0 resp. H1 (below,
// by model).
//
// Three models, as fastchess names them (model=, default normalized as in fastchess):
// - normalized: elo0 and elo1 are normalised Elo (nElo): t = (mu - 1/2) / sigma of one game,
//   in units of 800 / ln 10; the hypotheses are the maximum-likelihood distributions with
//   t = sqrt(k) * elo / (800 / ln 10), k the games per observation (2 for a game pair), found by
//   Van den Bergh's fixed point ("Comments on normalized Elo", section 4.1);
// - logistic: as above, s = 1 / (1 + 10^(-elo/400));
// - bayesian: BayesElo on the W/D/L totals (a trinomial, as fastchess does without pentanomial
//   counts): the draw Elo is read from the regularised W/D/L frequencies and
//   s = P(win) + P(draw) / 2 under BayesElo. As fastchess, which drops its pentanomial report for
//   this model, the Elo, nElo and LOS printed are then those of the W/D/L totals too.
// The models apply to two-seat games. With more seats one deal set's pairwise comparisons are
// not independent games, so the test stays the logistic GSPRT on deal sets whatever the model
// and says so.
//
// Elo, its interval, nElo and the LOS are fastchess's, from the raw (unregularised) results: the
// mean and population variance of the observation values (of the games under the bayesian
// model), k games per observation; Elo = -400 log10(1/mean - 1), its interval the mean +/- 1.96
// standard errors mapped to Elo, nElo = (mean - 1/2) / sqrt(k * variance) * 800 / ln 10, LOS =
// Phi((mean - 1/2) / standard error). Where that figure is infinite or undefined (fastchess
// prints inf or nan: every result one way, an interval past a score of 0 or 1, no spread at a
// mean of 1/2), Elo, its half-width and the LOS are those of the regularised observations instead
// (scores clamped into [1e-3, 1 - 1e-3]); nElo without spread is undefined (NaN, printed n/a).
#include <optional>
#include <string>
#include <vector>

#include "core/match_record.hpp"

namespace arb::rating {

enum class SprtModel { normalized, logistic, bayesian };
const char* to_string(SprtModel model);

struct SprtParams {
    double elo0 = 0;
    double elo1 = 5;
    double alpha = 0.05;
    double beta = 0.05;
    SprtModel model = SprtModel::normalized;
    // Not parsed: the seats of one match, set by the command. Above two the test is the logistic
    // GSPRT on deal sets, whatever `model`.
    int seats = 2;

    SprtModel model_used() const { return seats > 2 ? SprtModel::logistic : model; }

    double lower_bound() const;  // ln(beta / (1 - alpha)): at or below, H0 is accepted
    double upper_bound() const;  // ln((1 - beta) / alpha): at or above, H1 is accepted
};

// "elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized" (space- or comma-separated; keys
// missing take the defaults above), fastchess's option string. UserError, one line, naming the
// problem: an unknown or repeated key or model (with the nearest valid name), a value that is
// not a finite number; then fastchess's checks in its order, in its words: elo0 >= elo1, alpha or
// beta outside (0, 1), alpha + beta >= 1; last our own: |elo| > 1000.
SprtParams parse_sprt(const std::string& text);
std::string to_string(const SprtParams& params);  // "elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized"

// One deal set: A's pairwise results against B over all its rotations.
struct SprtObservation {
    int wins = 0;
    int losses = 0;
    int draws = 0;
    int comparisons() const { return wins + losses + draws; }
};

// A's pairwise results against B in the matches of one deal set, A and B given by the names
// their seats carry (copies of one bot sit under names of their own): every pair of seats with A
// in one and B in the other counts once; pairs of two copies of one bot do not.
SprtObservation observation_of(const std::vector<const MatchRecord*>& deal_set, const std::vector<std::string>& a,
                               const std::vector<std::string>& b);

enum class SprtDecision { none, accept_h0, accept_h1 };

struct SprtSummary {
    int observations = 0;      // deal sets with at least one A-B comparison
    int wins = 0, losses = 0, draws = 0;
    int denominator = 0;       // D: observation values are j / D (0: the sets differ in size)
    std::vector<int> distribution;  // count of each value j / D, j = 0..D (empty when D = 0)
    double mean = 0.5;         // of the regularised observations (the LLR's)
    double variance = 0;       // per observation, of the regularised observations
    // The printed figures, fastchess's: of the observations as they are, or of the W/D/L totals
    // when `wdl_figures`; each one that would be infinite or undefined is the regularised one.
    bool wdl_figures = false;  // the bayesian model: figures of the W/D/L totals, no distribution line
    double score = 0.5;        // the raw mean score (points per comparison, per game when wdl_figures)
    double elo = 0;            // logistic Elo of the score, with its 95% interval
    double elo_error = 0;      // half-width of that interval in Elo (the +/- fastchess prints)
    double los = 0.5;          // likelihood of superiority, Phi((score - 0.5) / standard error)
    double games_per_observation = 0;  // k of the nElo normalisation (0: more than two seats, no nElo)
    double nelo = 0, nelo_error = 0;   // normalised Elo and the half-width of its 95% interval (NaN: no spread)
    SprtModel model = SprtModel::normalized;  // the model the LLR used
    double llr = 0;
    double lower = 0, upper = 0;
    SprtDecision decision = SprtDecision::none;
};

// LLR as a share of the bound it moves towards (fastchess's percentage): llr / upper when
// llr >= 0, else llr / lower.
double llr_fraction(const SprtSummary& summary);

double logistic_score(double elo);  // 1 / (1 + 10^(-elo/400))
double logistic_elo(double score);  // its inverse, score clamped into [1e-3, 1 - 1e-3]

// The test on the observations in order. With `stop_at_bound`, the sample is cut at the first
// prefix whose LLR reaches a bound (the point a sequential run stops at); otherwise every
// observation counts and the decision is read at the end.
SprtSummary evaluate_sprt(const SprtParams& params, const std::vector<SprtObservation>& observations,
                          bool stop_at_bound = true);
// The number of observations evaluate_sprt(..., true) used. A sequential caller that already
// knows the first `first - 1` prefixes stay between the bounds passes `first` and does not pay
// for them again.
int sprt_stop_index(const SprtParams& params, const std::vector<SprtObservation>& observations, int first = 1);
// The test on the first `used` observations.
SprtSummary evaluate_sprt_prefix(const SprtParams& params, const std::vector<SprtObservation>& observations, int used);

// The least number of observations, each with every one of `comparisons` won (for the upper
// bound) or lost (for the lower one), whose LLR reaches that bound; nullopt when more than `cap`
// would be needed. A budget below both cannot end in a decision whatever the bots do. The
// bayesian model has nothing to say until A has won and lost a game (its LLR is 0 before), so
// there the most one-sided results are all games won but one, lost (all lost but one, won): no
// other W/D/L totals of as many games reach a bound sooner.
struct SprtReach {
    std::optional<int> upper, lower;
    bool all_but_one = false;  // the bayesian model: the extremes are all games but one
};
SprtReach sprt_reach(const SprtParams& params, int comparisons, int cap);
// "winning every game accepts H1 after 120 games at the least, losing every game H0 after 96"
// ("winning all games but one ..." for the bayesian model), counting `matches_per_observation`
// matches ("games") per observation.
std::string reach_text(const SprtReach& reach, int matches_per_observation, int cap);
// The least matches that could end the test, if any could.
std::optional<long long> least_deciding_matches(const SprtReach& reach, int matches_per_observation);

// The block fastchess prints, with "A vs B" in the title line; without params no LLR line.
//   Results of new vs old (samurai, 2 games per deal set):
//   Elo: 35.12 +/- 20.11, nElo: 50.30 +/- 28.80, LOS: 99.94 %
//   Deal sets: 60, Pairwise: 70-30-20 (W-L-D), Points: 80.0 (66.67 %)
//   Ptnml(0-2): [3, 5, 20, 17, 15]
//   SPRT: normalized model, elo0 and elo1 in nElo
//   LLR: 2.96 (100.5%) (-2.94, 2.94) [0.00, 5.00]
//   SPRT ([0.00, 5.00]) completed - H1 was accepted
// The last line, fastchess's closing line, only once a bound is reached. Under the bayesian
// model the figures are the W/D/L totals' and there is no distribution line, as in fastchess.
std::string format_sprt(const SprtSummary& summary, const std::optional<SprtParams>& params, const std::string& a,
                        const std::string& b, const std::string& context);

}  // namespace arb::rating
