#pragma once
// Human-readable match results.
#include <ostream>
#include <vector>

#include "core/match_record.hpp"

namespace arb::cli {

// One block per match: end reason, then a row per participant (seat, bot, score, rank, status,
// time used, peak memory).
void print_match_result(std::ostream& out, const MatchRecord& record);
// Totals per bot over several matches of one deal set (rotations).
void print_rotation_summary(std::ostream& out, const std::vector<MatchRecord>& records);

}  // namespace arb::cli
