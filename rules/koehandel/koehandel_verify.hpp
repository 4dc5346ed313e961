#pragma once
// `arbiter verify koehandel DIR`: a match's player logs (the folder --replay names) replayed
// through our engine. No recorded games of the original server survive, so what is checked is
// our own record: the folder's match.json gives the seed and options, the seats answer as their
// logs say, and every request, notification and default action the engine makes must be the
// next line of that seat's log, to the end of the game and of every log (koehandel_replay.hpp).
#include <filesystem>

#include "rules/game.hpp"

namespace arb::koehandel {

// `path` is the log folder or its match.json. UserError on a folder that is not a match's logs;
// a log that differs from the replayed game is a VerifyOutcome with the first difference.
VerifyOutcome verify_player_logs(const std::filesystem::path& path);

}  // namespace arb::koehandel
