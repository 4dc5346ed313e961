#pragma once
// The ratings after each round of a tournament: the BayesElo fit of every pairwise result up to
// and including that round, so a reader sees where the ranking settled.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "arbiter/report/report_data.hpp"

namespace arb::report {

// The round a schedule key names ("t/r3/g1/s2" -> 3), -1 when it names none.
int round_of(const ReportMatch& match);

// A table (and a chart's canvas, id "rounds-ID") of each bot's rating after each round; the
// chart's data goes into g["rounds"]. "" when the matches span fewer than two rounds.
std::string rounds_section(const std::vector<ReportMatch>& matches, const std::string& id, bool charts,
                           nlohmann::json& g);

}  // namespace arb::report
