#pragma once
// The folder a tournament (or ladder, or cluster job) match leaves behind: record.json, the
// game's replay (the file `arbiter play --replay` writes), transcript.txt and logs/ with each
// seat's stderr. Its paths go into the record as absolute paths, so the folder of a stored match
// is the parent of its transcript_path.
#include <filesystem>
#include <string>

#include "core/atomic_file.hpp"
#include "core/match_record.hpp"
#include "rules/game.hpp"

namespace arb {

// <database folder>/<database file stem>-files (for a database that is a file).
std::filesystem::path default_files_root(const std::string& db_path);

// "r<round>-g<group>-s<seating>": a match's folder name, its schedule key with dashes.
std::string match_folder_name(int round, int group, int seating);

// Makes `folder` and its logs/ and points the request's record, transcript, replay and stderr logs into
// it by absolute paths. UserError (naming `flag`) when the folder cannot be made.
void direct_files_into(MatchRequest& request, const GameDescriptor& game, const std::filesystem::path& folder,
                       const std::string& flag);

// The record as JSON (what `arbiter play` writes), written atomically.
void write_record_file(const std::filesystem::path& path, const MatchRecord& record);

}  // namespace arb
