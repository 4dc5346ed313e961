#pragma once
// A small file per running match, for a live page (`arbiter serve`): while a tournament's match
// plays, <files root>/<tournament>/live/<match folder name>.json names its bots, seed, options,
// start and folder; it is removed when the match returns. The page reads the step and the time
// used from the match's transcript, which the table already writes out at every wait for a bot,
// and the board from <name>.replay beside it, the replay so far that the game's referee rewrites
// now and then as it plays (rules/live_replay.hpp, at most about 1 % of the match's time).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "arbiter/tournament/worker_pool.hpp"

namespace arb::tournament {

// <tournament folder>/live: where the running matches' files are.
std::filesystem::path live_folder(const std::filesystem::path& tournament_folder);

// `play`, with the match's live file written before it starts and removed once it returns, and
// its replay so far directed into the live folder (removed as well); a match without a
// transcript, i.e. without a folder, gets neither. A file that cannot be written costs the match
// nothing: the live page just does not list it.
MatchFunction with_live_files(MatchFunction play, std::filesystem::path live_dir);

// Removes the live files (and replays so far) a killed run left behind (at the start of a run,
// which holds the lock).
void clear_live_files(const std::filesystem::path& live_dir);

struct LiveMatchFile {
    std::string name;                       // the match folder's name ("r0-g1-s2")
    std::filesystem::path folder;           // the match's folder
    std::filesystem::path transcript;
    std::filesystem::path live_replay;      // the replay so far (rules/live_replay.hpp), when written
    std::vector<std::string> bots;          // in seat order
    std::uint64_t seed = 0;
    std::optional<std::uint64_t> deal_set;
    int rotation = 0;
    std::string options_json = "{}";
    std::string started_at;
};

// The live files in `live_dir`, by name; unreadable or foreign files are passed over (at most
// `limit` files, each read up to 64 KiB).
std::vector<LiveMatchFile> read_live_files(const std::filesystem::path& live_dir, std::size_t limit = 256);

}  // namespace arb::tournament
