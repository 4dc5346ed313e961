#pragma once
// Machine-readable renderings of a rating table, and its conversion to a stored snapshot.
// The human table is format_ratings_table (bayeselo's layout) in bayeselo.hpp.
#include <string>

#include "rating/bayeselo.hpp"
#include "rating/store.hpp"

namespace arb::rating {

// {"advantage":..,"drawelo":..,"scale":..,"offset":..,"sweeps":..,"converged":..,
//  "rows":[{"rank":1,"name":"x","elo":..,"plus":..,"minus":..,"games":..,"score":..,"oppo":..,
//           "draws":..,"wins":..,"losses":..,"draw_count":..}, ...]}
// Values unrounded (display units); score and draws as fractions. A non-empty `intervals`
// ("bootstrap") is added as "intervals": the table's intervals are not bayeselo's own.
std::string format_ratings_json(const RatingResult& result, const std::string& intervals = "");
// Header "rank,name,elo,plus,minus,games,score,oppo,draws,wins,losses,draw_count", one line per
// row, names quoted when they contain a comma, quote or newline (RFC 4180).
std::string format_ratings_csv(const RatingResult& result);

// The fit as a snapshot row set (displayed units), with the options in params_json.
Snapshot make_snapshot(const std::string& label, const std::string& game, const RatingResult& result,
                       const EloOptions& options);

}  // namespace arb::rating
