#pragma once
// Suggestions for misspelt names (options, config keys, games), as in "did you mean 'rounds'?".
#include <filesystem>
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

// Why `path` cannot be opened, for a message that ends in it: "No such file or directory (did you
// mean 'maze_02p_02.map'?)" when a name in its folder is close, "no folder /x/y" when the folder
// itself is missing, "it is a folder", or the system's reason ("Permission denied"). "" when it
// can be opened. Looks at no more than 10,000 names of the folder.
std::string unreadable_reason(const std::filesystem::path& path);

// did_you_mean() over the names in `path`'s folder (at most 10,000 of them, none opened).
std::string did_you_mean_file(const std::filesystem::path& path);

}  // namespace arb
