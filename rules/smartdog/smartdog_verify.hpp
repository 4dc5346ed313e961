#pragma once
// Replaying a recorded wire transcript (the original server's or ours) through our session.
#include <filesystem>
#include <string>
#include <vector>

#include "rules/game.hpp"

namespace arb::smartdog {

// The map a transcript was played on: its "# map FILE" note (relative to the transcript), or
// for the golden files <dir>/../maps/<map>.txt from the name <map>_<N>p.txt.
std::filesystem::path map_for_transcript(const std::filesystem::path& transcript, const std::vector<std::string>& notes);

VerifyOutcome verify_transcript(const std::filesystem::path& path);

}  // namespace arb::smartdog
