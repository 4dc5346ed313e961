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
// apply to their pentanomial counts). The LLR is the generalised SPRT as fastchess's
// "logistic" model and Fishtest's LLR_logistic compute it, generalised from five values to D+1:
//
//     LLR = N * sum_i q_i ln(p1_i / p0_i)
//
// N the (regularised) number of observations, q their empirical distribution, and p0, p1 the
// maximum-likelihood distributions on the same values whose mean is s0 resp. s1, where
// s = 1 / (1 + 10^(-elo/400)) is the expected score under the logistic Elo model (elo0 and elo1
// are logistic Elo, not BayesElo or normalised Elo). Elo, its interval and the LOS come from the
// mean and variance of the same regularised observations, as fastchess prints them.
#include <optional>
#include <string>
#include <vector>

#include "core/match_record.hpp"

namespace arb::rating {

struct SprtParams {
    double elo0 = 0;
    double elo1 = 5;
    double alpha = 0.05;
    double beta = 0.05;

    double lower_bound() const;  // ln(beta / (1 - alpha)): at or below, H0 is accepted
    double upper_bound() const;  // ln((1 - beta) / alpha): at or above, H1 is accepted
};

// "elo0=0 elo1=5 alpha=0.05 beta=0.05" (space- or comma-separated; keys missing take the
// defaults above). UserError, one line, naming the problem: an unknown or repeated key, a value
// that is not a finite number, elo0 >= elo1, |elo| > 1000, alpha or beta outside (0, 0.5).
SprtParams parse_sprt(const std::string& text);
std::string to_string(const SprtParams& params);  // "elo0=0 elo1=5 alpha=0.05 beta=0.05"

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
    double mean = 0.5;         // of the regularised observations
    double variance = 0;       // per observation, of the regularised observations
    double elo = 0;            // logistic Elo of mean, with its 95% interval
    double elo_error = 0;      // half-width of that interval in Elo (the +/- fastchess prints)
    double los = 0.5;          // likelihood of superiority, Phi((mean - 0.5) / standard error)
    double llr = 0;
    double lower = 0, upper = 0;
    SprtDecision decision = SprtDecision::none;
};

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

// The block fastchess prints, with "A vs B" in the title line; without params no LLR line.
//   Results of new vs old (samurai, 2 games per deal set):
//   Elo: 35.12 +/- 20.11, LOS: 99.94 %
//   Deal sets: 60, Pairwise: 70-30-20 (W-L-D), Points: 80.0 (66.67 %)
//   Ptnml(0-2): [3, 5, 20, 17, 15]
//   LLR: 2.96 (-2.94, 2.94) [0.00, 5.00] H1 accepted
std::string format_sprt(const SprtSummary& summary, const std::optional<SprtParams>& params, const std::string& a,
                        const std::string& b, const std::string& context);

}  // namespace arb::rating
