#pragma once
// Plays a match of a game with in-process bots whose replies come from the fuzz input, so the
// game's referee parses them exactly as it parses a real bot's output.
//
// Input format: answers separated by kAnswerSeparator; an answer's first byte picks the seat
// (byte % seats), the rest is what that seat prints when next asked. "$TOKEN" in an answer is
// replaced by the seat's join token (smart-dog). A seat with no answers left closes its output.
// tests/fuzz/make_reply_seeds.py writes seeds in this format from real matches' transcripts.
#include <map>
#include <string>
#include <string_view>

namespace arb::fuzz {

inline constexpr char kAnswerSeparator = '\x1e';

// The shared data folder (maps, fields) beside the repository.
std::string shared_data(const std::string& relative);

// Plays one match of `game` with `bots` scripted bots; aborts when the referee's result breaks
// the record's rules (a pair naming a missing seat, a score that is not 0, 0.5 or 1).
void play_scripted_match(const std::string& game, const std::map<std::string, std::string>& options, int bots,
                         std::string_view data);

}  // namespace arb::fuzz
