#pragma once
// Human-readable match results.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/match_record.hpp"

namespace arb::cli {

// One block per match: end reason, then a row per participant (seat, bot, score, rank, status,
// time used, peak memory).
void print_match_result(std::ostream& out, const MatchRecord& record);
// Totals per bot over several matches of one deal set (rotations).
void print_rotation_summary(std::ostream& out, const std::vector<MatchRecord>& records);

// The file name of the map (or field) the match was played on, from its game options: the
// option the game's descriptor names; "" for a game without maps or a record without one.
std::string map_of(const MatchRecord& record);

// A stored match named by its schedule key.
struct KeyedRecord {
    std::string key;
    const MatchRecord* record = nullptr;
};
// Every failed seat of the matches, one line each: key, bot, why (status, limit, exit, detail)
// and the last line of its stderr; at most `max_rows` rows, then how many more there are.
// `all_rows`: the failed seats in all, when `matches` are only the first of them.
void print_failed_seats(std::ostream& out, const std::vector<KeyedRecord>& matches, std::size_t max_rows = 20,
                        std::optional<std::size_t> all_rows = std::nullopt);
// The stderr tail of each failed participant, indented under its name.
void print_stderr_tails(std::ostream& out, const MatchRecord& record);

}  // namespace arb::cli
