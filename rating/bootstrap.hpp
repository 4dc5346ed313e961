#pragma once
// Rating intervals and LOS from a bootstrap over matches.
//
// One match of k seats gives k(k-1)/2 pairwise results that share their players' luck (one bad
// deal costs a bot all its pairs of that match), and the rotations of one deal set share the
// deal. BayesElo treats every pairwise result as independent, so its intervals are too narrow
// for games of more than two. The bootstrap resamples whole units (a match, or the rotations of
// one deal set) with replacement, refits the same model on each resample, and reports the
// percentile interval of each player's rating and, for LOS, the share of resamples in which one
// player is rated above the other. Own seeded RNG: the same input and seed give the same bytes.
#include <cstdint>
#include <string>
#include <vector>

#include "rating/bayeselo.hpp"
#include "rating/result_set.hpp"

namespace arb::rating {

// Which intervals (and LOS) a table shows.
enum class IntervalSource { bayeselo, bootstrap };
// "bayeselo" or "bootstrap".
const char* to_string(IntervalSource source);
// Parses "bayeselo" or "bootstrap"; UserError naming `flag` otherwise.
IntervalSource parse_interval_source(const std::string& text, const std::string& flag = "--intervals");

struct BootstrapOptions {
    int samples = 200;          // resamples; 200 keeps `rate` well under a second on a season
    std::uint64_t seed = 1;     // the RNG's seed; resample k uses derive_seed(seed, {k})
    int threads = 0;            // 0 = hardware concurrency; results do not depend on it
};

struct BootstrapResult {
    int samples = 0;
    int units = 0;                   // resampling units (matches or deal sets) in the data
    // Per ResultSet player index, model units (mean 0 in every resample): the percentile
    // bounds at the fit's confidence. Players with no game in any resample keep 0, 0.
    std::vector<double> lower, upper;
    // los[i*n + j]: share of resamples rating i above j (ties count half), over resamples where
    // both played; 0.5 when none.
    std::vector<double> los;
};

// unit_of_game[k] names the resampling unit of results.games()[k] (any integers; equal means
// the same match or deal set). Refits with `options` (intervals skipped, offset anchor dropped:
// each resample only needs its centred ratings). Throws std::invalid_argument when the sizes
// differ, UserError when there are no games.
BootstrapResult bootstrap_ratings(const ResultSet& results, const std::vector<std::int64_t>& unit_of_game,
                                  const EloOptions& options, const BootstrapOptions& bootstrap);

// Puts the bootstrap's intervals (displayed units, with the fit's scale; never below 0 on either
// side) into the rows, and its LOS matrix into result.los.
void apply_bootstrap(RatingResult& result, const BootstrapResult& bootstrap);

}  // namespace arb::rating
