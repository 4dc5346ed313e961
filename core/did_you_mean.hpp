#pragma once
// Suggestions for misspelt names (options, config keys, games), as in "did you mean 'rounds'?".
#include <string>
#include <string_view>
#include <vector>

namespace arb {

// Levenshtein distance (insertions, deletions, substitutions each cost 1).
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word`, if within `max_distance` edits; else the only candidate that
// starts with `word` (3 characters or more); "" otherwise.
std::string closest_name(std::string_view word, const std::vector<std::string>& candidates,
                         std::size_t max_distance = 2);

// " (did you mean 'X'?)" for the closest candidate, or "" when none is close.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace arb
