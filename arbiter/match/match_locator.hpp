#pragma once
// A match as a user names it, found on disk: a tournament's match folder (record.json), the
// folder `arbiter play` wrote (GAME-seedN-rK.json), a record, or a game's folder of player logs
// (its record beside it); and the files a record names, found from any folder.
//
// Records store absolute paths (tournaments and `arbiter play` alike). Older records and copied
// folders may hold relative or stale ones: a file is looked for by its name beside the record
// first, then as written, then relative to the record's folder.
#include <filesystem>
#include <optional>
#include <string>

#include "core/match_record.hpp"

namespace arb {

// The record of the match in folder `folder`; nullopt when the folder holds none and is not a
// folder of player logs whose record is beside it. UserError when it holds several (the seat
// rotations of one `arbiter play --rotations`), naming them.
std::optional<std::filesystem::path> record_in_folder(const std::filesystem::path& folder);

// The record `input` names: the file itself, or the record of a folder. UserError for a folder
// without one, saying what to give.
std::filesystem::path find_record(const std::filesystem::path& input);

// Reads and checks a record file. UserError naming the file.
MatchRecord read_record_file(const std::filesystem::path& path);

// A file the record names (`stored`, its replay_path or transcript_path), else `usual` beside it.
// nullopt when none of the places holds it.
std::optional<std::filesystem::path> find_record_file(const std::filesystem::path& record_path,
                                                      const std::string& stored, const std::string& usual);

}  // namespace arb
