#pragma once
// A small file per running match, for a live page (`arbiter serve`): while a tournament's match
// plays, <files root>/<tournament>/live/<match folder name>.json names its bots, seed, options,
// start and folder; it is removed when the match returns. The page reads the step and the time
// used from the match's transcript, which the table already writes out at every wait for a bot,
// so the tournament's only added cost is one small file written and removed per match.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "arbiter/tournament/worker_pool.hpp"

namespace arb::tournament {

// <tournament folder>/live: where the running matches' files are.
std::filesystem::path live_folder(const std::filesystem::path& tournament_folder);

// `play`, with the match's live file written before it starts and removed once it returns
// (a match without a transcript, i.e. without a folder, gets none). A file that cannot be
// written costs the match nothing: the live page just does not list it.
MatchFunction with_live_files(MatchFunction play, std::filesystem::path live_dir);

// Removes the live files a killed run left behind (at the start of a run, which holds the lock).
void clear_live_files(const std::filesystem::path& live_dir);

struct LiveMatchFile {
    std::string name;                       // the match folder's name ("r0-g1-s2")
    std::filesystem::path folder;           // the match's folder
    std::filesystem::path transcript;
    std::vector<std::string> bots;          // in seat order
    std::uint64_t seed = 0;
    int rotation = 0;
    std::string options_json = "{}";
    std::string started_at;
};

// The live files in `live_dir`, by name; unreadable or foreign files are passed over (at most
// `limit` files, each read up to 64 KiB).
std::vector<LiveMatchFile> read_live_files(const std::filesystem::path& live_dir, std::size_t limit = 256);

}  // namespace arb::tournament
